// One cell of the speed test: its own concurrency for a slice or a count of requests, whichever ends
// first; a request cut off at the slice's end is no request, its bytes counted; a moment's refusal is
// counted and the cell goes on; a refusal for good ends it; with no request done, its grace waits for one.

import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { measureCell } from '../../../../../main/engine/jobs/speed-test-cell.ts';
import type { CellRequest } from '../../../../../main/engine/jobs/speed-test-cell.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const clock = { now: () => Date.now() };

/** A request that takes `ms`, passing `bytes` halfway, cut off by its signal. */
function taking(ms: number, bytes: number, inFlight?: { now: number; most: number }): CellRequest {
  return (_index, signal, passed) =>
    new Promise<void>((resolve, reject) => {
      if (inFlight) inFlight.most = Math.max(inFlight.most, ++inFlight.now);
      const half = setTimeout(() => passed(bytes / 2), ms / 2);
      const done = setTimeout(() => {
        passed(bytes / 2);
        if (inFlight) inFlight.now -= 1;
        resolve();
      }, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(half);
        clearTimeout(done);
        if (inFlight) inFlight.now -= 1;
        reject(Object.assign(new Error('aborted'), { name: 'AbortError', code: 'Cancelled' }));
      });
    });
}

it('runs its own concurrency for its slice; the requests cut off count their bytes, not as requests', async () => {
  const inFlight = { now: 0, most: 0 };
  const cell = measureCell(
    { concurrency: 4, sliceMs: 1_100, maxRequests: 1_000 },
    taking(300, 100, inFlight),
    new AbortController().signal,
    clock,
  );
  await vi.advanceTimersByTimeAsync(1_100);
  // 3 rounds of 4 done by 900 ms; the 4 of the fourth round cut at 1,100 ms, past their halfway mark.
  expect(await cell).toEqual({ requests: 12, errors: 0, bytes: 12 * 100 + 4 * 50, elapsedMs: 1_100 });
  expect(inFlight.most).toBe(4);
});

it('ends at its count of requests, before its slice', async () => {
  const cell = measureCell(
    { concurrency: 2, sliceMs: 10_000, maxRequests: 6 },
    taking(100, 10),
    new AbortController().signal,
    clock,
  );
  await vi.advanceTimersByTimeAsync(300);
  expect(await cell).toEqual({ requests: 6, errors: 0, bytes: 60, elapsedMs: 300 });
});

it('counts a throttled request and goes on; a refusal for good ends the cell and is thrown', async () => {
  let sent = 0;
  const throttledOnce: CellRequest = async (index) => {
    sent += 1;
    if (index === 0)
      throw Object.assign(new Error('SlowDown'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } });
  };
  const cell = measureCell(
    { concurrency: 1, sliceMs: 1_000, maxRequests: 3 },
    throttledOnce,
    new AbortController().signal,
    clock,
  );
  await vi.advanceTimersByTimeAsync(100);
  expect(await cell).toMatchObject({ requests: 2, errors: 1 });
  expect(sent).toBe(3);

  const refused: CellRequest = async () => {
    throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
  };
  const ended = measureCell(
    { concurrency: 4, sliceMs: 1_000, maxRequests: 100 },
    refused,
    new AbortController().signal,
    clock,
  );
  await expect(ended).rejects.toMatchObject({ name: 'AccessDenied' });
});

it('with no request done in its slice, waits in its grace for the first, and ends with it', async () => {
  const cell = measureCell(
    { concurrency: 1, sliceMs: 100, maxRequests: 100, graceMs: 1_000 },
    taking(400, 8),
    new AbortController().signal,
    clock,
  );
  await vi.advanceTimersByTimeAsync(400);
  expect(await cell).toEqual({ requests: 1, errors: 0, bytes: 8, elapsedMs: 400 });
});

it('stops at once when the test is cancelled', async () => {
  const stop = new AbortController();
  const cell = measureCell(
    { concurrency: 3, sliceMs: 10_000, maxRequests: 100 },
    taking(1_000, 10),
    stop.signal,
    clock,
  );
  await vi.advanceTimersByTimeAsync(200);
  stop.abort();
  expect(await cell).toMatchObject({ requests: 0, elapsedMs: 200 });
});
