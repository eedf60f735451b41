// Upload files and folders: one PutObject for a small file, multipart for a large one.
//
// Parts are read from disk by range as they are sent, never buffered whole, and parts of all files
// share the one scheduler. A file's part size is fixed when the file starts (stores such as R2 need
// equal parts); a new Part size setting applies to the files that start after it.

import { close, open, read } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import mime from 'mime';
import {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand,
} from '@aws-sdk/client-s3';
import type { CompletedPart } from '@aws-sdk/client-s3';
import { choosePartSize, MAX_OBJECT_SIZE_BYTES, partCount, partNumbers, partRange } from '../../src/part-size.ts';
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
  if (file.size > MAX_OBJECT_SIZE_BYTES) throw new BargeError('EntityTooLarge', `${file.path} is larger than the largest object S3 stores (10,000 parts of 5 GiB).`);
  const contentType = mime.getType(file.path) ?? 'application/octet-stream';
  const partSize = choosePartSize(file.size, runtime.settings.partSizeBytes);
  // Progress counts the file's bytes as they go out; if the file fails in the end, they come back off.
  let fileBytes = 0;
  const addBytes = (bytes: number) => {
    fileBytes += bytes;
    runtime.addBytes(bytes);
  };
  const upload: FileUpload = { connection, bucket, file, contentType, runtime, addBytes };
  try {
    if (file.size <= partSize) await putObject(upload);
    else await multipartUpload(upload, partSize);
  } catch (error) {
    runtime.addBytes(-fileBytes);
    throw error;
  }
}

interface FileUpload {
  readonly connection: S3Connection;
  readonly bucket: string;
  readonly file: LocalFile;
  readonly contentType: string;
  readonly runtime: JobRuntime<UploadItem>;
  readonly addBytes: (bytes: number) => void;
}

/** One attempt at sending bytes [start, end) of the file; a failed attempt takes its bytes back. */
async function sendRange<T>(upload: FileUpload, start: number, end: number, signal: AbortSignal, send: (body: Readable) => Promise<T>): Promise<T> {
  let sent = 0;
  try {
    return await send(fileRangeBody(upload.file.path, start, end, (bytes) => {
      sent += bytes;
      upload.addBytes(bytes);
    }));
  } catch (error) {
    upload.addBytes(-sent);
    throw error;
  }
}

async function putObject(upload: FileUpload): Promise<void> {
  const { connection, bucket, file, contentType, runtime } = upload;
  const headers = { 'content-type': contentType };
  if (file.size <= BUFFERED_PUT_MAX_BYTES) {
    const body = await readWholeFile(file.path, file.size);
    if (body.length !== file.size) throw fileChanged(file);
    await runtime.request((signal) => connection.wire.putObject(bucket, file.key, body, body.length, headers, signal));
    upload.addBytes(body.length);
    return;
  }
  await runtime.request((signal) => sendRange(upload, 0, file.size, signal, (body) => connection.wire.putObject(bucket, file.key, body, file.size, headers, signal)));
  // A single PUT cannot be taken back before it lands: a file rewritten meanwhile is reported.
  if (await changedSince(file)) throw fileChanged(file, 'the stored object may mix old and new content; upload it again');
}

async function multipartUpload(upload: FileUpload, partSize: number): Promise<void> {
  const { connection, bucket, file, contentType, runtime } = upload;
  const created = await runtime.request((signal) =>
    connection.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: file.key, ContentType: contentType }), { abortSignal: signal }));
  const uploadId = created.UploadId;
  if (!uploadId) throw new BargeError('InvalidResponse', 'The server started a multipart upload without an upload ID.');
  const parts: CompletedPart[] = [];
  try {
    await concurrentEach(partNumbers(partCount(file.size, partSize)), () => runtime.settings.threads * 2, async (partNumber) => {
      const range = partRange(file.size, partSize, partNumber);
      const result = await runtime.request((signal) => sendRange(upload, range.start, range.end, signal,
        (body) => connection.wire.uploadPart(bucket, file.key, uploadId, partNumber, body, range.end - range.start, signal)));
      parts.push({ PartNumber: partNumber, ETag: result.etag });
    });
    // A file that changed while it was read would be stored as a mix of old and new bytes.
    if (await changedSince(file)) throw fileChanged(file);
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
 * A small file's bytes: open, one read, close. (fs.promises.readFile costs twice the CPU per file,
 * measured, which shows at thousands of files a second.) One byte more than expected is asked for,
 * so a file that grew since it was listed is noticed.
 */
function readWholeFile(path: string, expectedSize: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    open(path, 'r', (openError, fd) => {
      if (openError) return reject(openError);
      const buffer = Buffer.allocUnsafe(expectedSize + 1);
      read(fd, buffer, 0, buffer.length, 0, (readError, bytesRead) => {
        close(fd, () => undefined);
        if (readError) reject(readError);
        else resolve(buffer.subarray(0, bytesRead));
      });
    });
  });
}

async function changedSince(file: LocalFile): Promise<boolean> {
  const now = await stat(file.path);
  return now.size !== file.size || now.mtimeMs !== file.mtimeMs;
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

function fileChanged(file: LocalFile, consequence = 'nothing was stored; retry when it no longer changes'): BargeError {
  return new BargeError('FileChanged', `${file.path} changed while it was being uploaded: ${consequence}.`);
}
