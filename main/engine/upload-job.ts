// Upload files and folders: one PutObject for a small file, multipart for a large one.
//
// Parts are read from disk by range as they are sent, never buffered whole, and parts of all files
// share the one scheduler. A file's part size is fixed when the file starts (stores such as R2 need
// equal parts); a new Part size setting applies to the files that start after it.

import { readFile, stat } from 'node:fs/promises';
import mime from 'mime';
import {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand,
} from '@aws-sdk/client-s3';
import type { CompletedPart } from '@aws-sdk/client-s3';
import { choosePartSize, partCount, partNumbers, partRange } from '../../src/part-size.ts';
import { objectKeyProblem } from '../../src/s3-names.ts';
import { concurrentEach } from './concurrent-each.ts';
import { fileRangeBody } from './counting-stream.ts';
import { BargeError, toBargeError } from './errors.ts';
import type { JobBody, JobRuntime } from './job.ts';
import { walkPath, walkSources } from './local-files.ts';
import type { LocalFile, WalkEntry } from './local-files.ts';
import { withRetry } from './retry-loop.ts';
import type { S3Connection } from './s3-connection.ts';

/** Files up to this size are read whole and sent in one request (cheapest per object). */
const BUFFERED_PUT_MAX_BYTES = 1024 * 1024;

export interface UploadSpec {
  readonly sources: readonly string[];
  readonly bucket: string;
  /** A key (one file) or a prefix ending in "/" (or "" for the bucket's top). */
  readonly destination: string;
}

/** What a retry does again: a file, or a file or folder that could not be read the first time. */
type UploadItem = LocalFile | { readonly unread: true; readonly path: string; readonly key: string };

export function uploadBody(connection: S3Connection, spec: UploadSpec): JobBody<UploadItem> {
  return async (runtime, only) => {
    const files = discover(runtime, only ? only.map((item) => walkPathAgain(item)) : [walkSources(spec.sources, spec.destination)]);
    await concurrentEach(files, () => runtime.settings.threads * 2, async (file) => {
      try {
        await uploadFile(connection, spec.bucket, file, runtime);
        runtime.objectDone();
      } catch (error) {
        runtime.itemFailed(file, file.path, toBargeError(error, `upload ${file.path} to s3://${spec.bucket}/${file.key}`));
      }
    });
  };
}

async function* discover(runtime: JobRuntime<UploadItem>, walks: readonly AsyncIterable<WalkEntry>[]): AsyncGenerator<LocalFile> {
  for (const walk of walks) {
    for await (const entry of walk) {
      if (runtime.signal.aborted) return;
      if (!entry.ok) {
        runtime.addTotals(1, 0);
        runtime.itemFailed({ unread: true, path: entry.path, key: entry.key }, entry.path, toBargeError(entry.error, `read ${entry.path}`));
        continue;
      }
      runtime.addTotals(1, entry.size);
      yield entry;
    }
  }
  runtime.totalsFinal();
}

/** A retried item: a file that failed is sent as it is now, an unread path is walked again. */
async function* walkPathAgain(item: UploadItem): AsyncGenerator<WalkEntry> {
  yield* walkPath(item.path, item.key);
}

async function uploadFile(connection: S3Connection, bucket: string, file: LocalFile, runtime: JobRuntime<UploadItem>): Promise<void> {
  const keyProblem = objectKeyProblem(file.key);
  if (keyProblem) throw new BargeError('InvalidKey', `The key "${file.key.slice(0, 80)}…" ${keyProblem}.`);
  const contentType = mime.getType(file.path) ?? 'application/octet-stream';
  const partSize = choosePartSize(file.size, runtime.settings.partSizeBytes);
  if (file.size <= partSize) await putObject(connection, bucket, file, contentType, runtime);
  else await multipartUpload(connection, bucket, file, contentType, partSize, runtime);
}

async function putObject(connection: S3Connection, bucket: string, file: LocalFile, contentType: string, runtime: JobRuntime<UploadItem>): Promise<void> {
  if (file.size <= BUFFERED_PUT_MAX_BYTES) {
    const body = await readFile(file.path);
    if (body.length !== file.size) throw fileChanged(file);
    await runtime.request((signal) => connection.wire.putObject(bucket, file.key, body, body.length, { 'content-type': contentType }, signal));
    runtime.addBytes(body.length);
    return;
  }
  await runtime.request(async (signal) => {
    let sent = 0;
    try {
      const body = fileRangeBody(file.path, 0, file.size, (bytes) => {
        sent += bytes;
        runtime.addBytes(bytes);
      });
      await connection.wire.putObject(bucket, file.key, body, file.size, { 'content-type': contentType }, signal);
    } catch (error) {
      runtime.addBytes(-sent);
      throw error;
    }
  });
}

async function multipartUpload(
  connection: S3Connection, bucket: string, file: LocalFile, contentType: string, partSize: number, runtime: JobRuntime<UploadItem>,
): Promise<void> {
  const created = await runtime.request((signal) =>
    connection.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: file.key, ContentType: contentType }), { abortSignal: signal }));
  const uploadId = created.UploadId;
  if (!uploadId) throw new BargeError('InvalidResponse', 'The server started a multipart upload without an upload ID.');
  const parts: CompletedPart[] = [];
  try {
    const count = partCount(file.size, partSize);
    await concurrentEach(partNumbers(count), () => runtime.settings.threads * 2, async (partNumber) => {
      const range = partRange(file.size, partSize, partNumber);
      const result = await runtime.request(async (signal) => {
        let sent = 0;
        try {
          const body = fileRangeBody(file.path, range.start, range.end, (bytes) => {
            sent += bytes;
            runtime.addBytes(bytes);
          });
          return await connection.wire.uploadPart(bucket, file.key, uploadId, partNumber, body, range.end - range.start, signal);
        } catch (error) {
          runtime.addBytes(-sent);
          throw error;
        }
      });
      parts.push({ PartNumber: partNumber, ETag: result.etag });
    });
    // A file that changed while it was read would be stored as a mix of old and new bytes.
    const now = await stat(file.path);
    if (now.size !== file.size || now.mtimeMs !== file.mtimeMs) throw fileChanged(file);
    parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
    await runtime.request((signal) =>
      connection.client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: file.key, UploadId: uploadId, MultipartUpload: { Parts: parts } }), { abortSignal: signal }));
  } catch (error) {
    // Cancelled or failed: take the parts back off the server, so nothing is left to bill.
    await abortMultipartUpload(connection, bucket, file.key, uploadId);
    throw error;
  }
}

/**
 * Abort a multipart upload, outside the job's scheduler and cancellation (the job may be cancelled).
 *
 * Callers wait for their part requests to settle first: a part that lands after the abort would
 * otherwise linger.
 */
export async function abortMultipartUpload(connection: S3Connection, bucket: string, key: string, uploadId: string): Promise<void> {
  try {
    await withRetry(() => connection.client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })));
  } catch (error) {
    if ((error as { name?: string }).name !== 'NoSuchUpload') throw toBargeError(error, `abort the multipart upload of s3://${bucket}/${key} (list leftovers with "barge abort-uploads")`);
  }
}

function fileChanged(file: LocalFile): BargeError {
  return new BargeError('FileChanged', `${file.path} changed while it was being uploaded; nothing was stored. Retry when it no longer changes.`);
}
