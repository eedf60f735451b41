// One object's bytes in order, fetched as ranges in parallel: barge cat's stream to standard output.
//
// One GET streams at what one connection carries; several ranges at once fill the link, as a job's
// download does. They are written in order, so at most RANGES_IN_FLIGHT ranges are held at once
// (memory: that many times the range size). Each range is fetched whole before it is passed on, and
// fetched again if its body breaks; every range names the object looked at (If-Match), and the
// bytes pass the same check a browser's save does (object-stream.ts): the last chunk is held back
// until they come to the object's checksum or ETag.

import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { StreamVerifier } from '../integrity/download-verification.ts';
import { BargeError, toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import type { S3Connection } from './s3-connection.ts';
import { checkedBody, objectCheck } from './object-stream.ts';
import type { ObjectStream } from './object-stream.ts';

/** Ranges fetched ahead of the one being written. */
export const RANGES_IN_FLIGHT = 4;

export interface RangedReadOptions {
  /** The size of each range (the engine's part size). */
  readonly rangeBytes: number;
  readonly signal?: AbortSignal;
}

export async function openRangedObject(
  connection: S3Connection,
  bucket: string,
  key: string,
  options: RangedReadOptions,
): Promise<ObjectStream> {
  const { signal, rangeBytes } = options;
  const what = `s3://${bucket}/${key}`;
  const looked = await objectCheck(connection, bucket, key, signal);
  const size = looked.size;
  const fetchRange = (start: number) =>
    withRetry(
      async () => {
        const end = Math.min(size, start + rangeBytes) - 1;
        const answer = await connection.client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${end}`, IfMatch: looked.etag }),
          { abortSignal: signal },
        );
        const bytes = Buffer.from(await answer.Body!.transformToByteArray());
        if (bytes.length !== end - start + 1)
          throw new BargeError(
            'SizeMismatch',
            `The store sent ${bytes.length} bytes for bytes ${start}-${end} of ${what}, not ` +
              `${end - start + 1}: it changed, or the store is faulty. Try again.`,
          );
        return bytes;
      },
      { signal },
    ).catch((error: unknown) => {
      throw toBargeError(error, `read ${what}`);
    });
  async function* inOrder(): AsyncGenerator<Buffer> {
    const ahead: Promise<Buffer>[] = [];
    let next = 0;
    const fill = () => {
      while (ahead.length < RANGES_IN_FLIGHT && next < size) {
        const range = fetchRange(next);
        // A range failing while earlier ones are written is said when its turn comes, not as unhandled.
        range.catch(() => undefined);
        ahead.push(range);
        next += rangeBytes;
      }
    };
    fill();
    while (ahead.length > 0) {
      const bytes = await ahead.shift()!;
      fill();
      yield bytes;
    }
  }
  return {
    size,
    body: checkedBody(Readable.from(inOrder(), { objectMode: false }), {
      size,
      what,
      verifier: new StreamVerifier(looked.plan),
      gate: connection.gate,
    }),
  };
}
