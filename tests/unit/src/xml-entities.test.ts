import { describe, expect, it } from 'vitest';
import { decodeXmlEntities } from '../../../src/xml-entities.ts';

describe('decodeXmlEntities', () => {
  it('decodes the five named entities and numeric references, in either case', () => {
    expect(decodeXmlEntities('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#233; &#x1F680; &#X41; &AMP;')).toBe(
      'a & b <c> "d" \'e\' é 🚀 A &',
    );
  });

  it('decodes once: an escaped entity stays an entity', () => {
    expect(decodeXmlEntities('&amp;lt;')).toBe('&lt;');
  });

  it('leaves what it does not know as written, and never throws', () => {
    expect(decodeXmlEntities('&nbsp; &#x110000; &#99999999; & ;')).toBe('&nbsp; &#x110000; &#99999999; & ;');
    expect(decodeXmlEntities('plain text')).toBe('plain text');
  });
});
