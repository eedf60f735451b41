// A failed connection check, sorted: what failed, the field to correct, and never a secret.

import { describe, expect, it } from 'vitest';
import { describeCheckFailure } from '../../../../../main/engine/s3/connection-check.ts';
import { BargeError } from '../../../../../src/errors.ts';

const errno = (code: string) => Object.assign(new Error(`connect ${code} 10.0.0.1:9000`), { code });
const s3Error = (name: string, status: number, message = 'refused') =>
  Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });

describe('what a failed check says', () => {
  it.each([
    [errno('ENOTFOUND'), 'dns', 'endpoint'],
    [errno('EAI_AGAIN'), 'dns', 'endpoint'],
    [errno('ECONNREFUSED'), 'refused', 'endpoint'],
    [errno('EHOSTUNREACH'), 'unreachable', 'endpoint'],
    [errno('ETIMEDOUT'), 'timeout', 'endpoint'],
    [errno('ERR_SSL_WRONG_VERSION_NUMBER'), 'tls', 'endpoint'],
    [errno('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls', 'endpoint'],
    [errno('CERT_HAS_EXPIRED'), 'tls', 'endpoint'],
    [s3Error('InvalidAccessKeyId', 403), 'keys', 'accessKeyId'],
    [s3Error('SignatureDoesNotMatch', 403), 'keys', 'secretAccessKey'],
    [
      s3Error('AuthorizationHeaderMalformed', 400, "the region 'us-east-1' is wrong; expecting 'eu-west-1'"),
      'region',
      'region',
    ],
    [
      new BargeError('EndpointRefused', 'This host refuses the endpoint http://169.254.169.254: a metadata service.'),
      'endpoint',
      'endpoint',
    ],
    [s3Error('Unknown', 307, 'UnknownError'), 'endpoint', 'endpoint'],
    [s3Error('InternalError', 500), 'other', undefined],
  ])('%s: %s, by the %s field', (error, failed, field) => {
    expect(describeCheckFailure(error, {})).toMatchObject({ ok: false, failed, field });
  });

  it('names the region the store expects', () => {
    expect(
      describeCheckFailure(s3Error('AuthorizationHeaderMalformed', 400, "expecting 'eu-west-1'"), {}),
    ).toMatchObject({ message: expect.stringContaining('eu-west-1') });
  });

  it('blames the profile when one was named, the keys otherwise, when no credentials come', () => {
    const none = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    });
    expect(describeCheckFailure(none, { profile: 'work' })).toMatchObject({
      failed: 'credentials',
      field: 'profile',
      message: expect.stringContaining('"work"'),
    });
    expect(describeCheckFailure(none, {})).toMatchObject({ failed: 'credentials', field: 'accessKeyId' });
  });

  it('passes keys the store accepts but will not let list buckets, and says so', () => {
    expect(describeCheckFailure(s3Error('AccessDenied', 403), {})).toEqual({
      ok: true,
      buckets: undefined,
      note: expect.stringContaining('may not list buckets'),
    });
  });

  it('never repeats what the store echoed of a request (which may hold the key ID or the signing string)', () => {
    const echo = s3Error(
      'SignatureDoesNotMatch',
      403,
      'The request signature we calculated does not match. StringToSign: AWS4-HMAC-SHA256 secret-material',
    );
    expect(JSON.stringify(describeCheckFailure(echo, { secretAccessKey: 'secret-material' }))).not.toContain(
      'secret-material',
    );
  });
});
