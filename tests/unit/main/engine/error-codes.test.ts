import { describe, expect, it } from 'vitest';
import { CODE_SYNONYMS, ERROR_CODES, isJobWide, rerunOf, retryClassOf } from '../../../../main/engine/error-codes.ts';
import { toJobError } from '../../../../main/engine/errors.ts';
import type { RetryClass } from '../../../../main/engine/error-codes.ts';

const RETRY_CLASSES: readonly RetryClass[] = ['throttle', 'transient', 'unreachable', 'clock-skew', 'resend', 'fatal'];

describe('the table of error codes', () => {
  it('gives every code exactly one retry class and a yes or no for job-wide', () => {
    for (const [code, entry] of ERROR_CODES) {
      expect(
        RETRY_CLASSES.filter((kind) => kind === entry.retry),
        code,
      ).toHaveLength(1);
      expect(typeof entry.jobWide, code).toBe('boolean');
    }
  });

  it('sorts no synonym itself: each is read as a code the table knows', () => {
    for (const [synonym, code] of CODE_SYNONYMS) {
      expect(ERROR_CODES.has(synonym), synonym).toBe(false);
      expect(ERROR_CODES.has(code), code).toBe(true);
    }
  });

  it('sorts codes for retries as before it was one table', () => {
    const before: Record<Exclude<RetryClass, 'fatal'>, readonly string[]> = {
      throttle: [
        'SlowDown',
        'Throttling',
        'ThrottlingException',
        'ThrottledException',
        'RequestThrottled',
        'RequestLimitExceeded',
        'TooManyRequests',
        'TooManyRequestsException',
        'RequestThrottledException',
        'ServiceUnavailable',
      ],
      transient: [
        'InternalError',
        'RequestTimeout',
        'RequestTimeoutException',
        'TimeoutError',
        'ECONNRESET',
        'EPIPE',
        'ETIMEDOUT',
        'ECONNABORTED',
        'EAI_AGAIN',
        'ERR_STREAM_PREMATURE_CLOSE',
        'StalledTransfer',
        'IncompleteBody',
        'XMinioServerNotInitialized',
        'OperationAborted',
        'BadDigest',
        'UncheckedUpload',
      ],
      unreachable: ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN'],
      'clock-skew': ['RequestTimeTooSkewed', 'RequestExpired', 'RequestInTheFuture'],
      // Sent again at once, using no attempt: the connection learnt not to send what was refused.
      resend: ['TrailerRefused', 'ChecksumHeadersRefused'],
    };
    for (const [kind, codes] of Object.entries(before))
      for (const code of codes) expect(retryClassOf(code), code).toBe(kind);
    const retried = new Set(Object.values(before).flat());
    for (const [code, entry] of ERROR_CODES) if (!retried.has(code)) expect(entry.retry, code).toBe('fatal');
    expect(retryClassOf('AccessDenied')).toBeUndefined();
    expect(retryClassOf('constructor')).toBeUndefined();
  });

  it('stops a job at the codes it stopped at before (and an endpoint that redirects): fatal or unreachable ones, a lasting DNS failure and clock skew', () => {
    const jobWide = [...ERROR_CODES].filter(([, entry]) => entry.jobWide);
    expect(jobWide.map(([code]) => code).sort()).toEqual(
      [
        'NoSuchBucket',
        'InvalidAccessKeyId',
        'SignatureDoesNotMatch',
        'CredentialsProviderError',
        'ECONNREFUSED',
        'ENOTFOUND',
        'EAI_AGAIN',
        'EHOSTUNREACH',
        'ENETUNREACH',
        'PermanentRedirect',
        'AuthorizationHeaderMalformed',
        'Redirect',
        'NotS3',
        'InvalidBucketName',
        'ENOSPC',
        'RequestTimeTooSkewed',
        'ExpiredToken',
        'InvalidToken',
        'EROFS',
        'EDQUOT',
        'EPROTO',
        'ERR_SSL_WRONG_VERSION_NUMBER',
        'ERR_SSL_PACKET_LENGTH_TOO_LONG',
        'ERR_TLS_CERT_ALTNAME_INVALID',
        'DEPTH_ZERO_SELF_SIGNED_CERT',
        'SELF_SIGNED_CERT_IN_CHAIN',
        'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
        'UNABLE_TO_GET_ISSUER_CERT',
        'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
        'CERT_UNTRUSTED',
        'CERT_HAS_EXPIRED',
        'CERT_NOT_YET_VALID',
      ].sort(),
    );
    for (const [code, entry] of jobWide) {
      // Retried first (a passing DNS failure; a clock the failed answer corrected), job-wide only when it lasts.
      if (code === 'EAI_AGAIN') expect(entry.retry).toBe('transient');
      else if (code === 'RequestTimeTooSkewed') expect(entry.retry).toBe('clock-skew');
      else expect(['fatal', 'unreachable'], code).toContain(entry.retry);
    }
    expect(isJobWide('AccessDenied')).toBe(false);
    expect(isJobWide('constructor')).toBe(false);
  });
});

describe('what running a job again does for an item that failed', () => {
  it('fails again for a key not there, a name refused and a feature the store lacks; asks for a choice for a file already there; may pass otherwise', () => {
    for (const code of [
      'NoSuchKey',
      'NotFound',
      'NothingFound',
      'UnsafeKey',
      'NameCollision',
      'InvalidFileName',
      'InvalidKey',
      'KeyTooLongError',
      'NotImplemented',
    ]) {
      expect(rerunOf(code), code).toBe('fails-again');
    }
    expect(rerunOf('FileExists')).toBe('needs-choice');
    for (const code of ['SlowDown', 'ECONNRESET', 'AccessDenied', 'ENOENT', 'BadDigest', 'constructor'])
      expect(rerunOf(code), code).toBeUndefined();
  });

  it("reaches each item error and the command line's advice through the error itself", () => {
    const notImplemented = Object.assign(
      new Error('A header you provided implies functionality that is not implemented'),
      { name: 'NotImplemented', $metadata: { httpStatusCode: 501 } },
    );
    expect(toJobError(notImplemented, 'upload /a to s3://b/a')).toMatchObject({
      code: 'NotImplemented',
      rerun: 'fails-again',
    });
    expect(toJobError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).not.toHaveProperty('rerun');
  });
});
