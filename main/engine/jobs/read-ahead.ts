// Read a job's work (a listing, a folder's walk) ahead of the transfers, so its totals are known as
// soon as the listing gives them.
//
// The transfers pull items only as slots free up (concurrent-each.ts): pulled that way, a listing of
// 10,000 small objects stayed one page ahead of the downloads, and its total read "counting…" (its
// ETA "0s or more") until the job had all but ended. Here the source runs on by itself, its items
// waiting in a queue that moves to disk past 10,000 (spilling-queue.ts), up to `maxAhead` items
// ahead: memory and disk stay bounded however long the listing. It reads nothing while the job is
// paused (`whilePaused`) and stops at once when it is cancelled (`signal`). The consumer sees the same
// items in the same order, then the source's error if it threw. Items must be plain data (they may
// wait on disk as JSON).

import { SpillingQueue } from './spilling-queue.ts';

/**
 * Items read ahead at most: ~100 pages of a listing, ~30 MB on disk at the most. A prefix with more
 * keys than this has its totals a little before its last 100,000 items start, not at once.
 */
export const MAX_READ_AHEAD_ITEMS = 100_000;

export interface ReadAheadOptions {
  /** Items waiting at most (default MAX_READ_AHEAD_ITEMS). */
  readonly maxAhead?: number;
  /** Items waiting in memory before the next ones go to disk (spilling-queue.ts). */
  readonly memoryItems?: number;
  /** The job's cancellation: nothing more is read, and the items waiting are dropped. */
  readonly signal?: AbortSignal;
  /** Resolves when the job may go on (at once unless it is paused): no page is read while it is. */
  readonly whilePaused?: () => Promise<void>;
}

export async function* readAhead<T extends object>(
  source: AsyncIterable<T>,
  options: ReadAheadOptions = {},
): AsyncGenerator<T> {
  const maxAhead = options.maxAhead ?? MAX_READ_AHEAD_ITEMS;
  const { signal } = options;
  const waiting = new SpillingQueue<T>(options.memoryItems);
  const iterator = source[Symbol.asyncIterator]();
  let ended = false;
  let failure: { error: unknown } | undefined;
  let stopped = false;
  // Whoever waits (the consumer for an item, the reader for room) is woken by the other side.
  let wakeConsumer: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  const wake = (waiter: (() => void) | undefined) => waiter?.();
  // The reader waiting for room or for a resume is released when the consumer stops. Each wait is a
  // promise of its own: a race against one promise that lasts the whole job left a reaction on it
  // per item read (a million keys: ~100 MB held until the job ended).
  let stopWaiting: (() => void) | undefined;
  const unlessStopped = (until: Promise<void>) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      stopWaiting = resolve;
      until.then(resolve, resolve);
    });
  const onAbort = () => wake(wakeConsumer);
  signal?.addEventListener('abort', onAbort, { once: true });

  const reading = (async () => {
    try {
      while (!stopped && !signal?.aborted) {
        if (waiting.length >= maxAhead) {
          await unlessStopped(new Promise<void>((resolve) => (wakeReader = resolve)));
          continue;
        }
        if (options.whilePaused) await unlessStopped(options.whilePaused());
        if (stopped || signal?.aborted) break;
        const next = await iterator.next();
        if (next.done) break;
        waiting.push(next.value);
        wake(wakeConsumer);
      }
    } catch (error) {
      failure = { error };
    } finally {
      ended = true;
      wake(wakeConsumer);
    }
  })();

  try {
    for (;;) {
      // Cancelled: what waits is not started (the source's own end, or its abort, is not waited for).
      if (signal?.aborted) return;
      const item = waiting.shift();
      if (item !== undefined) {
        wake(wakeReader);
        yield item;
        continue;
      }
      if (ended) break;
      await new Promise<void>((resolve) => (wakeConsumer = resolve));
    }
    if (failure) throw failure.error;
  } finally {
    // The consumer stopped (done, failed, or cancelled): the reader stops after the item it is reading.
    stopped = true;
    stopWaiting?.();
    signal?.removeEventListener('abort', onAbort);
    await reading;
    // A source stopped midway closes what it holds (a listing's map of the paths it claimed).
    await iterator.return?.();
    waiting.close();
  }
}
