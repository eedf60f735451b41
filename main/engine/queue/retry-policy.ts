// Which failures are worth another attempt, and how long to wait before it.
//
// The engine owns retries (the SDK client makes one attempt): the SDK's retry budget is per client
// and drains after a few dozen failures in a storm, and a streamed body cannot be replayed by the
// SDK anyway. Each request here is retried from scratch, with a fresh body.

import { retryClassOf } from '../error-codes.ts';
import type { RetryClass } from '../error-codes.ts';
import { errorCode, httpStatus } from '../errors.ts';

/** A code's retry class (error-codes.ts), or `cancelled`: the request was called off, not failed. */
export type FailureKind = RetryClass | 'cancelled';

export function classifyFailure(error: unknown): FailureKind {
  const code = errorCode(error);
  if (code === 'Cancelled') return 'cancelled';
  const known = retryClassOf(code);
  // A code the table calls fatal is only not retried for itself: a 503 or a 500 still is.
  if (known && known !== 'fatal') return known;
  const status = httpStatus(error);
  if (status === 429 || status === 503) return 'throttle';
  if (status === 500 || status === 502 || status === 504) return 'transient';
  // The SDK marks some errors retryable that carry no code we know (a body that ended early).
  if ((error as { $retryable?: unknown } | undefined)?.$retryable) return 'transient';
  return 'fatal';
}

/**
 * How many times one request is sent again at once, using no attempt, for what its connection learnt
 * from the store's refusal: one for each thing there is to learn (a checksum after the body, the
 * checksum headers at all). A request refused more often than that is retried as a transient failure.
 */
export const MAX_RESENDS = 2;

export interface RetryDecision {
  readonly retry: boolean;
  readonly delayMs: number;
}

const THROTTLE_BASE_MS = 500;
const TRANSIENT_BASE_MS = 100;
const MAX_DELAY_MS = 20_000;

/**
 * Whether to try again after failed attempt number `attempt` (1-based), and after how long.
 *
 * Full jitter (a random delay between 0 and the exponential cap) spreads a crowd of failed requests
 * out, so 200 parts that hit SlowDown together do not return together. Clock skew is retried once:
 * the SDK corrects its clock offset from the failed response.
 */
export function decideRetry(
  kind: FailureKind,
  attempt: number,
  maxAttempts: number,
  random: () => number = Math.random,
): RetryDecision {
  if (attempt >= maxAttempts) return { retry: false, delayMs: 0 };
  switch (kind) {
    case 'fatal':
    case 'cancelled':
      return { retry: false, delayMs: 0 };
    case 'clock-skew':
      return { retry: attempt === 1, delayMs: 0 };
    case 'throttle':
    case 'transient':
    case 'resend':
    case 'unreachable': {
      const base = kind === 'throttle' ? THROTTLE_BASE_MS : TRANSIENT_BASE_MS;
      const cap = Math.min(MAX_DELAY_MS, base * 2 ** (attempt - 1));
      // Never less than a quarter of the cap: a zero delay after a refusal only burns the attempt.
      return { retry: true, delayMs: Math.round(cap / 4 + random() * cap * 0.75) };
    }
  }
}

/**
 * How long to wait before trying again while the store is unreachable during an outage (a restart):
 * about a second, without the exponential growth, so work resumes soon after the store is back.
 */
export function outageDelayMs(random: () => number = Math.random): number {
  return Math.round(500 + random() * 1000);
}

/** Resolve after `ms`, or reject with an AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortError(): Error {
  return Object.assign(new Error('Cancelled'), { name: 'AbortError' });
}

/**
 * Mark a refusal for its region as one the connection has learnt from: the store named the bucket's
 * region, and the next request for the bucket goes there (s3/bucket-regions.ts). The retry loop then
 * sends the request again at once, once, without counting it as a failed attempt.
 */
export function markRegionRedirect(error: unknown, region: string): void {
  if (error && typeof error === 'object' && Object.isExtensible(error))
    (error as { regionRedirect?: string }).regionRedirect = region;
}

/** The region a refusal sends its request to (see markRegionRedirect), if it is one. */
export function regionRedirectOf(error: unknown): string | undefined {
  const region = (error as { regionRedirect?: unknown } | undefined)?.regionRedirect;
  return typeof region === 'string' ? region : undefined;
}
