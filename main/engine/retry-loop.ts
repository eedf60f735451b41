// Retries for requests that run outside a job's queue: listings, bucket operations, clean-up.

import { classifyFailure, decideRetry, sleep } from './retry-policy.ts';

export const DEFAULT_MAX_ATTEMPTS = 6;

export async function withRetry<T>(send: (attempt: number) => Promise<T>, options: { signal?: AbortSignal; maxAttempts?: number; onRetry?: (error: unknown) => void } = {}): Promise<T> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(attempt);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const decision = decideRetry(classifyFailure(error), attempt, maxAttempts);
      if (!decision.retry) throw error;
      options.onRetry?.(error);
      await sleep(decision.delayMs, options.signal);
    }
  }
}
