// Bulk delete: explicit keys or whole prefixes, 1,000 keys per DeleteObjects, batches in parallel.
//
// A prefix is deleted as it is listed (never collected first), so deleting ten million keys starts
// at once and runs in constant memory. DeleteObjects answers 200 even when some keys failed; its
// per-key errors are the truth, and every one reaches the job's item errors. A dry run lists and
// counts but sends no delete.
//
// Emptying a bucket to delete it ("empty and delete") is this job over the whole bucket, every
// version and delete marker, then its unfinished multipart uploads aborted, then the bucket deleted:
// one job, with its progress, resumed and retried as any delete is. A retry lists the bucket again
// (what is left is what remains to delete), so objects written meanwhile go too.

import { asFolderPrefix } from '../../../src/s3-url.ts';
import { folderRoot, nameMatcher, objectMatcher, patternRoot } from '../../../src/object-filter.ts';
import { readablePartOf } from '../../../src/unreadable-key.ts';
import { concurrentEach } from '../queue/concurrent-each.ts';
import { BargeError, errorCode, toBargeError } from '../errors.ts';
import { plural } from '../../../src/plural.ts';
import { countedAgain } from './job.ts';
import { readAhead } from './read-ahead.ts';
import type { JobBody, JobRuntime } from './job.ts';
import {
  headObjectOnce,
  listAllObjects,
  listAllVersions,
  listMultipartUploads,
  listObjectsPage,
  unreadableKeyError,
} from '../s3/s3-listing.ts';
import type { MultipartUploadEntry } from '../s3/s3-listing.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { abortUploadOnce } from '../s3/multipart-aborts.ts';
import { bucketVersioning, deleteBucketOnce } from '../s3/s3-buckets.ts';
import type { Removal, VersioningSeen } from '../journal/job-journal.ts';
import { deleteObjectBatch } from '../s3/object-deletes.ts';
import type { DeleteSpec } from './job-specs.ts';
import type { ItemPlace } from '../../../src/jobs.ts';

export const MAX_KEYS_PER_DELETE = 1000;

export interface DeleteTarget {
  readonly key: string;
  readonly versionId?: string;
  /** Undefined for a key given by name (not looked up before deleting). */
  readonly size: number | undefined;
  /** Listed with a URL encoding that is broken (`key` is the text the store sent): it fails, by name. */
  readonly unreadable?: true;
}

export function deleteBody(connection: S3Connection, spec: DeleteSpec): JobBody<DeleteTarget> {
  return async (runtime, only) => {
    // Emptying a bucket lists it again on a retry: what is there now is what must go.
    const listed = only === undefined || spec.deleteBucket === true;
    // The listing runs ahead of the deletes (read-ahead.ts): its totals are known once it has ended.
    const targets = listed
      ? readAhead(discover(connection, spec, runtime), { signal: runtime.signal, whilePaused: runtime.whilePaused })
      : countedAgain(only, runtime, (target) => target.size);
    // After a crash, a prefix lists only what is left: what earlier runs deleted is counted from the
    // journal. (Named keys are simply deleted again: deleting a missing key succeeds.)
    const earlier = runtime.journal.resumed && !only && !spec.keys?.length ? runtime.journal.deletedCount() : 0;
    if (earlier > 0) {
      runtime.addTotals(earlier, 0);
      runtime.alreadyDone(earlier, 0);
    }
    const failures = { count: 0, verbose: false };
    if (spec.dryRun) {
      if (spec.keys?.length) await bucketThere(connection, spec.bucket, runtime);
      await concurrentEach(
        targets,
        () => runtime.settings.threads,
        (target) => countTarget(connection, spec.bucket, target, runtime),
      );
    } else {
      // In a bucket that keeps versions, each delete's marker is recorded: an undo removes exactly those.
      failures.verbose = (await versioningBefore(connection, spec.bucket, runtime)) !== 'off';
      await concurrentEach(
        batches(targets, MAX_KEYS_PER_DELETE),
        () => runtime.settings.threads,
        (batch) => deleteBatch(connection, spec.bucket, batch, runtime, failures),
      );
    }
    if (spec.dryRun || runtime.signal.aborted) return;
    if (spec.abortUploads) await abortUploads(connection, spec, runtime);
    // A bucket that still holds what could not be deleted stays: the job ends with those errors.
    if (spec.deleteBucket && failures.count === 0 && !runtime.stoppedByFailure)
      await deleteEmptiedBucket(connection, spec.bucket, runtime);
  };
}

