import { describe, expect, it } from 'vitest';
import { GIB, MIB } from '../../../src/byte-units.ts';
import {
  choosePartSize,
  MAX_PART_SIZE_BYTES,
  MAX_PARTS,
  MIN_PART_SIZE_BYTES,
  partCount,
  partNumbers,
  partRange,
} from '../../../src/part-size.ts';

describe('choosePartSize', () => {
  it('uses the setting when the file fits in 10,000 parts', () => {
    expect(choosePartSize(1 * GIB, 64 * MIB)).toBe(64 * MIB);
  });

  it('clamps the setting to S3 limits', () => {
    expect(choosePartSize(100 * MIB, 1 * MIB)).toBe(MIN_PART_SIZE_BYTES);
    expect(choosePartSize(100 * MIB, 10 * GIB)).toBe(MAX_PART_SIZE_BYTES);
  });

  it('raises the part size so no file needs more than 10,000 parts', () => {
    const size = 200 * GIB + 7;
    const part = choosePartSize(size, 5 * MIB);
    expect(part % MIB).toBe(0);
    expect(partCount(size, part)).toBeLessThanOrEqual(MAX_PARTS);
    expect(partCount(size, part - MIB)).toBeGreaterThan(MAX_PARTS);
  });

  it('rounds up where flooring would give 10,001 parts', () => {
    // 10,000 parts of 5 MiB plus one byte: floor(size / 10,000) would stay at 5 MiB.
    const size = MAX_PARTS * 5 * MIB + 1;
    expect(partCount(size, choosePartSize(size, 5 * MIB))).toBeLessThanOrEqual(MAX_PARTS);
  });

  it('never exceeds 5 GiB, even for the largest object', () => {
    expect(choosePartSize(MAX_PARTS * MAX_PART_SIZE_BYTES, 5 * MIB)).toBe(MAX_PART_SIZE_BYTES);
  });
});

describe('partRange', () => {
  it('covers the object exactly, with a short last part', () => {
    const size = 12 * MIB + 3;
    const ranges = [...partNumbers(partCount(size, 5 * MIB))].map((n) => partRange(size, 5 * MIB, n));
    expect(ranges.map((r) => r.end - r.start)).toEqual([5 * MIB, 5 * MIB, 2 * MIB + 3]);
    expect(ranges[0]!.start).toBe(0);
    expect(ranges.at(-1)!.end).toBe(size);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.start).toBe(ranges[i - 1]!.end);
  });

  it('gives an empty file one part', () => {
    expect(partCount(0, 5 * MIB)).toBe(1);
  });
});
