import { describe, expect, it } from 'vitest';
import { decideIfExists, isNewer, numberedKey, numberedName } from '../../../src/if-exists.ts';

const bytes = (text: string) => Buffer.byteLength(text);

it('numbers a name before its extension, or at its end when it has none', () => {
  expect(numberedName('report.pdf', 1)).toBe('report (1).pdf');
  expect(numberedName('archive.tar.gz', 2)).toBe('archive.tar (2).gz');
  expect(numberedName('README', 3)).toBe('README (3)');
  expect(numberedName('.bashrc', 1)).toBe('.bashrc (1)');
});

it('a numbered name fits in 255 bytes: the stem is cut at a character boundary, the extension and the number kept', () => {
  for (const length of [251, 252, 253, 254, 255]) {
    const name = `${'a'.repeat(length - 4)}.txt`;
    for (const n of [1, 10, 9999]) {
      const numbered = numberedName(name, n);
      expect(bytes(numbered)).toBeLessThanOrEqual(255);
      expect(numbered.endsWith(` (${n}).txt`)).toBe(true);
      expect(numbered.startsWith('aaaa')).toBe(true);
    }
  }
  expect(bytes(numberedName(`${'a'.repeat(251)}.txt`, 1))).toBe(255);
  // Two-byte characters are never cut in half.
  const accented = `${'é'.repeat(125)}.txt`;
  const numbered = numberedName(accented, 1);
  expect(bytes(numbered)).toBeLessThanOrEqual(255);
  expect(numbered).toMatch(/^é+ \(1\)\.txt$/);
  // No extension, or one too long to keep: the whole name is cut.
  expect(numberedName('b'.repeat(255), 7)).toBe(`${'b'.repeat(251)} (7)`);
  const longExtension = `x.${'e'.repeat(253)}`;
  expect(bytes(numberedName(longExtension, 1))).toBe(255);
  expect(numberedName(longExtension, 1).endsWith(' (1)')).toBe(true);
});

describe('what an answer does about a destination already there', () => {
  const at = (iso: string) => Date.parse(iso);
  const there = { size: 257, modifiedAt: at('2025-03-01T12:00:00.000Z') };

  it('replace, skip, keep both and fail do what they say, whatever the dates; ask asks', () => {
    const incoming = { size: 34, modifiedAt: at('2024-01-01T00:00:00Z') };
    expect(decideIfExists('overwrite', there, incoming)).toEqual({ act: 'replace' });
    expect(decideIfExists('skip', there, incoming)).toEqual({ act: 'keep', reason: 'asked' });
    expect(decideIfExists('rename', there, incoming)).toEqual({ act: 'rename' });
    expect(decideIfExists('fail', there, incoming)).toEqual({ act: 'fail' });
    expect(decideIfExists('ask', there, incoming)).toEqual({ act: 'ask' });
  });

  it('newer replaces only what is older by a whole second: Last-Modified is kept to the second', () => {
    expect(decideIfExists('newer', there, { modifiedAt: at('2025-03-01T12:00:01.000Z') })).toEqual({ act: 'replace' });
    // Saved within the second the object was stored: the object is its own upload, not older.
    expect(decideIfExists('newer', there, { modifiedAt: at('2025-03-01T12:00:00.900Z') })).toEqual({
      act: 'keep',
      reason: 'not-newer',
    });
    expect(decideIfExists('newer', there, { modifiedAt: at('2025-03-01T11:59:59.999Z') })).toEqual({
      act: 'keep',
      reason: 'not-newer',
    });
    // A date not known replaces nothing on a guess.
    expect(decideIfExists('newer', { size: 257 }, { modifiedAt: at('2030-01-01T00:00:00Z') })).toEqual({
      act: 'keep',
      reason: 'date-unknown',
    });
    expect(decideIfExists('newer', there, {})).toEqual({ act: 'keep', reason: 'date-unknown' });
  });

  it('isNewer compares whole seconds and never guesses', () => {
    expect(isNewer(2000, 1999)).toBe(true);
    expect(isNewer(1999, 1000)).toBe(false);
    expect(isNewer(undefined, 0)).toBe(false);
    expect(isNewer(0, undefined)).toBe(false);
  });

  it('a kept copy of an object is numbered in its last segment, as a file would be', () => {
    expect(numberedKey('docs/README.txt', 1)).toBe('docs/README (1).txt');
    expect(numberedKey('README', 2)).toBe('README (2)');
    expect(numberedKey('a.b/c', 1)).toBe('a.b/c (1)');
    expect(numberedKey('docs/.env', 1)).toBe('docs/.env (1)');
    // A segment a file system could take is numbered so that it still fits one.
    expect(Buffer.byteLength(numberedKey(`x/${'a'.repeat(251)}.txt`, 1).slice(2))).toBe(255);
    // A longer one (no file can be saved under it) is numbered whole.
    expect(numberedKey(`x/${'a'.repeat(300)}.txt`, 3)).toBe(`x/${'a'.repeat(300)} (3).txt`);
  });
});
