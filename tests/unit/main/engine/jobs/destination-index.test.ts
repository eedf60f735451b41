import { describe, expect, it } from 'vitest';
import { compareUtf8, covers, listingPlan, PREFIX_PER_SOURCE_MAX } from '../../../../../main/engine/jobs/destination-index.ts';

describe('what an upload lists to know what is there', () => {
  it('few sources: each one\'s own prefix, up to its extension (numbered copies are covered), in listing order, nested ones once', () => {
    const plan = listingPlan(['backup/report.pdf', 'backup/photos', 'backup/photos.old', 'backup/.env']);
    expect(plan).toEqual({ kind: 'prefixes', prefixes: ['backup/.env', 'backup/photos', 'backup/report'] });
    expect(covers(plan, 'backup/report.pdf')).toBe(true);
    expect(covers(plan, 'backup/report (1).pdf')).toBe(true);
    expect(covers(plan, 'backup/photos/2024/a.jpg')).toBe(true);
    expect(covers(plan, 'backup/other.txt')).toBe(false);
  });

  it('one file to a key of its own: that key\'s prefix', () => {
    expect(listingPlan(['notes/today.md'])).toEqual({ kind: 'prefixes', prefixes: ['notes/today'] });
  });

  it('many sources into one folder: that folder\'s level, and only the sources\' folders below it', () => {
    const keys = Array.from({ length: PREFIX_PER_SOURCE_MAX + 1 }, (_, i) => `in/f${i}.txt`);
    const plan = listingPlan([...keys, 'in/photos']);
    expect(plan.kind).toBe('level');
    expect(covers(plan, 'in/f3.txt')).toBe(true);
    expect(covers(plan, 'in/f3 (1).txt')).toBe(true);
    expect(covers(plan, 'in/photos/a.jpg')).toBe(true);
    // A folder no source goes into is not listed, so the listing cannot say.
    expect(covers(plan, 'in/elsewhere/a.jpg')).toBe(false);
    expect(covers(plan, 'out/f3.txt')).toBe(false);
  });

  it('keys compare as S3 lists them: by UTF-8 bytes, a character above U+FFFF after U+E000-U+FFFF', () => {
    const keys = ['a', 'ab', 'b', 'é', '\uffef', '😀', 'z', '\u{10FFFF}', 'a/b', 'a.b', ''];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...keys].sort(compareUtf8)).toEqual(byBytes);
    expect(compareUtf8('\uffef', '😀')).toBeLessThan(0);
    // JavaScript's own order puts them the other way round.
    expect('\uffef' < '😀').toBe(false);
  });
});
