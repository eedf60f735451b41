// One object as a stream of its bytes, checked as they pass: what a browser saves through the web
// host with its own download ("Save to this computer"), where no file of the engine's is written and
// so none can be checked afterwards as a job's download is (download-verification.ts).
//
// What is checked on the way: the count of bytes always; a whole-object checksum, where the store
// reports one, by the SDK (ChecksumMode ENABLED: it hashes the body and fails at its end on a
// mismatch); otherwise a single-part upload's MD5 ETag, here. A browser takes a download as whole
// once it holds Content-Length bytes, so the last chunk is held back until the check has passed:
// a body that fails it never arrives whole, and the browser says the download failed.

import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { BargeError, toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import type { S3Connection } from './s3-connection.ts';

export interface ObjectStream {
  /** The object's size: the body holds exactly this many bytes, or fails. */
  readonly size: number;
  /** Its bytes; fails (its last chunk unsent) when they are short, long, or do not match. */
  readonly body: Readable;
}

/** What the bytes must come to, beyond what the SDK checks itself. */
export interface BodyExpectation {
  readonly size: number;
  /** The MD5 the body must hash to (hex), for a single-part upload's ETag. */
  readonly md5Hex?: string;
  /** What the object is, for the messages ("s3://b/k"). */
  readonly what: string;
}

/** Open `key` for reading, its answer's head retried (the body is the caller's to take). */
export async function openObjectStream(connection: S3Connection, bucket: string, key: string, signal?: AbortSignal): Promise<ObjectStream> {
  const what = `s3://${bucket}/${key}`;
  let answer: GetObjectCommandOutput;
  try {
    answer = await withRetry(() => connection.client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: 'ENABLED' }), { abortSignal: signal }), { signal });
  } catch (error) {
    throw toBargeError(error, `read ${what}`);
  }
  const source = answer.Body as Readable | undefined;
  if (!source) throw new BargeError('EmptyAnswer', `The store answered for ${what} without its bytes.`);
  const size = answer.ContentLength ?? 0;
  const md5Hex = sdkChecksOwnChecksum(answer) ? undefined : etagMd5(answer);
  return { size, body: checkedBody(source, { size, md5Hex, what }) };
}

/** Whether the answer carries a whole-object checksum (one the SDK checks as the body passes). */
function sdkChecksOwnChecksum(answer: GetObjectCommandOutput): boolean {
  const values = [answer.ChecksumCRC32, answer.ChecksumCRC32C, answer.ChecksumCRC64NVME, answer.ChecksumSHA1, answer.ChecksumSHA256];
  // A composite checksum ("…-3", over the parts) is one the SDK leaves alone.
  return answer.ChecksumType !== 'COMPOSITE' && values.some((value) => value !== undefined && !value.includes('-'));
}

/** The MD5 a single-part upload's ETag is (not for SSE-KMS or SSE-C objects, whose ETags are not digests). */
function etagMd5(answer: GetObjectCommandOutput): string | undefined {
  if (String(answer.ServerSideEncryption ?? '').startsWith('aws:kms') || answer.SSECustomerAlgorithm !== undefined) return undefined;
  const etag = (answer.ETag ?? '').replace(/^W\//, '').replace(/"/g, '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(etag) ? etag : undefined;
}

/**
 * `source` passed on as it arrives, but for its last chunk, which goes only once the bytes have been
 * counted (and, with `md5Hex`, hashed) and found right. A failure of `source` (the SDK's checksum
 * mismatch, a reset) fails the result the same way.
 */
export function checkedBody(source: Readable, expected: BodyExpectation): Readable {
  let held: Buffer | undefined;
  let bytes = 0;
  const md5: Hash | undefined = expected.md5Hex === undefined ? undefined : createHash('md5');
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      md5?.update(chunk);
      if (bytes > expected.size) return callback(new BargeError('SizeMismatch', `The store sent more than the ${expected.size} bytes of ${expected.what}; the download was stopped.`));
      const previous = held;
      held = chunk;
      callback(null, previous);
    },
    flush(callback) {
      if (bytes !== expected.size) return callback(new BargeError('SizeMismatch', `The store sent ${bytes} of the ${expected.size} bytes of ${expected.what}; the download was stopped. Try again.`));
      const got = md5?.digest('hex');
      if (got !== undefined && got !== expected.md5Hex) {
        return callback(new BargeError('ChecksumMismatch', `The bytes received for ${expected.what} do not match its ETag (expected MD5 ${expected.md5Hex}, got ${got}); the download was stopped. Try again; if it happens again the stored object may be damaged.`));
      }
      callback(null, held);
    },
  });
  // Either side failing fails both: the store's socket is let go when the browser stops reading.
  pipeline(source, checked, () => undefined);
  return checked;
}
