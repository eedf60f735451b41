// One cell of a speed test: `concurrency` requests in flight for a slice of time or a count of requests,
// whichever ends first; what is still in flight at the end of the slice is cut off, its bytes counted.
// A cell with no request completed by then goes on until its first one does (up to its grace): a figure
// needs at least one request behind it, and on a slow link one large part takes longer than a slice.
//
// Its own concurrency, not the scheduler's: the test measures what 256 in flight does, which the Threads
// setting must not cap. A request that fails for a moment (503 SlowDown, a reset) is counted and not
// retried: throttling is a finding. One the store refuses for good (403, no such bucket) ends the cell
// and is thrown, for the whole test to stop.

import { classifyFailure } from '../queue/retry-policy.ts';

export interface CellLimits {
  readonly concurrency: number;
  readonly sliceMs: number;
  readonly maxRequests: number;
  /** How long the cell may go on past its slice while no request has completed (default none). */
  readonly graceMs?: number;
}

export interface CellFigures {
  readonly requests: number;
  readonly errors: number;
  readonly bytes: number;
  readonly elapsedMs: number;
}

/** One request of the cell: the `index`th, cut off by `signal`, telling the bytes that passed as they do. */
export type CellRequest = (index: number, signal: AbortSignal, passed: (bytes: number) => void) => Promise<void>;

export interface CellClock {
  now(): number;
}

/** After a request failed for a moment, the worker waits this long before its next: no storm of refusals. */
const PAUSE_AFTER_ERROR_MS = 20;

export async function measureCell(
  limits: CellLimits,
  request: CellRequest,
  stop: AbortSignal,
  clock: CellClock = performance,
): Promise<CellFigures> {
  const cut = new AbortController();
  const onStop = () => cut.abort(stop.reason);
  stop.addEventListener('abort', onStop, { once: true });
  let sliceOver = false;
  let timer = setTimeout(() => {
    sliceOver = true;
    if (requests > 0 || !limits.graceMs) cut.abort();
    else timer = setTimeout(() => cut.abort(), limits.graceMs);
  }, limits.sliceMs);
  let started = 0;
  let requests = 0;
  let errors = 0;
  let bytes = 0;
  let fatal: unknown;
  const passed = (count: number) => {
    if (!cut.signal.aborted) bytes += count;
  };
  const startedAt = clock.now();
  let cutAt: number | undefined;
  cut.signal.addEventListener('abort', () => (cutAt = clock.now()), { once: true });
  const worker = async () => {
    while (!cut.signal.aborted && started < limits.maxRequests) {
      const index = started++;
      try {
        await request(index, cut.signal, passed);
        if (!cut.signal.aborted) requests += 1;
        // In its grace, the first request completed ends the cell.
        if (sliceOver) cut.abort();
      } catch (error) {
        if (cut.signal.aborted) return;
        if (classifyFailure(error) === 'fatal') {
          fatal ??= error;
          cut.abort();
          return;
        }
        errors += 1;
        await new Promise((resolve) => setTimeout(resolve, PAUSE_AFTER_ERROR_MS));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: limits.concurrency }, worker));
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
  }
  // When the cell was cut (or its last request ended), not when the cut-off requests noticed it.
  const elapsedMs = (cutAt ?? clock.now()) - startedAt;
  if (fatal !== undefined) throw fatal;
  return { requests, errors, bytes, elapsedMs };
}
