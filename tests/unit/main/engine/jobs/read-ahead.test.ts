import { expect, it } from 'vitest';
import { readAhead } from '../../../../../main/engine/jobs/read-ahead.ts';
import { mostSubscriptionsToOnePromise } from '../../../../support/promise-subscriptions.ts';

/** A source of `count` items that says how far it was read, and whether it was closed. */
function source(count: number, failAt?: number) {
  const seen = { read: 0, closed: false };
  async function* items(): AsyncGenerator<{ n: number }> {
    try {
      for (let n = 0; n < count; n++) {
        await Promise.resolve();
        if (n === failAt) throw new Error(`page ${n} failed`);
        seen.read += 1;
        yield { n };
      }
    } finally {
      seen.closed = true;
    }
  }
  return { seen, items: items() };
}

it('reads its source to the end while the consumer is still at the first item', async () => {
  const { seen, items } = source(50);
  const ahead = readAhead(items, { memoryItems: 8 });
  expect((await ahead.next()).value).toEqual({ n: 0 });
  await expect.poll(() => seen.read).toBe(50);
  const rest: number[] = [];
  for await (const item of ahead) rest.push(item.n);
  expect(rest).toEqual(Array.from({ length: 49 }, (_, i) => i + 1));
});

it('reads no more than its limit ahead', async () => {
  const { seen, items } = source(100);
  const ahead = readAhead(items, { maxAhead: 10 });
  await ahead.next();
  await expect.poll(() => seen.read).toBe(11);
  // Nothing more comes while the consumer takes nothing.
  for (let i = 0; i < 20; i++) await Promise.resolve();
  expect(seen.read).toBe(11);
  await ahead.next();
  await expect.poll(() => seen.read).toBe(12);
  await ahead.return(undefined);
  expect(seen.closed).toBe(true);
});

it('gives every item read before the source failed, then its error', async () => {
  const { items } = source(10, 6);
  const got: number[] = [];
  await expect(
    (async () => {
      for await (const item of readAhead(items)) got.push(item.n);
    })(),
  ).rejects.toThrow('page 6 failed');
  expect(got).toEqual([0, 1, 2, 3, 4, 5]);
});

it('closes its source when the consumer stops early', async () => {
  const { seen, items } = source(1_000, undefined);
  for await (const item of readAhead(items, { maxAhead: 5 })) if (item.n === 2) break;
  expect(seen.closed).toBe(true);
});

it('reads nothing while the job is paused, and goes on when it resumes', async () => {
  const { seen, items } = source(100);
  let paused = true;
  let resume!: () => void;
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  const ahead = readAhead(items, { whilePaused: () => (paused ? resumed : Promise.resolve()) });
  const first = ahead.next();
  for (let i = 0; i < 20; i++) await Promise.resolve();
  expect(seen.read).toBe(0);
  paused = false;
  resume();
  expect((await first).value).toEqual({ n: 0 });
  await expect.poll(() => seen.read).toBe(100);
  await ahead.return(undefined);
});

it('stops reading when the job is cancelled, and starts none of the items waiting', async () => {
  const { seen, items } = source(1_000);
  const controller = new AbortController();
  const ahead = readAhead(items, { maxAhead: 50, signal: controller.signal });
  expect((await ahead.next()).value).toEqual({ n: 0 });
  await expect.poll(() => seen.read).toBe(51);
  controller.abort();
  expect(await ahead.next()).toEqual({ done: true, value: undefined });
  expect(seen.read).toBeLessThanOrEqual(52);
  expect(seen.closed).toBe(true);
});

it('a job cancelled while paused ends at once, having read nothing', async () => {
  const { seen, items } = source(10);
  const controller = new AbortController();
  // A pause that never ends by itself: only the cancel can let the reader go.
  const ahead = readAhead(items, { signal: controller.signal, whilePaused: () => new Promise<void>(() => undefined) });
  const first = ahead.next();
  for (let i = 0; i < 5; i++) await Promise.resolve();
  controller.abort();
  expect(await first).toEqual({ done: true, value: undefined });
  expect(seen.read).toBe(0);
});

it('leaves nothing on a promise that lasts the whole job for each item read (memory stays flat with the items)', async () => {
  const { seen, items } = source(500);
  const got: number[] = [];
  const most = await mostSubscriptionsToOnePromise(async () => {
    // Few items ahead, so the reader also waits for room over and over.
    for await (const item of readAhead(items, { maxAhead: 4, whilePaused: () => Promise.resolve() })) got.push(item.n);
  });
  expect(got).toEqual(Array.from({ length: 500 }, (_, i) => i));
  expect(seen.closed).toBe(true);
  // A race against one promise kept until the end subscribed to it once per item read and per wait: ~1,000.
  expect(most).toBeLessThan(10);
});
