import { describe, expect, it } from 'vitest';
import { errorCode, toBargeError, toJobError } from '../../../../main/engine/errors.ts';

describe('errors', () => {
  it('says what went wrong and what to do, naming the action', () => {
    const e = toBargeError(
      Object.assign(new Error('x'), { name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } }),
      'list s3://nope/',
    );
    expect(e).toMatchObject({
      code: 'NoSuchBucket',
      message: 'Cannot list s3://nope/: The bucket does not exist (check its name and the endpoint).',
    });
  });

  it('uses one code per meaning across stores', () => {
    expect(
      errorCode(
        Object.assign(new Error('No user exists with the provided access key ID.'), { name: 'XAdminUserNotFound' }),
      ),
    ).toBe('InvalidAccessKeyId');
    expect(toBargeError(Object.assign(new Error('?'), { name: 'XAdminUserNotFound' })).message).toContain(
      'does not know this access key ID',
    );
  });

  it('reads errno codes, underscores included, and falls back to the server message or status', () => {
    expect(errorCode(Object.assign(new Error('dns'), { code: 'EAI_AGAIN' }))).toBe('EAI_AGAIN');
    expect(errorCode(Object.assign(new Error('closed'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))).toBe(
      'ERR_STREAM_PREMATURE_CLOSE',
    );
    expect(
      toBargeError(
        Object.assign(new Error('Quota exceeded'), { name: 'QuotaExceeded', $metadata: { httpStatusCode: 403 } }),
      ).message,
    ).toBe('Quota exceeded (HTTP 403).');
    expect(
      toBargeError(Object.assign(new Error('UnknownError'), { name: 'Error', $metadata: { httpStatusCode: 418 } })),
    ).toMatchObject({
      code: 'Http418',
      message:
        'The server answered HTTP 418, giving no reason. Check the endpoint URL; if it is right, try again later.',
    });
  });
});