/**
 * Delete these objects (a sync's extras, an undo's markers) as a delete job does: 1,000 keys a
 * DeleteObjects, batches in flight up to Threads, each key's refusal failing it by name. `verbose`:
 * the store lists each delete marker it makes, and the history records it. The number that failed.
 */
export async function deleteObjects(
  connection: S3Connection,
  bucket: string,
  targets: AsyncIterable<DeleteTarget> | Iterable<DeleteTarget>,
  runtime: JobRuntime<DeleteTarget>,
  options: { readonly verbose?: boolean } = {},
): Promise<number> {
  const failures = { count: 0, verbose: options.verbose ?? false };
  await concurrentEach(
    batches(targets, MAX_KEYS_PER_DELETE),
    () => runtime.settings.threads,
    (batch) => deleteBatch(connection, bucket, batch, runtime, failures),
  );
  return failures.count;
}

/**
 * Abort the multipart uploads begun below the job's prefixes and never finished: each holds parts
 * that are billed, and keeps the bucket from being deleted. Collected first (aborting while paging
 * through the same listing would shift its markers); an abort that fails fails the job, named.
 */
async function abortUploads(
  connection: S3Connection,
  spec: DeleteSpec,
  runtime: JobRuntime<DeleteTarget>,
): Promise<void> {
  const uploads: MultipartUploadEntry[] = [];
  for (const prefix of spec.prefixes ?? []) {
    for await (const upload of listMultipartUploads(connection, spec.bucket, asFolderPrefix(prefix), runtime.signal))
      uploads.push(upload);
  }
  const failed: { upload: MultipartUploadEntry; error: BargeError }[] = [];
  await concurrentEach(
    uploads,
    () => runtime.settings.threads,
    async (upload) => {
      try {
        await runtime.request((signal) =>
          abortUploadOnce(connection, { bucket: spec.bucket, key: upload.key, uploadId: upload.uploadId }, signal),
        );
      } catch (error) {
        // Gone already (completed, or aborted by someone else): nothing is left of it.
        if (errorCode(error) !== 'NoSuchUpload') failed.push({ upload, error: toBargeError(error) });
      }
    },
  );
  const first = failed[0];
  if (first) {
    const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
    throw new BargeError(
      first.error.code,
      `Cannot abort the unfinished upload of s3://${spec.bucket}/${first.upload.key}${more}: ${first.error.message}`,
    );
  }
}

async function deleteEmptiedBucket(
  connection: S3Connection,
  bucket: string,
  runtime: JobRuntime<DeleteTarget>,
): Promise<void> {
  try {
    await runtime.request((signal) => deleteBucketOnce(connection, bucket, signal));
  } catch (error) {
    if (errorCode(error) === 'BucketNotEmpty') {
      throw new BargeError(
        'BucketNotEmpty',
        `The bucket ${bucket} was emptied, but holds objects again (written while it was emptied): retry to ` +
          `empty it again and delete it.`,
      );
    }
    throw toBargeError(error, `delete bucket "${bucket}"`);
  }
}

