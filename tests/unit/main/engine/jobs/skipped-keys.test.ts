import { expect, it } from 'vitest';
import { SkippedKeys } from '../../../../../main/engine/jobs/skipped-keys.ts';

it('covers a skipped key and what lies below it, never a neighbour that only begins alike', () => {
  const skipped = new SkippedKeys();
  skipped.add('p/link');
  skipped.add('p/loop/');
  expect(skipped.covers('p/link')).toBe(true);
  expect(skipped.covers('p/link/a/b.txt')).toBe(true);
  expect(skipped.covers('p/loop/x')).toBe(true);
  expect(skipped.covers('p/link2/a')).toBe(false);
  expect(skipped.covers('p/lin')).toBe(false);
  expect(skipped.covers('p/other.txt')).toBe(false);
  expect(new SkippedKeys().covers('p/link')).toBe(false);
});

it('answers from a set: 20,000 skipped links against an extra cost its depth, not their number', () => {
  const skipped = new SkippedKeys();
  for (let i = 0; i < 20_000; i++) skipped.add(`p/l${i}`);
  expect(skipped.covers('p/l19999/deep/x')).toBe(true);
  expect(skipped.covers('p/m/deep/x')).toBe(false);
});
