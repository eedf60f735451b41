// Multipart uploads that must not linger (each is billed for its parts until aborted): one aborted
// by its ID, or the ones a run created but never recorded, found by listing the key's uploads.

import { AbortMultipartUploadCommand } from '@aws-sdk/client-s3';
import { toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import type { S3Connection } from './s3-connection.ts';
import { listUploadsOfKey } from './s3-listing.ts';

const ABORT_OUTAGE_PATIENCE_MS = 60_000;

/** The store's clock may be this far behind this machine's: an upload begun "before" a run may be its own. */
const STORE_CLOCK_MARGIN_MS = 15 * 60 * 1000;

/**
 * Abort the uploads of exactly this key begun since `since` (this machine's clock): ones a run created
 * but never recorded. Older ones (another run's, long ago) are left to `barge abort-uploads`.
 */
export async function abortUnrecordedUploads(
  connection: S3Connection,
  bucket: string,
  key: string,
  since: number | undefined,
): Promise<void> {
  for await (const upload of listUploadsOfKey(connection, bucket, key)) {
    if (since !== undefined && upload.initiated !== undefined && upload.initiated < since - STORE_CLOCK_MARGIN_MS)
      continue;
    await abortMultipartUpload(connection, bucket, key, upload.uploadId);
  }
}

/**
 * Abort a multipart upload, outside the job's scheduler and cancellation (the job may be cancelled).
 *
 * Callers wait for their part requests to settle first: a part that lands after the abort would
 * otherwise linger.
 */
export async function abortMultipartUpload(
  connection: S3Connection,
  bucket: string,
  key: string,
  uploadId: string,
): Promise<void> {
  try {
    // A store that is restarting is waited out for a minute: an upload left behind is billed.
    await withRetry(() => abortUploadOnce(connection, { bucket, key, uploadId }), {
      outagePatienceMs: () => ABORT_OUTAGE_PATIENCE_MS,
    });
  } catch (error) {
    if ((error as { name?: string }).name !== 'NoSuchUpload')
      throw toBargeError(
        error,
        `abort the multipart upload of s3://${bucket}/${key} (list leftovers with "barge abort-uploads")`,
      );
  }
}

/** One AbortMultipartUpload, no retry of its own: for a caller whose loop retries (a job's request). */
export async function abortUploadOnce(
  connection: S3Connection,
  upload: { readonly bucket: string; readonly key: string; readonly uploadId: string },
  signal?: AbortSignal,
): Promise<void> {
  await connection.client.send(
    new AbortMultipartUploadCommand({ Bucket: upload.bucket, Key: upload.key, UploadId: upload.uploadId }),
    signal ? { abortSignal: signal } : {},
  );
}
