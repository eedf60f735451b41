// A stream of unknown length stored as one object: barge pipe's upload of its standard input.
//
// The bytes are cut into parts of the part size as they come; at most PARTS_IN_FLIGHT parts are held
// (sending or waiting to), and reading stops while they are, so memory stays at that many parts
// whatever the stream's length. A stream that ends within its first part is one PUT. Each part goes
// with its Content-MD5, which every store checks. On any failure, or a stop asked through `signal`,
// the multipart upload is aborted before the error is passed on: no orphan parts keep costing storage.

import { createHash } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { UploadOptions } from '../../../src/upload-options.ts';
import { BargeError, toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import type { S3Connection } from './s3-connection.ts';
import { uploadOptionFields } from './upload-option-fields.ts';

/** Parts sent or waiting at once: memory is this many parts. */
export const PARTS_IN_FLIGHT = 4;
/** S3's most parts in one upload: a stream longer than 10,000 parts needs a larger part size. */
const MAX_PARTS = 10_000;

export interface StreamUploadOptions {
  readonly bucket: string;
  readonly key: string;
  readonly source: AsyncIterable<Buffer>;
  readonly partSizeBytes: number;
  readonly uploadOptions?: UploadOptions;
  readonly signal?: AbortSignal;
}

export interface StreamUploadResult {
  readonly size: number;
  readonly parts: number;
  readonly etag: string | undefined;
  readonly versionId: string | undefined;
}

export async function uploadStream(
  connection: S3Connection,
  options: StreamUploadOptions,
): Promise<StreamUploadResult> {
  const { bucket, key, partSizeBytes, signal } = options;
  const what = `s3://${bucket}/${key}`;
  const fields = uploadOptionFields(options.uploadOptions);
  const parts = cutParts(options.source, partSizeBytes);
  const first = await untilStopped(parts.next(), signal);
  const second = first.done ? first : await untilStopped(parts.next(), signal);
  if (second.done) {
    // One part or none: a single PUT.
    const body = first.done ? Buffer.alloc(0) : first.value;
    const answer = await withRetry(
      async () => {
        // Each attempt's body passes the engine's one gate (counted, held to Max speed).
        await connection.gate.up(body.length, signal);
        return connection.client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentMD5: md5(body), ...fields }),
          { abortSignal: signal },
        );
      },
      { signal },
    ).catch((error: unknown) => {
      throw toBargeError(error, `upload ${what}`);
    });
    return { size: body.length, parts: 1, etag: answer.ETag, versionId: answer.VersionId };
  }
  const created = await withRetry(
    () =>
      connection.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...fields }), {
        abortSignal: signal,
      }),
    { signal },
  ).catch((error: unknown) => {
    throw toBargeError(error, `upload ${what}`);
  });
  const uploadId = created.UploadId!;
  try {
    const sent: { PartNumber: number; ETag: string }[] = [];
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    let size = 0;
    let partNumber = 0;
    const send = (body: Buffer) => {
      partNumber += 1;
      if (partNumber > MAX_PARTS)
        throw new BargeError(
          'TooManyParts',
          `The stream is longer than ${MAX_PARTS.toLocaleString('en-US')} parts of the part size: give a ` +
            `larger --part-size (S3 takes at most 10,000 parts).`,
        );
      size += body.length;
      const number = partNumber;
      const part = withRetry(
        async () => {
          await connection.gate.up(body.length, signal);
          return connection.client.send(
            new UploadPartCommand({
              Bucket: bucket,
              Key: key,
              UploadId: uploadId,
              PartNumber: number,
              Body: body,
              ContentMD5: md5(body),
            }),
            { abortSignal: signal },
          );
        },
        { signal },
      ).then(
        (answer) => {
          sent.push({ PartNumber: number, ETag: answer.ETag! });
        },
        (error: unknown) => {
          failure ??= error;
        },
      );
      const tracked = part.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    };
    send(first.value!);
    send(second.value);
    for (;;) {
      while (inFlight.size >= PARTS_IN_FLIGHT && failure === undefined) await Promise.race(inFlight);
      if (failure !== undefined) throw failure;
      signal?.throwIfAborted();
      const next = await untilStopped(parts.next(), signal);
      if (next.done) break;
      send(next.value);
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
    signal?.throwIfAborted();
    sent.sort((a, b) => a.PartNumber - b.PartNumber);
    const completed = await withRetry(
      () =>
        connection.client.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: sent },
          }),
          { abortSignal: signal },
        ),
      { signal },
    );
    return { size, parts: sent.length, etag: completed.ETag, versionId: completed.VersionId };
  } catch (error) {
    // Not under `signal`: the stop that ended the upload must not stop its clean-up.
    await withRetry(() =>
      connection.client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })),
    ).catch(() => undefined);
    if (signal?.aborted)
      throw new BargeError('Cancelled', `The upload of ${what} was stopped; its parts were removed from the store.`);
    throw toBargeError(error, `upload ${what}`);
  }
}

/** `waiting`, or the stop if it comes first: an input left open (a terminal, a pipe) must not hold a stop up. */
function untilStopped<T>(waiting: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return waiting;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    waiting.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

function md5(body: Buffer): string {
  return createHash('md5').update(body).digest('base64');
}

/** The stream as parts of exactly `partSize` bytes (the last one shorter). */
async function* cutParts(source: AsyncIterable<Buffer>, partSize: number): AsyncGenerator<Buffer, void> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of source) {
    let rest = chunk;
    while (pendingBytes + rest.length >= partSize) {
      const take = partSize - pendingBytes;
      pending.push(rest.subarray(0, take));
      yield Buffer.concat(pending, partSize);
      rest = rest.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (rest.length > 0) {
      // Copied: a stream may reuse its chunk's memory once it is handed on.
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}
