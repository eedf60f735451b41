// Which failures are worth another attempt, and how long to wait before it.
//
// The engine owns retries (the SDK client makes one attempt): the SDK's retry budget is per client
// and drains after a few dozen failures in a storm, and a streamed body cannot be replayed by the
// SDK anyway. Each request here is retried from scratch, with a fresh body.

import { errorCode, httpStatus } from '../errors.ts';

/** `unreachable`: nothing answers (refused, no route): a server restarting, or a wrong endpoint. */
export type FailureKind = 'throttle' | 'transient' | 'unreachable' | 'clock-skew' | 'fatal' | 'cancelled';

const THROTTLE_CODES = new Set([
  'SlowDown', 'Throttling', 'ThrottlingException', 'ThrottledException', 'RequestThrottled',
  'RequestLimitExceeded', 'TooManyRequests', 'TooManyRequestsException', 'RequestThrottledException', 'ServiceUnavailable',
]);

const TRANSIENT_CODES = new Set([
  'InternalError', 'RequestTimeout', 'RequestTimeoutException', 'TimeoutError',
  'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN', 'ERR_STREAM_PREMATURE_CLOSE', 'StalledTransfer', 'IncompleteBody',
  'XMinioServerNotInitialized', 'OperationAborted',
  // The store received bytes that do not match their checksum: damaged on the way, so sent again.
  'BadDigest', 'XAmzContentSHA256Mismatch',
  // A CRC-only request the store did not echo: sent again with Content-MD5.
  'UncheckedUpload',
]);

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN']);

const CLOCK_SKEW_CODES = new Set(['RequestTimeTooSkewed', 'RequestExpired', 'RequestInTheFuture']);

export function classifyFailure(error: unknown): FailureKind {
  const code = errorCode(error);
  if (code === 'Cancelled') return 'cancelled';
  if (THROTTLE_CODES.has(code)) return 'throttle';
  if (CLOCK_SKEW_CODES.has(code)) return 'clock-skew';
  if (TRANSIENT_CODES.has(code)) return 'transient';
  if (UNREACHABLE_CODES.has(code)) return 'unreachable';
  const status = httpStatus(error);
  if (status === 429 || status === 503) return 'throttle';
  if (status === 500 || status === 502 || status === 504) return 'transient';
  // The SDK marks some errors retryable that carry no code we know (a body that ended early).
  if ((error as { $retryable?: unknown } | undefined)?.$retryable) return 'transient';
  return 'fatal';
}

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
export function decideRetry(kind: FailureKind, attempt: number, maxAttempts: number, random: () => number = Math.random): RetryDecision {
  if (attempt >= maxAttempts) return { retry: false, delayMs: 0 };
  switch (kind) {
    case 'fatal':
    case 'cancelled':
      return { retry: false, delayMs: 0 };
    case 'clock-skew':
      return { retry: attempt === 1, delayMs: 0 };
    case 'throttle':
    case 'transient':
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
