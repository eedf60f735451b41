// Buckets and leftovers: create, delete, and clean up incomplete multipart uploads.

import {
  CreateBucketCommand,
  DeleteBucketCommand,
  GetBucketVersioningCommand,
  PutBucketVersioningCommand,
} from '@aws-sdk/client-s3';
import type { BucketVersioning } from '../../../src/contract/models.ts';
import type { BucketLocationConstraint } from '@aws-sdk/client-s3';
import { bucketNameProblem } from '../../../src/s3-names.ts';
import { BargeError, toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { listMultipartUploads } from './s3-listing.ts';
import type { MultipartUploadEntry } from './s3-listing.ts';
import { abortMultipartUpload } from './multipart-aborts.ts';
import type { S3Connection } from './s3-connection.ts';

export async function createBucket(connection: S3Connection, name: string): Promise<void> {
  const problem = bucketNameProblem(name);
  if (problem) throw new BargeError('InvalidBucketName', `"${name}" is not a valid bucket name: it ${problem}.`);
  // Made in the connection's region (never one learnt for another bucket).
  const region = connection.regions.defaultRegion;
  // us-east-1 is the one region that must not be named as a location constraint. Any other is named,
  // on every store, as aws-cli does (the SDK would add it anyway): a store whose own region differs
  // refuses it, rather than make the bucket somewhere else than asked.
  const location = region !== 'us-east-1' ? { LocationConstraint: region as BucketLocationConstraint } : undefined;
  try {
    await withRetry(() =>
      connection.client.send(new CreateBucketCommand({ Bucket: name, CreateBucketConfiguration: location })),
    );
    connection.regions.learn(name, region);
  } catch (error) {
    throw toBargeError(error, `create bucket "${name}"`);
  }
}

export async function deleteBucket(connection: S3Connection, name: string): Promise<void> {
  try {
    await withRetry(() => deleteBucketOnce(connection, name));
  } catch (error) {
    throw toBargeError(error, `delete bucket "${name}"`);
  }
}

/** One DeleteBucket, no retry of its own: for a caller whose loop retries (a job's request). */
export async function deleteBucketOnce(connection: S3Connection, name: string, signal?: AbortSignal): Promise<void> {
  await connection.client.send(new DeleteBucketCommand({ Bucket: name }), signal ? { abortSignal: signal } : {});
}

/**
 * Whether the bucket keeps versions: a delete there hides an object behind a marker and keeps its
 * versions ("enabled"), keeps those made before ("suspended"), or removes it for good ("off").
 * `signal`: a job's cancel, which must not wait out the retries of a store that does not answer.
 */
export async function bucketVersioning(
  connection: S3Connection,
  name: string,
  signal?: AbortSignal,
): Promise<BucketVersioning> {
  try {
    const command = new GetBucketVersioningCommand({ Bucket: name });
    const answer = await withRetry(() => connection.client.send(command, { abortSignal: signal }), { signal });
    return answer.Status === 'Enabled' ? 'enabled' : answer.Status === 'Suspended' ? 'suspended' : 'off';
  } catch (error) {
    throw toBargeError(error, `read the versioning of bucket "${name}"`);
  }
}

/** Turn a bucket's versioning on, or suspend it; then read it back (a store may not take the change). */
export async function setBucketVersioning(
  connection: S3Connection,
  name: string,
  status: 'enabled' | 'suspended',
): Promise<BucketVersioning> {
  try {
    await withRetry(() =>
      connection.client.send(
        new PutBucketVersioningCommand({
          Bucket: name,
          VersioningConfiguration: { Status: status === 'enabled' ? 'Enabled' : 'Suspended' },
        }),
      ),
    );
  } catch (error) {
    throw toBargeError(error, `${status === 'enabled' ? 'turn on' : 'suspend'} the versioning of bucket "${name}"`);
  }
  return bucketVersioning(connection, name);
}

export interface AbortUploadsResult {
  readonly aborted: readonly MultipartUploadEntry[];
  /** Uploads left alone as younger than `olderThanMs` (or of unknown age). */
  readonly younger: number;
  readonly failed: readonly { readonly upload: MultipartUploadEntry; readonly error: BargeError }[];
}

/**
 * Abort every incomplete multipart upload below `prefix` (or only list them, with `dryRun`).
 * `olderThanMs`: only uploads begun at least this long ago (another process may be sending the newer
 * ones right now); an upload whose start the store does not say is left alone then.
 */
export async function abortIncompleteUploads(
  connection: S3Connection,
  bucket: string,
  prefix = '',
  dryRun = false,
  olderThanMs?: number,
  now = Date.now(),
): Promise<AbortUploadsResult> {
  const aborted: MultipartUploadEntry[] = [];
  const failed: { upload: MultipartUploadEntry; error: BargeError }[] = [];
  // Collected first: aborting while paging through the same listing would shift its markers.
  const uploads: MultipartUploadEntry[] = [];
  let younger = 0;
  for await (const upload of listMultipartUploads(connection, bucket, prefix)) {
    if (olderThanMs !== undefined && (upload.initiated === undefined || now - upload.initiated < olderThanMs)) {
      younger += 1;
      continue;
    }
    uploads.push(upload);
  }
  for (const upload of uploads) {
    if (dryRun) {
      aborted.push(upload);
      continue;
    }
    try {
      await abortMultipartUpload(connection, bucket, upload.key, upload.uploadId);
      aborted.push(upload);
    } catch (error) {
      failed.push({ upload, error: toBargeError(error) });
    }
  }
  return { aborted, failed, younger };
}
