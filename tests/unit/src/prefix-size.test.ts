import { describe, expect, it } from 'vitest';
import { addPrefixSize, EMPTY_PREFIX_SIZE, sizeTotals } from '../../../src/prefix-size.ts';

const entry = (storageClass: string, objects: number, bytes: number, noncurrentObjects = 0, noncurrentBytes = 0) => ({
  storageClass,
  objects,
  bytes,
  noncurrentObjects,
  noncurrentBytes,
});

describe("a prefix's size, stretch by stretch", () => {
  it('adds stretches per class, largest first, and keeps the last token', () => {
    const first = addPrefixSize(EMPTY_PREFIX_SIZE, {
      classes: [entry('STANDARD', 2, 10), entry('GLACIER', 1, 100)],
      deleteMarkers: 1,
      nextToken: 't1',
    });
    expect(first.nextToken).toBe('t1');
    const both = addPrefixSize(first, { classes: [entry('STANDARD', 3, 5, 1, 7)], deleteMarkers: 2 });
    expect(both).toEqual({
      classes: [entry('GLACIER', 1, 100), entry('STANDARD', 5, 15, 1, 7)],
      deleteMarkers: 3,
    });
    expect(sizeTotals(both)).toEqual({ objects: 6, bytes: 115, noncurrentObjects: 1, noncurrentBytes: 7 });
  });
});
