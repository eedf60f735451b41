import { describe, expect, it } from 'vitest';
import { sizeOrTimeDiffers, syncSteps } from '../../../../../main/engine/jobs/sync-plan.ts';
import type { SyncSide } from '../../../../../main/engine/jobs/sync-plan.ts';

async function* sides(...entries: [string, number, number | undefined][]): AsyncGenerator<SyncSide> {
  for (const [key, size, modifiedMs] of entries) yield { key, size, modifiedMs };
}

async function* batches<T>(items: readonly T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** The plan, one line a step; the same whether the sides come in batches of 1, 2 or 100 (checked). */
async function plan(source: AsyncIterable<SyncSide>, destination: AsyncIterable<SyncSide>) {
  const sources: SyncSide[] = [];
  const destinations: SyncSide[] = [];
  for await (const side of source) sources.push(side);
  for await (const side of destination) destinations.push(side);
  const plans: string[][] = [];
  for (const size of [1, 2, 100]) {
    const steps: string[] = [];
    for await (const batch of syncSteps(batches(sources, size), batches(destinations, size)))
      for (const step of batch) steps.push(`${step.reason} ${step.key}`);
    plans.push(steps);
  }
  expect(plans[1]).toEqual(plans[0]);
  expect(plans[2]).toEqual(plans[0]);
  return plans[0]!;
}

const T = Date.UTC(2026, 0, 1);

describe('syncSteps', () => {
  it('reads both sides once in key order: new, changed, unchanged and extra, each key once', async () => {
    expect(
      await plan(
        sides(['a', 1, T], ['b', 2, T], ['c', 3, T + 5_000], ['e', 5, T]),
        sides(['b', 2, T], ['c', 3, T], ['d', 4, T], ['e', 6, T], ['f', 1, T]),
      ),
    ).toEqual(['new a', 'unchanged b', 'changed c', 'extra d', 'changed e', 'extra f']);
  });

  it('orders keys as S3 does (UTF-8 bytes): "a.txt" before "a/b", and a character above U+FFFF after U+FFFD', async () => {
    expect(await plan(sides(['a.txt', 1, T], ['a/b', 1, T], ['\uFFFD', 1, T], ['\u{1F600}', 1, T]), sides())).toEqual([
      'new a.txt',
      'new a/b',
      'new \uFFFD',
      'new \u{1F600}',
    ]);
  });

  it('a source left out by a time or size filter is neither sent nor makes its copy extra', async () => {
    async function* source(): AsyncGenerator<SyncSide> {
      yield { key: 'a', size: 1, modifiedMs: T, leftOut: true };
      yield { key: 'b', size: 1, modifiedMs: T + 5_000, leftOut: true };
      yield { key: 'c', size: 1, modifiedMs: T + 5_000 };
    }
    expect(await plan(source(), sides(['b', 2, T], ['c', 1, T], ['d', 1, T]))).toEqual(['changed c', 'extra d']);
  });

  it('fails a side that is not in key order rather than call keys new and extra at random', async () => {
    await expect(plan(sides(['b', 1, T], ['a', 1, T]), sides())).rejects.toThrow(/not in key order/);
  });
});

describe('sizeOrTimeDiffers (s5cmd and aws s3 sync)', () => {
  const side = (size: number, modifiedMs: number | undefined) => ({ key: 'k', size, modifiedMs });
  it('sends another size, or a source newer by a whole second', () => {
    expect(sizeOrTimeDiffers(side(1, T), side(2, T))).toMatch(/size differs/);
    expect(sizeOrTimeDiffers(side(1, T + 1_000), side(1, T))).toBe('source is newer');
  });
  it('leaves a destination as new or newer, within the same second too', () => {
    expect(sizeOrTimeDiffers(side(1, T), side(1, T + 60_000))).toBeUndefined();
    expect(sizeOrTimeDiffers(side(1, T + 900), side(1, T))).toBeUndefined();
  });
  it('sends what it cannot date: nothing is unchanged on a guess', () => {
    expect(sizeOrTimeDiffers(side(1, undefined), side(1, T))).toMatch(/unknown/);
  });
});
