// One object as a stream of its bytes, checked as they pass: what a browser saves through the web
// host with its own download ("Save to this computer"), where no file of the engine's is written and
// so none can be checked afterwards as a job's download is.
//
// The check is a job's (download-verification.ts), made in one pass: the object's HEAD (and, for one
// uploaded in parts, a HEAD of its first and last part) says what its bytes must come to: a
// whole-object checksum, a composite one over its parts, a single-part MD5 ETag, or a multipart ETag;
// each is computed as the bytes pass. The GET asks for that very object (If-Match). A browser takes
// a download as whole once it holds Content-Length bytes, so the last chunk is held back until the
// check has passed: a body that fails it never arrives whole, and the browser says the download failed.

import { pipeline, Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { GetObjectCommandOutput } from '@aws-sdk/client-s3';
import type { Verification } from '../../../src/verification.ts';
import { objectFactsByHead, planVerification, StreamVerifier } from '../integrity/download-verification.ts';
import type { VerificationPlan } from '../integrity/download-verification.ts';
import { BargeError, toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import type { ByteGate } from '../queue/byte-gate.ts';
import type { S3Connection } from './s3-connection.ts';
import { explainHeadFailure } from './s3-listing.ts';
import { badSizeError, parseObjectSize } from './object-size.ts';

export interface ObjectStream {
  /** The object's size: the body holds exactly this many bytes, or fails. */
  readonly size: number;
  /** Its bytes; fails (its last chunk unsent) when they are short, long, or do not match. */
  readonly body: Readable;
}

/** How an object's bytes can be checked, before any is fetched. */
export interface ObjectCheck {
  readonly size: number;
  readonly etag: string | undefined;
  readonly plan: VerificationPlan;
  /**
   * 'checked': a checksum or ETag it must match; 'maybe': only if a guessed part size is right; 'size-only': nothing to
   * match.
   */
  readonly check: 'checked' | 'maybe' | 'size-only';
}

/** What the object's bytes must come to (HEADs of it, and of its parts where the check needs them). */
export async function objectCheck(
  connection: S3Connection,
  bucket: string,
  key: string,
  signal?: AbortSignal,
): Promise<ObjectCheck> {
  const head = (partNumber?: number) =>
    withRetry(() => connection.wire.headObject(bucket, key, { partNumber, signal }), { signal });
  // A HEAD's refusal is a bare status: a listing names it (NoSuchKey, NoSuchBucket, the keys).
  const explained = async (error: unknown) =>
    toBargeError(await explainHeadFailure(connection, bucket, key, error, signal), `read s3://${bucket}/${key}`);
  const first = await head().catch(async (error: unknown) => {
    throw await explained(error);
  });
  const size = parseObjectSize(first['content-length']);
  if (size === undefined)
    throw badSizeError(`s3://${bucket}/${key}`, 'HEAD answer (Content-Length)', first['content-length']);
  const again = (partNumber?: number) => (partNumber === undefined ? Promise.resolve(first) : head(partNumber));
  const facts = await objectFactsByHead(again, size, () => signal?.aborted === true).catch(async (error: unknown) => {
    throw await explained(error);
  });
  // One pass over the bytes: any checksum, whole or by parts, is computed as they go.
  const plan = planVerification(facts, Number.MAX_SAFE_INTEGER);
  const check =
    plan.attempts.length === 0 ? 'size-only' : plan.attempts.every((attempt) => attempt.guess) ? 'maybe' : 'checked';
  return { size: facts.size, etag: facts.etag, plan, check };
}

/**
 * Open `key` for reading, its answer's head retried (the body is the caller's to take).
 * `requireVerified`: an object whose bytes can be checked only for their size fails (at once where
 * that is known beforehand; else at the end, its last chunk unsent).
 */
export async function openObjectStream(
  connection: S3Connection,
  bucket: string,
  key: string,
  options: { readonly signal?: AbortSignal; readonly requireVerified?: boolean } = {},
): Promise<ObjectStream> {
  const { signal, requireVerified = false } = options;
  const what = `s3://${bucket}/${key}`;
  const looked = await objectCheck(connection, bucket, key, signal);
  if (requireVerified && looked.check === 'size-only') throw unverified(what, looked.plan.why);
  let answer: GetObjectCommandOutput;
  try {
    // The object looked at, not one written since (its checksum would not be this one's).
    answer = await withRetry(
      () =>
        connection.client.send(new GetObjectCommand({ Bucket: bucket, Key: key, IfMatch: looked.etag }), {
          abortSignal: signal,
        }),
      { signal },
    );
  } catch (error) {
    throw toBargeError(error, `read ${what}`);
  }
  const source = answer.Body as Readable | undefined;
  if (!source) throw new BargeError('EmptyAnswer', `The store answered for ${what} without its bytes.`);
  // The answer is the object looked at: of another size, it is not (or the store is faulty).
  if (answer.ContentLength !== undefined && answer.ContentLength !== looked.size) {
    source.destroy();
    throw new BargeError(
      'SizeMismatch',
      `The store sends ${answer.ContentLength} bytes for ${what}, not the ${looked.size} its HEAD gave: it ` +
        `changed, or the store is faulty; nothing was saved. Save it again.`,
    );
  }
  const size = looked.size;
  return {
    size,
    body: checkedBody(source, {
      size,
      what,
      verifier: new StreamVerifier(looked.plan),
      requireVerified,
      gate: connection.gate,
    }),
  };
}

function unverified(what: string, why: string | undefined): BargeError {
  return new BargeError(
    'Unverified',
    `${what} can be checked only for its size${why ? ` (${why})` : ''}; it was not saved, as asked. Save it ` +
      `without "Only save objects whose content can be verified" to take it as it is.`,
  );
}

/** What the bytes must come to. */
export interface BodyExpectation {
  readonly size: number;
  /** What the object is, for the messages ("s3://b/k"). */
  readonly what: string;
  /** What the bytes pass on their way (the engine's gate: counted, and held to the Max speed). */
  readonly gate?: ByteGate;
  /** Hashes the bytes as they pass and says at the end whether they match. */
  readonly verifier?: { update(chunk: Uint8Array): void; finish(what: string): { how: Verification; why?: string } };
  readonly requireVerified?: boolean;
}

/**
 * `source` passed on as it arrives, but for its last chunk, which goes only once the bytes have been
 * counted (and hashed) and found right. A failure of `source` (a reset) fails the result the same way.
 */
export function checkedBody(source: Readable, expected: BodyExpectation): Readable {
  let held: Buffer | undefined;
  let bytes = 0;
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > expected.size)
        return callback(
          new BargeError(
            'SizeMismatch',
            `The store sent more than the ${expected.size} bytes of ${expected.what}; the download was stopped.`,
          ),
        );
      expected.verifier?.update(chunk);
      const previous = held;
      held = chunk;
      const gated = expected.gate?.down(chunk.length);
      if (gated) gated.then(() => callback(null, previous), callback);
      else callback(null, previous);
    },
    flush(callback) {
      if (bytes !== expected.size)
        return callback(
          new BargeError(
            'SizeMismatch',
            `The store sent ${bytes} of the ${expected.size} bytes of ${expected.what}; the download was ` +
              `stopped. Try again.`,
          ),
        );
      try {
        const outcome = expected.verifier?.finish(expected.what);
        if (outcome?.how === 'size-only' && expected.requireVerified && expected.size > 0)
          return callback(unverified(expected.what, outcome.why));
      } catch (error) {
        return callback(error as Error);
      }
      callback(null, held);
    },
  });
  // Either side failing fails both: the store's socket is let go when the browser stops reading.
  pipeline(source, checked, () => undefined);
  return checked;
}
