// Copy or move objects within a store: each one copied by the store itself (s3/object-copy.ts).
//
// Named keys are copied as named; prefixes as they are listed, the listing running ahead of the
// copies (read-ahead.ts) so the totals are known early. Each object is verified (the store's checksum
// of the copy against the source's, or the ETag) before it counts as done; a move deletes its source
// only then, so a move stopped at any point has lost nothing: run again, it finds in the journal the
// objects already moved and goes on with the rest. An object already at the destination is replaced,
// kept, kept unless the source is newer, or failed, as asked (--if-exists).

import { asFolderPrefix } from '../../../src/s3-url.ts';
import { copyTargetKey } from '../../../src/copy-targets.ts';
import { isNewer } from '../../../src/if-exists.ts';
import type { ItemPlace } from '../../../src/jobs.ts';
import { VERIFICATION_LABELS } from '../../../src/verification.ts';
import { concurrentEach } from '../queue/concurrent-each.ts';
import { BargeError, errorCode, toBargeError } from '../errors.ts';
import { copyObject, describeCopySource } from '../s3/object-copy.ts';
import type { CopyRequests } from '../s3/object-copy.ts';
import { deleteObject } from '../s3/object-deletes.ts';
import { headObjectOnce, listAllObjects, unreadableKeyError } from '../s3/s3-listing.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { countedAgain } from './job.ts';
import type { JobBody, JobRuntime } from './job.ts';
import type { CopySpec } from './job-specs.ts';
import { readAhead } from './read-ahead.ts';

export interface CopyItem {
  readonly key: string;
  readonly target: string;
  /** Undefined for a key given by name (its HEAD says). */
  readonly size: number | undefined;
  readonly lastModified?: number;
  readonly unreadable?: true;
}

export function copyBody(connection: S3Connection, spec: CopySpec): JobBody<CopyItem> {
  return async (runtime, only) => {
    const items =
      only === undefined
        ? readAhead(discover(connection, spec, runtime), { signal: runtime.signal, whilePaused: runtime.whilePaused })
        : countedAgain(only, runtime, (item) => item.size);
    await concurrentEach(
      items,
      () => runtime.settings.threads,
      (item) => copyOne(connection, spec, item, runtime),
    );
  };
}

async function* discover(
  connection: S3Connection,
  spec: CopySpec,
  runtime: JobRuntime<CopyItem>,
): AsyncGenerator<CopyItem> {
  for (const key of spec.keys ?? []) {
    runtime.addTotals(1, 0);
    yield { key, target: copyTargetKey(spec, key), size: undefined };
  }
  for (const prefix of spec.prefixes ?? []) {
    const listing = listAllObjects(connection, {
      bucket: spec.sourceBucket,
      prefix: asFolderPrefix(prefix),
      signal: runtime.signal,
    });
    for await (const entry of listing) {
      runtime.addTotals(1, entry.size);
      yield {
        key: entry.key,
        target: copyTargetKey(spec, entry.key, prefix),
        size: entry.size,
        ...(entry.lastModified === undefined ? {} : { lastModified: entry.lastModified }),
        ...(entry.unreadable ? { unreadable: true } : {}),
      };
    }
  }
  runtime.totalsFinal();
}

async function copyOne(
  connection: S3Connection,
  spec: CopySpec,
  item: CopyItem,
  runtime: JobRuntime<CopyItem>,
): Promise<void> {
  const where = place(spec, item);
  if (item.unreadable) {
    runtime.itemFailed(item, where, unreadableKeyError(spec.sourceBucket, item.key, spec.move ? 'moved' : 'copied'));
    return;
  }
  const done = runtime.journal.finishedObject(item.key);
  if (done && done.path === item.target) {
    runtime.alreadyDone(1, done.size, where);
    return;
  }
  const requests: CopyRequests = {
    request: (send) => runtime.request((signal) => send(signal)),
    partsInFlight: () => runtime.settings.threads,
    partSizeBytes: runtime.settings.partSizeBytes,
    multipartThresholdBytes: spec.partCopyAboveBytes,
  };
  try {
    const source = await describeCopySource(connection, { bucket: spec.sourceBucket, key: item.key }, requests);
    if (item.size === undefined) runtime.addTotals(0, source.size);
    const keep = await keptBecauseThere(connection, spec, item, source.head.LastModified?.getTime(), runtime);
    if (keep) {
      runtime.kept({ ...where, size: source.size }, keep);
      return;
    }
    const copied = await copyObject(connection, source, { bucket: spec.bucket, key: item.target }, requests);
    if (spec.move)
      await runtime.request((signal) => deleteObject(connection, { bucket: spec.sourceBucket, key: item.key }, signal));
    runtime.addBytes(copied.size);
    runtime.journal.objectFinished({
      key: item.key,
      path: item.target,
      size: copied.size,
      etag: copied.etag,
      verified: copied.verification,
    });
    runtime.objectDone({ ...where, size: copied.size }, VERIFICATION_LABELS[copied.verification]);
    if (copied.verification === 'size-only')
      runtime.sizeOnly(
        where.destination,
        'the store gave no checksum or MD5 ETag of the source to compare the copy with',
      );
  } catch (error) {
    runtime.itemFailed(item, where, toBargeError(error, `${spec.move ? 'move' : 'copy'} ${where.source}`));
  }
}

/** Why the object at the destination stays (--if-exists skip, newer, fail), or undefined to copy over it. */
async function keptBecauseThere(
  connection: S3Connection,
  spec: CopySpec,
  item: CopyItem,
  sourceModified: number | undefined,
  runtime: JobRuntime<CopyItem>,
): Promise<string | undefined> {
  const ifExists = spec.ifExists ?? 'overwrite';
  if (ifExists === 'overwrite') return undefined;
  let present;
  try {
    present = await runtime.request((signal) => headObjectOnce(connection, spec.bucket, item.target, signal));
  } catch (error) {
    if (['NoSuchKey', 'NotFound'].includes(errorCode(error) ?? '')) return undefined;
    throw error;
  }
  const there = `s3://${spec.bucket}/${item.target}`;
  if (ifExists === 'fail')
    throw new BargeError('ObjectExists', `${there} is already there: it was kept. Choose what to do with --if-exists.`);
  if (ifExists === 'newer' && isNewer(sourceModified, present.lastModified)) return undefined;
  return ifExists === 'newer' ? `${there} is as new as the source: kept` : `${there} is already there: kept`;
}

function place(spec: CopySpec, item: CopyItem): ItemPlace {
  return {
    source: `s3://${spec.sourceBucket}/${item.key}`,
    destination: `s3://${spec.bucket}/${item.target}`,
    ...(item.size === undefined ? {} : { size: item.size }),
  };
}

/**
 * The copying of objects chosen elsewhere, as they come (a sync's new and changed ones): each as a
 * copy job copies it (verified, journaled), with the job's threads. The chooser counts the totals.
 */
export function copyChosenBody(
  connection: S3Connection,
  spec: CopySpec,
  chosen: () => AsyncIterable<CopyItem>,
): JobBody<CopyItem> {
  return async (runtime) => {
    await concurrentEach(
      chosen(),
      () => runtime.settings.threads,
      (item) => copyOne(connection, spec, item, runtime),
    );
  };
}