async function* discover(
  connection: S3Connection,
  spec: DeleteSpec,
  runtime: JobRuntime<DeleteTarget>,
): AsyncGenerator<DeleteTarget> {
  for (const [index, key] of (spec.keys ?? []).entries()) {
    if (spec.allVersions) {
      for await (const version of listAllVersions(connection, {
        bucket: spec.bucket,
        prefix: key,
        signal: runtime.signal,
      })) {
        if (version.key !== key) continue;
        runtime.addTotals(1, version.size);
        yield { key, versionId: version.versionId, size: version.size };
      }
    } else {
      const size = spec.keySizes?.[index];
      runtime.addTotals(1, size ?? 0);
      yield { key, size };
    }
  }
  // Prefixes are folders; patterns list the literal part before their first wildcard. Only what the
  // filter keeps is counted or deleted (a named key is taken as named).
  const roots = [
    ...(spec.prefixes ?? []).map((prefix) => folderRoot(asFolderPrefix(prefix))),
    ...(spec.patterns ?? []).map(patternRoot),
  ];
  for (const root of roots) {
    const matches = objectMatcher(spec.filter, root.base, root.pattern);
    const named = nameMatcher(spec.filter, root.base, root.pattern);
    const listing = spec.allVersions
      ? listAllVersions(connection, { bucket: spec.bucket, prefix: root.listPrefix, signal: runtime.signal })
      : listAllObjects(connection, { bucket: spec.bucket, prefix: root.listPrefix, signal: runtime.signal });
    for await (const entry of listing) {
      // A key no request can name fails by name, unless its name alone is left out (its size and date are unknown).
      if (entry.unreadable ? !named(readablePartOf(entry.key)) : !matches(entry)) continue;
      runtime.addTotals(1, entry.size);
      yield {
        key: entry.key,
        versionId: 'versionId' in entry ? entry.versionId : undefined,
        size: entry.size,
        ...(entry.unreadable ? { unreadable: true } : {}),
      };
    }
  }
  runtime.totalsFinal();
}