describe('errors a person can act on', () => {
  const s3Error = (name: string, message: string, status: number, extra: object = {}) =>
    Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status }, ...extra });

  it('names a redirect with no code of its own Redirect, says where it leads (never its query) and what to check', () => {
    const answer = (location?: string) => ({ $response: { headers: location === undefined ? {} : { location } } });
    // As the SDK gives it, and as Barge's own requests do.
    expect(
      toBargeError(s3Error('Unknown', 'UnknownError', 307, answer('https://store.example/s3?token=secret'))),
    ).toMatchObject({
      code: 'Redirect',
      message:
        'The endpoint redirects elsewhere (HTTP 307, to https://store.example/s3), and Barge does not follow redirects: check the endpoint URL (http:// or https://, the host and port, and any path the store needs).',
    });
    expect(toBargeError(s3Error('Redirect', 'HTTP 302', 302, answer('/minio/login?next=1'))).message).toMatch(
      /^The endpoint redirects elsewhere \(HTTP 302, to the path \/minio\/login\), /,
    );
    expect(toBargeError(s3Error('Error', 'UnknownError', 308)).message).toMatch(
      /^The endpoint redirects elsewhere \(HTTP 308\), /,
    );
    // S3's own redirects keep their codes: a bucket in another region, a bucket's endpoint.
    expect(errorCode(s3Error('PermanentRedirect', 'x', 301))).toBe('PermanentRedirect');
    expect(errorCode(s3Error('TemporaryRedirect', 'x', 307))).toBe('TemporaryRedirect');
  });
  const nodeError = (code: string, message: string, extra: object = {}) =>
    Object.assign(new Error(message), { code, ...extra });

  it.each([
    ['DEPTH_ZERO_SELF_SIGNED_CERT', "The server's TLS certificate is not trusted (it is self-signed"],
    ['SELF_SIGNED_CERT_IN_CHAIN', "The server's TLS certificate is not trusted"],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'NODE_EXTRA_CA_CERTS'],
    ['CERT_HAS_EXPIRED', "The server's TLS certificate has expired."],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "The server's TLS certificate is for another host name. Check the endpoint URL."],
    [
      'EPROTO',
      'the server does not speak TLS on this port. Check the endpoint URL (http:// or https://, and the port).',
    ],
  ])('names a TLS failure (%s) by its code and says what to check', (code, words) => {
    const e = toBargeError(nodeError(code, 'openssl says something long and cryptic'), 'list buckets');
    expect(e.code).toBe(code);
    expect(e.message).toContain(words);
    expect(e.message).not.toContain('cryptic');
  });

  it('tells an invalid or expired session token from wrong keys', () => {
    expect(
      toBargeError(s3Error('InvalidTokenId', 'The security token included in the request is invalid', 403)),
    ).toMatchObject({
      code: 'InvalidToken',
      message:
        'The session token is not valid for these temporary credentials. Get new temporary credentials (aws sso login, or assume the role again) and try again.',
    });
    expect(toBargeError(s3Error('ExpiredToken', 'The provided token has expired.', 400))).toMatchObject({
      code: 'ExpiredToken',
      message:
        'The temporary credentials have expired. Get new ones (aws sso login, or assume the role again) and try again.',
    });
  });

  it('names the region a bucket is in, from the SDK or from the message', () => {
    const expected =
      'The store expects region eu-west-1, and the request was signed for another. Set the region to eu-west-1 (--region eu-west-1, or AWS_REGION=eu-west-1).';
    expect(
      toBargeError(s3Error('AuthorizationHeaderMalformed', 'malformed', 400, { Region: 'eu-west-1' })).message,
    ).toBe(expected);
    expect(
      toBargeError(
        s3Error(
          'AuthorizationHeaderMalformed',
          'The authorization header is malformed; the region is wrong; expecting &#39;eu-west-1&#39;.',
          400,
        ),
      ).message,
    ).toBe(expected);
    expect(toBargeError(s3Error('AuthorizationHeaderMalformed', 'malformed', 400)).message).toContain(
      'signed for the wrong region',
    );
  });

  it('says a 501 NotImplemented is something the store lacks, with its words and the header it names', () => {
    const words = 'A header you provided implies functionality that is not implemented';
    expect(toBargeError(s3Error('NotImplemented', words, 501), 'upload /d/a.bin to s3://b/a.bin')).toMatchObject({
      code: 'NotImplemented',
      message:
        `Cannot upload /d/a.bin to s3://b/a.bin: The store does not support something this request needs (it answered 501 NotImplemented: "${words}"). ` +
        'This cannot be done on this store as it is: check what the store supports (its documentation, or its administrator), and whether a proxy on the way changes requests.',
    });
    expect(toBargeError(s3Error('NotImplemented', words, 501, { Header: 'Transfer-Encoding' })).message).toMatch(
      /^The store does not support something this request needs \(it answered 501 NotImplemented: "A header .* implemented", naming the Transfer-Encoding header\)\. /,
    );
    expect(toBargeError(s3Error('NotImplemented', 'HTTP 501', 501)).message).toMatch(
      /^The store does not support something this request needs \(it answered 501 NotImplemented\)\. /,
    );
  });

  it('says what is left of a refusal for the region once regions are followed, repeating only a region', () => {
    // Sent on to the region the store named, and refused there too.
    const again = s3Error('AuthorizationHeaderMalformed', 'malformed', 400, {
      Region: 'ap-south-1',
      signedRegion: 'eu-west-1',
      redirectedTo: 'eu-west-1',
    });
    expect(toBargeError(again).message).toBe(
      "The store said the bucket is in region eu-west-1, then refused the request sent there too, now naming ap-south-1. Check the endpoint URL, and the bucket's region (--region).",
    );
    // A store that names something that is not a region: not repeated, not followed.
    const lie = s3Error('PermanentRedirect', 'moved', 301, { Region: 'x@127.0.0.1:9/#', signedRegion: 'us-east-1' });
    expect(toBargeError(lie).message).toBe(
      "The store refused the request for its region (it was signed for us-east-1), and named no valid region for the bucket. Set --region (or AWS_REGION) to the bucket's region.",
    );
    // A HEAD's bare 400: the region is in the header only.
    const head = s3Error('BadRequest', 'HTTP 400', 400, { signedRegion: 'us-east-1' });
    Object.defineProperty(head, '$response', { value: { headers: { 'x-amz-bucket-region': 'x@127.0.0.1' } } });
    expect(toBargeError(head).message).not.toContain('127.0.0.1');
    expect(toBargeError(head).message).toContain('named no valid region');
  });

  it('knows an object lock refusal by its words, whatever code the store gives it', () => {
    expect(errorCode(s3Error('InvalidRequest', 'Object is WORM protected and cannot be overwritten', 400))).toBe(
      'ObjectLocked',
    );
    expect(errorCode(s3Error('AccessDenied', 'Access Denied because object protected by object lock.', 403))).toBe(
      'ObjectLocked',
    );
    expect(errorCode(s3Error('AccessDenied', 'Access Denied.', 403))).toBe('AccessDenied');
    expect(
      toBargeError(
        s3Error('InvalidRequest', 'Object is WORM protected and cannot be overwritten', 400),
        'delete s3://b/k',
      ).message,
    ).toBe(
      'Cannot delete s3://b/k: The object is protected by object lock (a retention period or a legal hold). Remove the legal hold, or wait until the retention period ends.',
    );
  });

  it("says a bucket without Object Lock has none, in every store's words, and never that an object is locked", () => {
    for (const words of [
      'Bucket is missing ObjectLockConfiguration', // MinIO
      'Bucket is missing Object Lock Configuration', // versitygw
      'Object Lock configuration does not exist for this bucket', // AWS
    ])
      expect(errorCode(s3Error('InvalidRequest', words, 400))).toBe('ObjectLockNotConfigured');
    const aws = s3Error('ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist', 404);
    expect(errorCode(aws)).toBe('ObjectLockNotConfigured');
    expect(toBargeError(s3Error('InvalidRequest', 'Bucket is missing Object Lock Configuration', 400)).message).toBe(
      'The bucket has no Object Lock configuration: its objects have no retention period or legal hold to read.',
    );
  });

  it('says the rule a bucket name breaks when the store refuses it, wherever the store names the bucket', () => {
    // MinIO names it in Resource; AWS and versitygw in BucketName.
    expect(
      toBargeError(
        s3Error('InvalidBucketName', 'The specified bucket is not valid.', 400, { Resource: '/Bad_Bucket/' }),
      ).message,
    ).toBe(
      'The store refused the bucket name "Bad_Bucket": a bucket\'s name may contain only lowercase letters, digits, ' +
        'dots (.) and hyphens (-). Check the name.',
    );
    expect(
      toBargeError(
        s3Error('InvalidBucketName', 'The specified bucket is not valid.', 400, { BucketName: 'ab' }),
        'sync',
      ).message,
    ).toBe(
      'Cannot sync: The store refused the bucket name "ab": a bucket\'s name must be 3 to 63 characters long (it ' +
        'has 2). Check the name.',
    );
    // A name inside the rule, or none named: the store's refusal as it was.
    expect(toBargeError(s3Error('InvalidBucketName', 'no', 400, { BucketName: 'fine-name' })).message).toBe(
      'The server refused the bucket name.',
    );
  });

  it('names the local file a file error is about, unless the context does, and never a temporary name', () => {
    expect(
      toBargeError(
        nodeError('ENOSPC', 'no space', { path: '/mnt/small/big.bin.barge-0a1b2c3d.partial' }),
        'download s3://b/big.bin',
      ).message,
    ).toBe(
      'Cannot download s3://b/big.bin: The disk is full (/mnt/small/big.bin). Free some space or choose another folder, then try again.',
    );
    expect(
      toBargeError(
        nodeError('EROFS', 'read-only', { path: '/mnt/ro/a.txt.barge-ffee0011.partial' }),
        'download s3://b/a.txt',
      ).message,
    ).toBe(
      'Cannot download s3://b/a.txt: The file system is read-only (/mnt/ro/a.txt). Choose a folder you can write to.',
    );
    expect(
      toBargeError(nodeError('EACCES', 'denied', { path: '/data/a.txt' }), 'upload /data/a.txt to s3://b/a.txt')
        .message,
    ).toBe(
      'Cannot upload /data/a.txt to s3://b/a.txt: Permission denied. Check its permissions, or choose another file or folder.',
    );
    expect(toBargeError(nodeError('ENOENT', 'gone', { path: '/data/a.txt' }), 'read /data/a.txt').message).toBe(
      'Cannot read /data/a.txt: No such file or folder.',
    );
  });

  it('shows control characters in job messages escaped, never raw', () => {
    const error = toJobError(nodeError('ENOENT', 'gone'), 'upload /data/evil\x1b[2J.txt to s3://b/evil\x1b[2J.txt');
    expect(error.message).toBe(
      'Cannot upload /data/evil\\x1b[2J.txt to s3://b/evil\\x1b[2J.txt: No such file or folder.',
    );
  });

  it('decodes XML entities left in a server message', () => {
    expect(
      toBargeError(
        s3Error(
          'XMinioInvalidResourceName',
          'Resource name contains bad components such as &#34;..&#34; or &#34;.&#34;.',
          400,
        ),
      ).message,
    ).toBe('Resource name contains bad components such as ".." or "." (HTTP 400).');
  });
});

