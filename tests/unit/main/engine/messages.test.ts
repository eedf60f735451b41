// The table of what a person is told: one row per situation (the error as the SDK, Node or a store
// gives it), the code Barge gives it and the whole sentence. A change of wording shows here, row
// by row; and every code the engine sorts is said in a sentence, never in a library's raw words.

import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../../main/engine/error-codes.ts';
import { toBargeError } from '../../../../main/engine/errors.ts';
import { notS3Address } from '../../../../main/cli/commands/job-command.ts';
import { parseCli } from '../../../../main/cli/options.ts';

const storeError = (name: string, message: string, status: number, extra: object = {}) =>
  Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status }, ...extra });
const nodeError = (code: string, message = code) => Object.assign(new Error(message), { code });
const CONTEXT = 'download s3://photos/2024/beach.jpg';

const TABLE: readonly (readonly [situation: string, error: unknown, code: string, message: string])[] = [
  [
    'the access key is unknown',
    storeError('InvalidAccessKeyId', 'The Access Key Id you provided does not exist in our records.', 403),
    'InvalidAccessKeyId',
    'The server does not know this access key ID. Check the keys, AWS_PROFILE or --profile.',
  ],
  [
    'the secret key is wrong',
    storeError('SignatureDoesNotMatch', 'The request signature we calculated does not match', 403),
    'SignatureDoesNotMatch',
    'The secret access key does not match the access key ID. Check the credentials.',
  ],
  [
    'no credentials at all',
    Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }),
    'CredentialsProviderError',
    'No credentials found. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or use a profile (AWS_PROFILE or --profile).',
  ],
  [
    'the bucket is not there',
    storeError('NoSuchBucket', 'The specified bucket does not exist', 404),
    'NoSuchBucket',
    `Cannot ${CONTEXT}: The bucket does not exist (check its name and the endpoint).`,
  ],
  [
    'the object is not there',
    storeError('NoSuchKey', 'The specified key does not exist.', 404),
    'NoSuchKey',
    `Cannot ${CONTEXT}: The object does not exist.`,
  ],
  [
    'permission refused',
    storeError('AccessDenied', 'Access Denied.', 403),
    'AccessDenied',
    `Cannot ${CONTEXT}: Access denied: these credentials lack permission for this operation. Ask the bucket's owner for access, or use other credentials.`,
  ],
  [
    'the store keeps throttling',
    storeError('SlowDown', 'Please reduce your request rate.', 503),
    'SlowDown',
    `Cannot ${CONTEXT}: The store kept asking for fewer requests (it answered 503 SlowDown). Lower the thread count, then try again.`,
  ],
  [
    'the store fails on its side',
    storeError('InternalError', 'We encountered an internal error, please try again.', 500),
    'InternalError',
    `Cannot ${CONTEXT}: The store failed on its side (it answered 500 InternalError). Try again later; if it goes on, tell the store's administrator.`,
  ],
  [
    'the store gave up on a slow request',
    storeError(
      'RequestTimeout',
      'Your socket connection to the server was not read from or written to within the timeout period.',
      400,
    ),
    'RequestTimeout',
    `Cannot ${CONTEXT}: The store gave up waiting for the request's bytes (RequestTimeout): the network is slow or stalls. Check the network, or lower the thread count, then try again.`,
  ],
  [
    'nothing listens at the endpoint',
    nodeError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'),
    'ECONNREFUSED',
    'The connection was refused. Is the endpoint URL right and the server running?',
  ],
  [
    'the connection is reset',
    nodeError('ECONNRESET', 'socket hang up'),
    'ECONNRESET',
    'The connection was reset by the server or the network. If it goes on, check the network (a proxy, VPN or firewall on the way) and the endpoint URL.',
  ],
  [
    'the connection times out',
    nodeError('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:443'),
    'ETIMEDOUT',
    'The connection timed out: nothing answered at the endpoint. Check the endpoint URL and the network, then try again.',
  ],
  [
    'the server stops answering',
    Object.assign(new Error('Connection timed out after 30000 ms'), { name: 'TimeoutError' }),
    'TimeoutError',
    'The server stopped answering (the request timed out). Try again; if it goes on, lower the thread count or check the network.',
  ],
  [
    'the host cannot be reached',
    nodeError('EHOSTUNREACH'),
    'EHOSTUNREACH',
    "The endpoint's host cannot be reached from this computer. Check the endpoint URL and the network (a VPN that is off?), then try again.",
  ],
  [
    'no network',
    nodeError('ENETUNREACH'),
    'ENETUNREACH',
    'The network is unreachable: this computer has no route to the endpoint. Check its network connection, then try again.',
  ],
  [
    'the host name does not resolve',
    nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND s3.example.invalid'),
    'ENOTFOUND',
    'The endpoint host name does not resolve. Check the endpoint URL.',
  ],
  [
    'a self-signed certificate',
    nodeError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    "The server's TLS certificate is not trusted (it is self-signed, or signed by an authority this computer does not know). Check the endpoint URL; if you trust this server, name its CA certificate in NODE_EXTRA_CA_CERTS (a PEM file) and start again.",
  ],
  [
    'https to a plain http port',
    nodeError('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'),
    'ERR_SSL_WRONG_VERSION_NUMBER',
    'The secure (TLS) connection failed: the server does not speak TLS on this port. Check the endpoint URL (http:// or https://, and the port).',
  ],
  [
    'the clock is off',
    storeError(
      'RequestTimeTooSkewed',
      "The difference between the request time and the server's time is too large.",
      403,
    ),
    'RequestTimeTooSkewed',
    "This computer's clock is too far from the server's. Set the clock right and try again.",
  ],
  [
    'the disk is full',
    Object.assign(nodeError('ENOSPC', 'no space left on device'), { path: '/home/me/Downloads/beach.jpg' }),
    'ENOSPC',
    `Cannot ${CONTEXT}: The disk is full (/home/me/Downloads/beach.jpg). Free some space or choose another folder, then try again.`,
  ],
  [
    'a web server, not a store (an HTML page)',
    storeError('Unknown', 'UnknownError', 200, {
      $response: { headers: { 'content-type': 'text/html; charset=utf-8' } },
    }),
    'NotS3',
    '',
  ],
  [
    'a store with only a status to say',
    storeError('Error', 'UnknownError', 418),
    'Http418',
    'The server answered HTTP 418, giving no reason. Check the endpoint URL; if it is right, try again later.',
  ],
  [
    "a store's own words for a code Barge does not know",
    storeError('QuotaExceeded', 'Quota exceeded', 403),
    'QuotaExceeded',
    'Quota exceeded (HTTP 403).',
  ],
  [
    'nothing to go on at all',
    Object.assign(new Error(''), { name: 'Weird' }),
    'Weird',
    'Something failed that Barge has no words for (Weird). Try again; if it goes on, report it with that code.',
  ],
];

