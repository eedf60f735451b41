import { describe, expect, it } from 'vitest';
import {
  printable,
  printableJson,
  printableName,
  unsafeCharacterIn,
  withoutUnsafeCharacters,
} from '../../../src/unsafe-text.ts';

/**
 * One of each kind: C0, DEL, C1 (NEL, CSI), bidi marks, overrides and isolates, and the line and paragraph separators.
 */
const UNSAFE = [
  '\x1b',
  '\x7f',
  '\x85',
  '\x9b',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u2028',
  '\u2029',
];

describe('printable', () => {
  it('shows control characters, bidirectional formatting and line separators as escapes, and nothing else', () => {
    expect(printable('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd');
    expect(printable('\x1b[31mred\x07')).toBe('\\x1b[31mred\\x07');
    expect(printable('C1\x9b NEL\x85')).toBe('C1\\x9b NEL\\x85');
    expect(printable('invoice-\u202efdp.exe')).toBe('invoice-\\u202efdp.exe');
    expect(printable('one\u2028two\u2029three')).toBe('one\\u2028two\\u2029three');
    for (const c of UNSAFE) expect(printable(`a${c}b`), JSON.stringify(c)).toMatch(/^a\\[xu][0-9a-f]+b$/);
    expect(printable('naïve café 日本語 🚀 "quoted" עברית')).toBe('naïve café 日本語 🚀 "quoted" עברית');
    // Messages are escaped once, whole: an escape already in one is left as it is.
    expect(printable('a\\x07 b')).toBe('a\\x07 b');
  });

  it('a name in a listing has its backslashes doubled: two characters, backslash and n, never look like a newline', () => {
    expect(printableName('literal\\n')).toBe('literal\\\\n');
    expect(printableName('literal\\n')).not.toBe(printableName('literal\n'));
    expect(printableName('tab\there')).toBe('tab\\there');
    expect(printableName('sep\u2028')).toBe('sep\\u2028');
  });
});

it('JSON keeps the very value, with nothing unsafe left raw', () => {
  const value = { key: `k/${UNSAFE.join('')}"\\`, n: 1 };
  const text = printableJson(value);
  expect(JSON.parse(text)).toEqual(value);
  expect(text).not.toMatch(/[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/);
  expect(text).toContain('\\u202e');
});

it('names the first unsafe character of a text, by its kind', () => {
  expect(unsafeCharacterIn('plain, naïve, 日本語')).toBeUndefined();
  expect(unsafeCharacterIn('a\x07b')).toBe('a control character (\\x07)');
  expect(unsafeCharacterIn('a\x9bb')).toBe('a control character (\\x9b)');
  expect(unsafeCharacterIn('invoice-\u202efdp.exe')).toBe('a bidirectional formatting character (\\u202e)');
  expect(unsafeCharacterIn('x\u2029')).toBe('a line or paragraph separator (\\u2029)');
  expect(withoutUnsafeCharacters(`a${UNSAFE.join('')}b`)).toBe('ab');
});
