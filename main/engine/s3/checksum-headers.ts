// S3's flexible-checksum headers, and the stores that refuse them.
//
// Since the AWS SDKs sent x-amz-checksum-* by default (2025), a family of S3-compatible stores answers
// them with 501 NotImplemented ("A header you provided implies functionality that is not
// implemented"), or with 400 naming the header, where Ceph's RGW ignores them. Every store checks
// Content-MD5 and a signed SHA-256. So a connection that meets such a refusal sends none of these
// headers from then on (upload-checksum.ts then chooses Content-MD5 or a signed SHA-256), and the
// refused request is sent again without them. Only a refusal that can be about them counts: the
// request carried one, and the answer names one of them or, for a 501, names no header at all. Any
// other 501 or 400 stays the error it is.

import type { S3Client } from '@aws-sdk/client-s3';
import { BargeError, errorCode, httpStatus } from '../errors.ts';

/** What the store has shown of the checksum headers: nothing yet, or that it refuses them. */
export type ChecksumHeaders = 'unknown' | 'refused';

/** What a connection has learnt of the store that a refusal is read against (see S3Connection). */
export interface LearntOfStore {
  checksumHeaders: ChecksumHeaders;
  readonly trailers: 'unknown' | 'taken' | 'refused';
}

/** x-amz-checksum-* (but x-amz-checksum-mode, which asks for checksums back), x-amz-sdk-checksum-*, x-amz-trailer. */
const CHECKSUM_HEADER = /^(x-amz-checksum-(?!mode$)[a-z0-9-]+|x-amz-sdk-checksum-[a-z0-9-]+|x-amz-trailer)$/i;

/** A header a store's message may name ("Unsupported header x-amz-checksum-crc32c received"). */
const HEADER_IN_TEXT = /\b(x-amz-[a-z0-9-]+|content-(md5|encoding|length|type)|transfer-encoding)\b/i;

export function isChecksumHeader(name: string): boolean {
  return CHECKSUM_HEADER.test(name);
}

/** The checksum headers among `headers`, by name as given. */
export function checksumHeadersIn(headers: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(headers).filter(isChecksumHeader);
}

/** Take the checksum headers out of a request's headers (in place, as the SDK's middleware passes them on). */
export function dropChecksumHeaders(headers: Record<string, unknown>): void {
  for (const name of checksumHeadersIn(headers)) delete headers[name];
}

/**
 * The header a store's answer names: AWS's <Header> (NotImplemented), <ArgumentName> (InvalidArgument), or one in its
 * message.
 */
export function headerNamedBy(error: unknown): string | undefined {
  const e = (error ?? {}) as { Header?: unknown; ArgumentName?: unknown; message?: unknown };
  for (const field of [e.Header, e.ArgumentName]) if (typeof field === 'string' && field !== '') return field;
  return typeof e.message === 'string' ? HEADER_IN_TEXT.exec(e.message)?.[0] : undefined;
}

/** Whether `error` is a store's refusal of the checksum headers a request carried (`sent`, their names). */
export function refusesChecksumHeaders(error: unknown, sent: readonly string[]): boolean {
  if (sent.length === 0) return false;
  const status = httpStatus(error);
  const code = errorCode(error);
  const named = headerNamedBy(error);
  if (status === 501 && (code === 'NotImplemented' || code === 'Http501'))
    return named === undefined || isChecksumHeader(named);
  if (status === 400 && (code === 'InvalidArgument' || code === 'InvalidRequest'))
    return named !== undefined && isChecksumHeader(named);
  return false;
}

/**
 * A failed request, read for a refusal of the checksum headers it carried (`headers`, as sent): the
 * connection learns it, and the error says to send the request again (ChecksumHeadersRefused, sent
 * again at once by the retry loop). Anything else comes back as it was.
 *
 * A checksum after the body on a connection whose store has not yet taken one may be refused for
 * being after the body: afterTrailerFailure (upload-checksum.ts) reads that refusal, and the CRC goes
 * before the body, where a refusal of it is read here.
 */
export function learnChecksumHeaderRefusal(
  connection: LearntOfStore,
  error: unknown,
  headers: Readonly<Record<string, unknown>>,
): unknown {
  const sent = checksumHeadersIn(headers).map((name) => name.toLowerCase());
  if (sent.includes('x-amz-trailer') && connection.trailers !== 'taken') return error;
  if (!refusesChecksumHeaders(error, sent)) return error;
  connection.checksumHeaders = 'refused';
  const answer = `${errorCode(error)}, HTTP ${httpStatus(error)}`;
  return new BargeError(
    'ChecksumHeadersRefused',
    `The store refused S3's checksum headers (${sent.join(', ')}: ${answer}); ` +
      'this connection sends Content-MD5 or a signed SHA-256 instead from now on.',
    { cause: error },
  );
}

/**
 * The same for every request of the SDK client: once the store has refused the checksum headers, no
 * request carries them (whatever the SDK or a command added), and a refusal is learnt as above. At
 * the end of the build step, after the SDK's own checksum middleware has added its headers, and
 * before the request is signed. `connectionOf`: the connection is made after its clients (one a region).
 */
export function guardChecksumHeaders(client: S3Client, connectionOf: () => LearntOfStore): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (!request.headers) return next(args);
      const connection = connectionOf();
      if (connection.checksumHeaders === 'refused') dropChecksumHeaders(request.headers);
      const sent = { ...request.headers };
      try {
        return await next(args);
      } catch (error) {
        throw learnChecksumHeaderRefusal(connection, error, sent);
      }
    },
    { step: 'build', priority: 'low', name: 'bargeChecksumHeaders' },
  );
}
