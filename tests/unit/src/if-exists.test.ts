import { expect, it } from 'vitest';
import { numberedName } from '../../../src/if-exists.ts';

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