it('a long message is shortened, not replaced by "Unexpected error."', () => {
  const long = `The store said: ${'x'.repeat(600)} and more`;
  const message = toBargeError(Object.assign(new Error(long), { name: 'SomethingOdd' }), 'download s3://b/k').message;
  expect(message.startsWith('Cannot download s3://b/k: The store said: xxx')).toBe(true);
  expect(message.endsWith('…')).toBe(true);
  expect(message.length).toBeLessThan(600);
});

it('a temporary name fits in 255 bytes wherever the final name does, and two long names stay apart', async () => {
  const { temporaryNameFor } = await import('../../../../main/engine/disk/temporary-name.ts');
  const long = (end: string) => `/d/${'é'.repeat(120)}${end}`;
  const [a, b] = [temporaryNameFor(long('a.txt'), 'abcdef0123'), temporaryNameFor(long('b.txt'), 'abcdef0123')];
  for (const name of [a, b]) expect(Buffer.byteLength(name.split('/').at(-1)!)).toBeLessThanOrEqual(255);
  expect(a).not.toBe(b);
  expect(temporaryNameFor('/d/short.txt', 'abcdef0123')).toBe('/d/short.txt.barge-abcdef01.partial');
});

describe('an answer no S3 store gives', () => {
  const answer = (name: string, message: string, status: number, type?: string) =>
    Object.assign(new Error(message), {
      name,
      $metadata: { httpStatusCode: status },
      $response: { statusCode: status, headers: type === undefined ? {} : { 'content-type': type } },
    });

  it('is a web server\'s page or JSON, never the SDK\'s "inspect the hidden field", and stops the job', () => {
    const parse =
      '@aws-sdk XML parse error: unexpected content.\n  Deserialization error: to see the raw response, inspect the hidden field {error}.$response on this object.';
    const expected =
      'The endpoint answered HTTP 200 with a web page, not as an S3 store does: check the endpoint URL (the host, the port, and any path the store needs).';
    expect(toBargeError(answer('Error', parse, 200, 'text/html; charset=utf-8'))).toMatchObject({
      code: 'NotS3',
      message: expected,
    });
    expect(toBargeError(answer('NotFound', 'UnknownError', 404, 'text/html'), 'list s3://b/')).toMatchObject({
      code: 'NotS3',
      message:
        'Cannot list s3://b/: The endpoint answered HTTP 404 with a web page, not as an S3 store does: check the endpoint URL (the host, the port, and any path the store needs).',
    });
    expect(errorCode(answer('Unknown', 'UnknownError', 403, 'application/json'))).toBe('NotS3');
  });

  it("is not S3's own 404 to a HEAD (no body, no type or XML) nor an error with its code", () => {
    expect(errorCode(answer('NotFound', 'UnknownError', 404))).toBe('NotFound');
    expect(errorCode(answer('NotFound', 'UnknownError', 404, 'application/xml'))).toBe('NotFound');
    expect(
      errorCode(
        Object.assign(answer('NoSuchKey', 'The specified key does not exist.', 404, 'text/html'), {
          Code: 'NoSuchKey',
        }),
      ),
    ).toBe('NoSuchKey');
  });

  it('says an XML answer that is not well formed may have been cut short', () => {
    const cut = answer(
      'Error',
      '@aws-sdk XML parse error: unclosed tag.\n  Deserialization error: to see the raw response, inspect the hidden field {error}.$response on this object.',
      200,
      'application/xml',
    );
    expect(toBargeError(cut)).toMatchObject({
      code: 'UnreadableAnswer',
      message:
        "The store's answer (HTTP 200) is not well-formed XML: it may have been cut short on the way. Try again; if it persists, check what stands between Barge and the store (a proxy).",
    });
  });
});
