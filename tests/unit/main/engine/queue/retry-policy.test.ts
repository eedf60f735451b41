import { describe, expect, it, vi } from 'vitest';
import { withRetry } from '../../../../../main/engine/queue/retry-loop.ts';
import { classifyFailure, decideRetry, markRegionRedirect } from '../../../../../main/engine/queue/retry-policy.ts';

const s3Error = (name: string, status: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const netError = (code: string) => Object.assign(new Error(code), { code });

describe('classifyFailure', () => {
  it.each([
    [s3Error('SlowDown', 503), 'throttle'],
    [s3Error('Unknown', 429), 'throttle'],
    [s3Error('ServiceUnavailable', 503), 'throttle'],
    [s3Error('InternalError', 500), 'transient'],
    [s3Error('Unknown', 502), 'transient'],
    [netError('ECONNRESET'), 'transient'],
    [netError('ECONNREFUSED'), 'unreachable'],
    [Object.assign(new Error('socket timed out'), { name: 'TimeoutError' }), 'transient'],
    [s3Error('RequestTimeTooSkewed', 403), 'clock-skew'],
    [s3Error('AccessDenied', 403), 'fatal'],
    [s3Error('NoSuchBucket', 404), 'fatal'],
    [s3Error('InvalidAccessKeyId', 403), 'fatal'],
    [netError('ENOENT'), 'fatal'],
    [Object.assign(new Error('aborted'), { name: 'AbortError' }), 'cancelled'],
  ])('%s is %s', (error, kind) => {
    expect(classifyFailure(error)).toBe(kind);
  });
});

describe('decideRetry', () => {
  it('retries throttling and transient failures until the attempts run out', () => {
    expect(decideRetry('throttle', 1, 3).retry).toBe(true);
    expect(decideRetry('transient', 2, 3).retry).toBe(true);
    expect(decideRetry('transient', 3, 3).retry).toBe(false);
  });

  it('never retries fatal or cancelled failures', () => {
    expect(decideRetry('fatal', 1, 10).retry).toBe(false);
    expect(decideRetry('cancelled', 1, 10).retry).toBe(false);
  });

  it('retries clock skew once, at once', () => {
    expect(decideRetry('clock-skew', 1, 10)).toEqual({ retry: true, delayMs: 0 });
    expect(decideRetry('clock-skew', 2, 10).retry).toBe(false);
  });

  it('backs off exponentially with jitter, throttling longer than transient errors', () => {
    const low = () => 0;
    const high = () => 1;
    expect(decideRetry('transient', 1, 10, low).delayMs).toBe(25);
    expect(decideRetry('transient', 1, 10, high).delayMs).toBe(100);
    expect(decideRetry('transient', 4, 10, high).delayMs).toBe(800);
    expect(decideRetry('throttle', 1, 10, high).delayMs).toBe(500);
    expect(decideRetry('throttle', 12, 20, high).delayMs).toBe(20_000);
  });
});

describe('withRetry through an outage', () => {
  const refusedThenOk = (refusals: number) => {
    let calls = 0;
    return {
      send: async () => {
        calls += 1;
        if (calls <= refusals) throw netError('ECONNREFUSED');
        return 'answered';
      },
      calls: () => calls,
    };
  };

  it('waits out refusals from a store known to be there, without spending the attempts', async () => {
    vi.useFakeTimers();
    try {
      const store = refusedThenOk(20);
      const result = withRetry(store.send, { maxAttempts: 2, outagePatienceMs: () => 60_000 });
      await vi.advanceTimersByTimeAsync(40_000);
      await expect(result).resolves.toBe('answered');
      expect(store.calls()).toBe(21);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up once the patience is spent', async () => {
    vi.useFakeTimers();
    try {
      const store = refusedThenOk(1000);
      const result = withRetry(store.send, { maxAttempts: 2, outagePatienceMs: () => 5_000 });
      const failed = expect(result).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      await vi.advanceTimersByTimeAsync(20_000);
      await failed;
      // About one try a second for five seconds, then the normal attempts.
      expect(store.calls()).toBeGreaterThanOrEqual(4);
      expect(store.calls()).toBeLessThanOrEqual(12);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails as fast as any transient error when the store never answered (a wrong endpoint)', async () => {
    vi.useFakeTimers();
    try {
      const store = refusedThenOk(1000);
      const result = withRetry(store.send, { maxAttempts: 3, outagePatienceMs: () => 0 });
      const failed = expect(result).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      await vi.advanceTimersByTimeAsync(5_000);
      await failed;
      expect(store.calls()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('withRetry after a refusal the connection learnt from', () => {
  const learnt = () => Object.assign(new Error('refused'), { name: 'ChecksumHeadersRefused' });

  it('sends the request again at once, using no attempt', async () => {
    let calls = 0;
    const retried: unknown[] = [];
    const result = await withRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw learnt();
        if (calls === 2) throw Object.assign(new Error('trailer'), { name: 'TrailerRefused' });
        return 'stored';
      },
      { maxAttempts: 1, onRetry: (error) => retried.push(error) },
    );
    expect(result).toBe('stored');
    expect(calls).toBe(3);
    expect(retried).toHaveLength(2);
  });

  it('does so twice at most: a request refused again and again spends its attempts, then fails', async () => {
    let calls = 0;
    const failed = withRetry(
      async () => {
        calls += 1;
        throw learnt();
      },
      { maxAttempts: 1 },
    );
    await expect(failed).rejects.toMatchObject({ name: 'ChecksumHeadersRefused', attempts: 1 });
    expect(calls).toBe(3);
  });
});

describe('withRetry after a refusal for the region', () => {
  /** A refusal whose bucket's region the connection has just learnt (bucket-regions.ts marks it). */
  const redirected = (region: string) => {
    const error = s3Error('AuthorizationHeaderMalformed', 400);
    markRegionRedirect(error, region);
    return error;
  };

  it('sends the request again at once, there, without spending an attempt or counting a retry', async () => {
    const onRetry = vi.fn();
    const attempts: number[] = [];
    const result = await withRetry(
      async (attempt) => {
        attempts.push(attempt);
        if (attempts.length === 1) throw redirected('eu-west-1');
        if (attempts.length === 2) throw s3Error('InternalError', 500);
        return 'stored';
      },
      { maxAttempts: 2, onRetry },
    );
    expect(result).toBe('stored');
    // The resend is the same attempt; the 500 after it spent the first.
    expect(attempts).toEqual([1, 1, 2]);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('sends it again once only: a second refusal is the error, saying where it was sent', async () => {
    let calls = 0;
    const failed = withRetry(
      async () => {
        calls += 1;
        throw redirected(calls === 1 ? 'eu-west-1' : 'ap-south-1');
      },
      { maxAttempts: 3 },
    );
    await expect(failed).rejects.toMatchObject({ name: 'AuthorizationHeaderMalformed', redirectedTo: 'eu-west-1' });
    expect(calls).toBe(2);
  });
});
