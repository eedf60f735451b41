import { describe, expect, it } from 'vitest';
import { classifyFailure, decideRetry } from '../../../main/engine/retry-policy.ts';

const s3Error = (name: string, status: number) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const netError = (code: string) => Object.assign(new Error(code), { code });

describe('classifyFailure', () => {
  it.each([
    [s3Error('SlowDown', 503), 'throttle'],
    [s3Error('Unknown', 429), 'throttle'],
    [s3Error('ServiceUnavailable', 503), 'throttle'],
    [s3Error('InternalError', 500), 'transient'],
    [s3Error('Unknown', 502), 'transient'],
    [netError('ECONNRESET'), 'transient'],
    [netError('ECONNREFUSED'), 'transient'],
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