describe('the table of messages', () => {
  it.each(TABLE)('%s', (_situation, error, code, message) => {
    const said = toBargeError(error, message.startsWith('Cannot ') ? CONTEXT : undefined);
    expect(said.code).toBe(code);
    // A web server's answer is said by its own module (errors.ts notS3Message): here, only that it is a sentence.
    if (message === '') expect(said.message).toMatch(/^The endpoint .*\.$/);
    else expect(said.message).toBe(message);
  });
});

/** What a library says and a person should never read. */
const RAW =
  /\$response|\{error\}|Too big|Too small|expected string|Invalid input|undefined|\[object |UnknownError|Unexpected error/;

it('says every code the engine sorts in sentences: a capital first, a full stop last, no library words', () => {
  for (const code of ERROR_CODES.keys()) {
    for (const error of [storeError(code, 'UnknownError', 500), Object.assign(nodeError(code), { name: code })]) {
      const { message } = toBargeError(error);
      expect(message, code).toMatch(/^[A-Z"]/);
      expect(message, code).toMatch(/[.?)]$/);
      expect(message, code).not.toMatch(RAW);
    }
  }
});

/** The command line's refusals of what was typed, before anything runs (then "Run barge --help for usage."). */
const TYPED: readonly (readonly [situation: string, argv: readonly string[], message: string])[] = [
  [
    'an option barge does not have',
    ['ls', '--bogus'],
    '--bogus is not an option of barge. A file whose name begins with "-" goes after "--": barge cp -- --bogus s3://bucket/.',
  ],
  [
    'an option that needs a value, given none',
    ['cp', '--threads'],
    '--threads needs a value after it (--threads <value>).',
  ],
  [
    'a value that begins with a dash, which reads as another option',
    ['speedtest', '--budget', '-5s', 's3://b/'],
    '--budget needs a value after it; a value that begins with "-" goes after "=" (--budget=-5s).',
  ],
  [
    'a speed-test budget out of bounds',
    ['speedtest', '--budget=-5s', 's3://b/'],
    '--budget takes a duration from 10s to 10m (30s, 2m), not "-5s".',
  ],
  [
    'a value for an option that takes none',
    ['ls', '--recursive=yes', 's3://b/'],
    '--recursive takes no value: give --recursive alone.',
  ],
  [
    'a thread count that is no number',
    ['ls', '--threads', 'many'],
    '--threads takes auto or a whole number, not "many".',
  ],
  [
    'a Max speed that is no rate',
    ['cp', '--max-rate', 'fast', 'a', 's3://b/'],
    '--max-rate takes a rate such as 50MB/s, 20MiB/s or 500KB/s (0 for no cap), not "fast".',
  ],
  [
    'a Max speed in a unit that is none',
    ['cp', '--max-rate', '50XB/s', 'a', 's3://b/'],
    '--max-rate takes a rate such as 50MB/s, 20MiB/s or 500KB/s (0 for no cap), not "50XB/s".',
  ],
  [
    'a Max speed below zero',
    ['cp', '--max-rate=-5MB/s', 'a', 's3://b/'],
    '--max-rate takes a rate such as 50MB/s, 20MiB/s or 500KB/s (0 for no cap), not "-5MB/s".',
  ],
  [
    'a Max speed past any link',
    ['cp', '--max-rate', '1TB/s', 'a', 's3://b/'],
    '--max-rate must be at most 95367 MiB/s (0 for no cap).',
  ],
  // The speed test's budget (issue 29 §2).
  [
    'a speed test budget too short to measure the grid',
    ['speedtest', '--budget', '2s', 's3://b'],
    '--budget takes a duration from 10s to 10m (30s, 2m), not "2s".',
  ],
  [
    'a speed test budget that is no duration',
    ['speedtest', '--budget', 'long', 's3://b'],
    '--budget takes a duration from 10s to 10m (30s, 2m), not "long".',
  ],
];

describe('the table of messages: what was typed', () => {
  it.each(TYPED)('%s', (_situation, argv, message) => {
    expect(() => parseCli(argv)).toThrow(`${message}\nRun "barge --help" for usage.`);
  });

  it('an address with no bucket, and one that is not s3://', () => {
    expect(notS3Address('s3://')).toBe(
      '"s3://" names no bucket: write s3://bucket/ or s3://bucket/key (barge ls lists the buckets).',
    );
    expect(notS3Address('https://example.com/b')).toBe('"https://example.com/b" is not an s3:// address.');
  });
});