async function* batches<T>(items: AsyncIterable<T> | Iterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function deleteBatch(
  connection: S3Connection,
  bucket: string,
  listed: readonly DeleteTarget[],
  runtime: JobRuntime<DeleteTarget>,
  failures: { count: number; readonly verbose: boolean },
): Promise<void> {
  const batch = listed.filter((target) => !target.unreadable || !failUnreadable(bucket, target, runtime, failures));
  if (batch.length === 0) return;
  let result;
  try {
    const quiet = !failures.verbose;
    result = await runtime.request((signal) => deleteObjectBatch(connection, bucket, batch, signal, { quiet }));
  } catch (error) {
    const failure = toBargeError(error, `delete ${plural(batch.length, 'object')} from s3://${bucket}`);
    failures.count += batch.length;
    for (const target of batch) runtime.itemFailed(target, deletePlace(bucket, target), failure);
    return;
  }
  const failed = new Map<string, { code: string; message: string }>();
  for (const e of result.Errors ?? []) {
    failed.set(`${e.Key}\u0000${e.VersionId ?? ''}`, {
      code: e.Code ?? 'DeleteFailed',
      message: e.Message ?? 'The server refused to delete it.',
    });
  }
  const markers = new Map<string, string>();
  // With versioning suspended the marker's version ID is "null", which MinIO leaves out of its answer.
  for (const d of result.Deleted ?? [])
    if (d.DeleteMarker && !d.VersionId) markers.set(d.Key ?? '', d.DeleteMarkerVersionId || 'null');
  const removed: Removal[] = [];
  for (const target of batch) {
    const error =
      failed.get(`${target.key}\u0000${target.versionId ?? ''}`) ??
      (target.versionId ? undefined : failed.get(`${target.key}\u0000`));
    if (error) {
      // Shaped like the SDK's errors, so the code and advice are the ones every other failure gets
      // (an object lock's refusal, which stores word as InvalidRequest or AccessDenied, included).
      const refusal = Object.assign(new Error(error.message), { name: error.code });
      failures.count += 1;
      runtime.itemFailed(
        target,
        deletePlace(bucket, target),
        toBargeError(refusal, `delete ${describe(bucket, target)}`),
      );
    } else {
      if (target.size) runtime.addBytes(target.size);
      runtime.objectDone(deletePlace(bucket, target));
      const marker = target.versionId === undefined ? markers.get(target.key) : undefined;
      removed.push({
        key: target.key,
        ...(target.versionId === undefined ? {} : { versionId: target.versionId }),
        ...(marker === undefined ? {} : { markerVersionId: marker }),
        ...(target.size === undefined ? {} : { size: target.size }),
      });
    }
  }
  runtime.journal.deleteBatchFinished(removed.length, removed);
}

/**
 * The bucket's versioning as the delete begins, recorded for its history and its undo. A store that
 * will not say (no permission, no such request) is taken to keep versions: each delete then lists
 * what it did, which costs a little more reading and loses nothing.
 */
async function versioningBefore(
  connection: S3Connection,
  bucket: string,
  runtime: JobRuntime<DeleteTarget>,
): Promise<VersioningSeen | undefined> {
  try {
    const state = await bucketVersioning(connection, bucket, runtime.signal);
    runtime.journal.versioningSeen(state);
    return state;
  } catch {
    return undefined;
  }
}

/** A key no request can name (its listed URL encoding is broken) fails as an item; true once it has. */
function failUnreadable(
  bucket: string,
  target: DeleteTarget,
  runtime: JobRuntime<DeleteTarget>,
  failures: { count: number },
): boolean {
  failures.count += 1;
  runtime.itemFailed(target, deletePlace(bucket, target), unreadableKeyError(bucket, target.key, 'deleted'));
  return true;
}

async function countTarget(
  connection: S3Connection,
  bucket: string,
  target: DeleteTarget,
  runtime: JobRuntime<DeleteTarget>,
): Promise<void> {
  if (target.unreadable) {
    failUnreadable(bucket, target, runtime, { count: 0 });
    return;
  }
  try {
    const size =
      target.size ?? (await runtime.request((signal) => headObjectOnce(connection, bucket, target.key, signal))).size;
    if (target.size === undefined) runtime.addTotals(0, size);
    runtime.addBytes(size);
    runtime.objectDone(deletePlace(bucket, { ...target, size }));
  } catch (error) {
    // A key named that is not there: S3's delete of it succeeds, so the real run counts it deleted and the dry run
    // says it would be, and why there is nothing to delete.
    if (target.size === undefined && target.versionId === undefined && NOT_THERE.has(errorCode(error))) {
      runtime.objectDone(deletePlace(bucket, target), NOT_FOUND_NOTE);
      return;
    }
    runtime.itemFailed(target, deletePlace(bucket, target), toBargeError(error, `look up ${describe(bucket, target)}`));
  }
}

/**
 * A dry run's named keys are looked up by HEAD, and a HEAD has no body: a missing bucket answers it
 * 404 NotFound just as a missing key does, so every key would be "not found" and the dry run would
 * promise deletes that fail. One listing of one key asks the bucket itself first.
 */
async function bucketThere(connection: S3Connection, bucket: string, runtime: JobRuntime<DeleteTarget>) {
  try {
    await runtime.request((signal) => listObjectsPage(connection, { bucket, pageSize: 1, signal, retry: false }));
  } catch (error) {
    if (errorCode(error) !== 'NoSuchBucket') throw toBargeError(error, `list s3://${bucket}/`);
    throw new BargeError(
      'NoSuchBucket',
      `The bucket ${bucket} does not exist (check its name and the endpoint): nothing would be deleted.`,
    );
  }
}

/** A HEAD's answers for a key that is not there (a HEAD has no body: most stores say NotFound). */
const NOT_THERE: ReadonlySet<string> = new Set(['NotFound', 'NoSuchKey']);
const NOT_FOUND_NOTE = 'not found: its delete succeeds, with nothing to delete';

/** A deleted object as the job's details list it: where it was, and nowhere now. */
function deletePlace(bucket: string, target: DeleteTarget): ItemPlace {
  return {
    source: describe(bucket, target),
    destination: '',
    ...(target.size === undefined ? {} : { size: target.size }),
  };
}

function describe(bucket: string, target: DeleteTarget): string {
  return `s3://${bucket}/${target.key}${target.versionId ? ` (version ${target.versionId})` : ''}`;
}
