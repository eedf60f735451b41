// Bulk delete: explicit keys or whole prefixes, 1,000 keys per DeleteObjects, batches in parallel.
//
// A prefix is deleted as it is listed (never collected first), so deleting ten million keys starts
// at once and runs in constant memory. DeleteObjects answers 200 even when some keys failed; its
// per-key errors are the truth, and every one reaches the job's item errors. A dry run lists and
// counts but sends no delete.

import { DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { asFolderPrefix } from '../../../src/s3-url.ts';
import { concurrentEach } from '../queue/concurrent-each.ts';
import { toBargeError } from '../errors.ts';
import { countedAgain } from './job.ts';
import type { JobBody, JobRuntime } from './job.ts';
import { headObjectOnce, listAllObjects, listAllVersions } from '../s3/s3-listing.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import type { DeleteSpec } from './job-specs.ts';
import type { ItemPlace } from '../../../src/jobs.ts';

export const MAX_KEYS_PER_DELETE = 1000;

export interface DeleteTarget {
  readonly key: string;
  readonly versionId?: string;
  /** Undefined for a key given by name (not looked up before deleting). */
  readonly size: number | undefined;
}

export function deleteBody(connection: S3Connection, spec: DeleteSpec): JobBody<DeleteTarget> {
  return async (runtime, only) => {
    const targets = only ? countedAgain(only, runtime, (target) => target.size) : discover(connection, spec, runtime);
    // After a crash, a prefix lists only what is left: what earlier runs deleted is counted from the
    // journal. (Named keys are simply deleted again: deleting a missing key succeeds.)
    const earlier = runtime.journal.resumed && !only && !spec.keys?.length ? runtime.journal.deletedCount() : 0;
    if (earlier > 0) {
      runtime.addTotals(earlier, 0);
      runtime.alreadyDone(earlier, 0);
    }
    if (spec.dryRun) {
      await concurrentEach(targets, () => runtime.settings.threads, (target) => countTarget(connection, spec.bucket, target, runtime));
    } else {
      await concurrentEach(batches(targets, MAX_KEYS_PER_DELETE), () => runtime.settings.threads, (batch) => deleteBatch(connection, spec.bucket, batch, runtime));
    }
    if (!only) runtime.totalsFinal();
  };
}

async function* discover(connection: S3Connection, spec: DeleteSpec, runtime: JobRuntime<DeleteTarget>): AsyncGenerator<DeleteTarget> {
  for (const [index, key] of (spec.keys ?? []).entries()) {
    if (spec.allVersions) {
      for await (const version of listAllVersions(connection, { bucket: spec.bucket, prefix: key, signal: runtime.signal })) {
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
  for (const rawPrefix of spec.prefixes ?? []) {
    const prefix = asFolderPrefix(rawPrefix);
    const listing = spec.allVersions
      ? listAllVersions(connection, { bucket: spec.bucket, prefix, signal: runtime.signal })
      : listAllObjects(connection, { bucket: spec.bucket, prefix, signal: runtime.signal });
    for await (const entry of listing) {
      runtime.addTotals(1, entry.size);
      yield { key: entry.key, versionId: 'versionId' in entry ? entry.versionId : undefined, size: entry.size };
    }
  }
}

async function* batches<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
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

async function deleteBatch(connection: S3Connection, bucket: string, batch: readonly DeleteTarget[], runtime: JobRuntime<DeleteTarget>): Promise<void> {
  let result;
  try {
    result = await runtime.request((signal) => connection.client.send(new DeleteObjectsCommand({
      Bucket: bucket,
      Delete: { Objects: batch.map((t) => ({ Key: t.key, VersionId: t.versionId })), Quiet: true },
    }), { abortSignal: signal }));
  } catch (error) {
    const failure = toBargeError(error, `delete ${batch.length} objects from s3://${bucket}`);
    for (const target of batch) runtime.itemFailed(target, deletePlace(bucket, target), failure);
    return;
  }
  const failed = new Map<string, { code: string; message: string }>();
  for (const e of result.Errors ?? []) {
    failed.set(`${e.Key}\u0000${e.VersionId ?? ''}`, { code: e.Code ?? 'DeleteFailed', message: e.Message ?? 'The server refused to delete it.' });
  }
  let deleted = 0;
  for (const target of batch) {
    const error = failed.get(`${target.key}\u0000${target.versionId ?? ''}`) ?? (target.versionId ? undefined : failed.get(`${target.key}\u0000`));
    if (error) {
      // Shaped like the SDK's errors, so the code and advice are the ones every other failure gets
      // (an object lock's refusal, which stores word as InvalidRequest or AccessDenied, included).
      const refusal = Object.assign(new Error(error.message), { name: error.code });
      runtime.itemFailed(target, deletePlace(bucket, target), toBargeError(refusal, `delete ${describe(bucket, target)}`));
    } else {
      if (target.size) runtime.addBytes(target.size);
      runtime.objectDone(deletePlace(bucket, target));
      deleted += 1;
    }
  }
  runtime.journal.deleteBatchFinished(deleted);
}

async function countTarget(connection: S3Connection, bucket: string, target: DeleteTarget, runtime: JobRuntime<DeleteTarget>): Promise<void> {
  try {
    const size = target.size ?? (await runtime.request((signal) => headObjectOnce(connection, bucket, target.key, signal))).size;
    if (target.size === undefined) runtime.addTotals(0, size);
    runtime.addBytes(size);
    runtime.objectDone(deletePlace(bucket, { ...target, size }));
  } catch (error) {
    runtime.itemFailed(target, deletePlace(bucket, target), toBargeError(error, `look up ${describe(bucket, target)}`));
  }
}

/** A deleted object as the job's details list it: where it was, and nowhere now. */
function deletePlace(bucket: string, target: DeleteTarget): ItemPlace {
  return { source: describe(bucket, target), destination: '', ...(target.size === undefined ? {} : { size: target.size }) };
}

function describe(bucket: string, target: DeleteTarget): string {
  return `s3://${bucket}/${target.key}${target.versionId ? ` (version ${target.versionId})` : ''}`;
}
