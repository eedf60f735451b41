import { describe, expect, it } from 'vitest';
import { rowName, visibleRows } from '../../../renderer/store/browser-store.ts';
import type { Row } from '../../../renderer/store/browser-store.ts';
import { nearestStep, PART_SIZE_STEPS } from '../../../renderer/part-size-steps.ts';

const object = (key: string, size: number, lastModified = 0): Row => ({ kind: 'object', key, name: rowName(key, 'p/'), size, lastModified });
const folder = (key: string): Row => ({ kind: 'folder', key, name: rowName(key, 'p/') });

describe('browser rows', () => {
  const rows = [object('p/b10.txt', 5, 3), object('p/b9.txt', 50, 1), folder('p/z/'), object('p/a.txt', 500, 2), folder('p/m/')];

  it('names rows relative to the prefix', () => {
    expect(rowName('p/z/', 'p/')).toBe('z');
    expect(rowName('p/a.txt', 'p/')).toBe('a.txt');
  });

  it('puts folders first and sorts names naturally', () => {
    expect(visibleRows(rows, { column: 'name', descending: false }, '').map((r) => r.name)).toEqual(['m', 'z', 'a.txt', 'b9.txt', 'b10.txt']);
  });

  it('sorts by size and date, both ways', () => {
    expect(visibleRows(rows, { column: 'size', descending: true }, '').filter((r) => r.kind === 'object').map((r) => r.name)).toEqual(['a.txt', 'b9.txt', 'b10.txt']);
    expect(visibleRows(rows, { column: 'modified', descending: false }, '').filter((r) => r.kind === 'object').map((r) => r.name)).toEqual(['b9.txt', 'a.txt', 'b10.txt']);
  });

  it('filters by name, case-insensitively', () => {
    expect(visibleRows(rows, { column: 'name', descending: false }, ' B1').map((r) => r.name)).toEqual(['b10.txt']);
  });

  it('sorts 100,000 rows', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => object(`p/k${i}`, i));
    const sorted = visibleRows(many, { column: 'name', descending: true }, '');
    expect(sorted[0]!.name).toBe('k99999');
  });
});

describe('part size slider', () => {
  it('steps logarithmically from 5 MiB to 5 GiB and snaps to the nearest step', () => {
    expect(PART_SIZE_STEPS[0]).toBe(5 * 1024 ** 2);
    expect(PART_SIZE_STEPS.at(-1)).toBe(5 * 1024 ** 3);
    expect(PART_SIZE_STEPS[nearestStep(60 * 1024 ** 2)]).toBe(64 * 1024 ** 2);
  });
});
