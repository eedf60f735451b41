// The retry loop every request to the store runs in.
//
// A job's requests run in it with the job's settings (attempts, waiting out an outage once the store
// has answered); requests outside a job (listings, bucket operations, clean-up) with the default
// attempts. What is retried, and after how long, is retry-policy.ts's to say. A request refused for
// its region, whose bucket's region the connection has just learnt, goes again at once to that
// region: once, and uncounted (it was sent to the wrong place, not failed).

import { DEFAULT_MAX_ATTEMPTS } from '../../../src/settings.ts';
import { classifyFailure, decideRetry, MAX_RESENDS, outageDelayMs, regionRedirectOf, sleep } from './retry-policy.ts';

export interface RetryOptions {
  readonly signal?: AbortSignal;
  readonly maxAttempts?: number;
  readonly onRetry?: (error: unknown) => void;
  /**
   * How long to keep trying while the store is unreachable, when it is known to be there (it has
   * answered before): a restart then costs a pause, not the job. Without it (a first contact, a
   * wrong endpoint) an unreachable store fails as fast as any transient error.
   */
  readonly outagePatienceMs?: () => number;
  readonly now?: () => number;
}

export async function withRetry<T>(send: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const now = options.now ?? Date.now;
  let outageSince: number | undefined;
  let resends = 0;
  /** The region this request was sent on to, after a refusal for its region. */
  let redirectedTo: string | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(attempt);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const redirect = regionRedirectOf(error);
      if (redirect !== undefined && redirectedTo === undefined) {
        redirectedTo = redirect;
        attempt -= 1;
        continue;
      }
      if (redirectedTo !== undefined) withRedirect(error, redirectedTo);
      const kind = classifyFailure(error);
      if (kind === 'resend' && resends < MAX_RESENDS) {
        // Refused for what the connection has now learnt not to send: a new request, not a retry of a
        // failed one, so it waits for nothing and uses no attempt.
        resends += 1;
        attempt -= 1;
        options.onRetry?.(error);
        continue;
      }
      if (kind !== 'unreachable') outageSince = undefined;
      else if (options.outagePatienceMs) {
        outageSince ??= now();
        if (now() - outageSince < options.outagePatienceMs()) {
          // Waiting out an outage uses none of the attempts: they remain for the errors after it.
          attempt -= 1;
          options.onRetry?.(error);
          await sleep(outageDelayMs(), options.signal);
          continue;
        }
      }
      const decision = decideRetry(kind, attempt, maxAttempts);
      if (!decision.retry) throw withAttempts(error, attempt);
      options.onRetry?.(error);
      await sleep(decision.delayMs, options.signal);
    }
  }
}

/** The error, marked with the region its request was sent on to, for messages about regions. */
function withRedirect(error: unknown, region: string): void {
  if (error && typeof error === 'object' && Object.isExtensible(error))
    (error as { redirectedTo?: string }).redirectedTo = region;
}

/** The error, marked with how many tries it took, for messages that count them. */
function withAttempts(error: unknown, attempts: number): unknown {
  if (error && typeof error === 'object' && Object.isExtensible(error))
    (error as { attempts?: number }).attempts = attempts;
  return error;
}
