import { expect, it } from 'vitest';
import { ListingWatermark } from '../../../src/listing-watermark.ts';

it('moves over contiguous finished items only, counting them', () => {
  const mark = new ListingWatermark();
  const [a, b, c] = [mark.listed('a', 1), mark.listed('b', 10), mark.listed('c', 100)];
  expect(mark.done(b)).toBeUndefined();
  expect(mark.done(a)).toEqual({ afterKey: 'b', objects: 2, bytes: 11 });
  expect(mark.done(c)).toEqual({ afterKey: 'c', objects: 3, bytes: 111 });
});

it('continues from a position a resumed listing starts after', () => {
  const mark = new ListingWatermark({ afterKey: 'm', objects: 5, bytes: 50 });
  expect(mark.done(mark.listed('n', 1))).toEqual({ afterKey: 'n', objects: 6, bytes: 51 });
});

it('stops for good at a failure, so a resumed run lists that item again', () => {
  const mark = new ListingWatermark();
  const [a, b, c] = [mark.listed('a', 1), mark.listed('b', 1), mark.listed('c', 1)];
  expect(mark.done(a)).toEqual({ afterKey: 'a', objects: 1, bytes: 1 });
  mark.failed();
  expect(mark.done(c)).toBeUndefined();
  expect(mark.done(b)).toBeUndefined();
  expect(mark.done(mark.listed('d', 1))).toBeUndefined();
});
