// Copy or move objects within a store: each one copied by the store itself (s3/object-copy.ts); or
// from another connection's store, each one's bytes streamed through the engine (s3/streamed-copy.ts).
//
// Named keys are copied as named; prefixes and wildcard patterns as they are listed, keeping what the
// pattern and the filter select, the listing running ahead of the copies (read-ahead.ts) so the totals
// are known early; a pattern (or a filtered prefix) that matches nothing fails by name. Each object is
// verified (the store's checksum of the copy against the source's, or the ETag) before it counts as
// done; a move deletes its source only then, so a move stopped at any point has lost nothing: run
// again, it finds in the journal the objects already moved and goes on with the rest. An object already
// at the destination is replaced, kept, kept unless the source is newer, or failed, as asked
// (--if-exists). A copy in parts records its upload and each part done, so a run stopped half-way
// through a large object goes on from the part it reached, not from the first.

import { asFolderPrefix } from '../../../src/s3-url.ts';
import { copyTargetKey, patternTargetKey } from '../../../src/copy-targets.ts';
import {
  folderRoot,
  isFiltering,
  nameMatcher,
  nothingMatched,
  objectMatcher,
  patternRoot,
} from '../../../src/object-filter.ts';
import { readablePartOf } from '../../../src/unreadable-key.ts';
import { isNewer } from '../../../src/if-exists.ts';
import type { ItemPlace } from '../../../src/jobs.ts';
import { VERIFICATION_LABELS } from '../../../src/verification.ts';
import { concurrentEach } from '../queue/concurrent-each.ts';
import { BargeError, errorCode, toBargeError } from '../errors.ts';
import { copyObject, describeCopySource } from '../s3/object-copy.ts';
import { explainVersionFailure } from '../s3/version-actions.ts';
import type { CopyOutcome, CopyRequests, CopySource, PartProgress } from '../s3/object-copy.ts';
import { streamCopyObject } from '../s3/streamed-copy.ts';
import { abortMultipartUpload } from '../s3/multipart-aborts.ts';
import type { JobJournal } from '../journal/job-journal.ts';
import { deleteObject } from '../s3/object-deletes.ts';
import { headObjectOnce, listAllObjects, unreadableKeyError } from '../s3/s3-listing.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { isFromSource, onSource } from '../s3/source-side.ts';
import { redactedUrl } from '../../../src/connection.ts';
import { countedAgain } from './job.ts';
import type { JobBody, JobRuntime } from './job.ts';
import type { CopySpec } from './job-specs.ts';
import { readAhead } from './read-ahead.ts';
import { nothingBelow } from './nothing-below.ts';
import { SpillingMap } from './spilling-map.ts';
import { PartSlots, STREAMED_COPY_MEMORY_BYTES } from '../queue/part-slots.ts';
import { checkSourceBeforeDelete } from './move-guard.ts';

export interface CopyItem {
  readonly key: string;
  readonly target: string;
  /** Undefined for a key given by name (its HEAD says). */
  readonly size: number | undefined;
  readonly lastModified?: number;
  readonly unreadable?: true;
  /**
   * Why the item fails without a request: a pattern or folder that matched nothing (NothingFound), or
   * another source of the job that lands on this target first (NameCollision). Plain data: items may
   * wait on disk.
   */
  readonly refused?: { readonly code: 'NothingFound' | 'NameCollision'; readonly message: string };
}

/** The connection a journal reference names (a copy's source on another connection). */
export type ConnectionLookup = (connectionRef: string) => Promise<S3Connection>;

/** The two ends of a copy: where the sources are read, and where the copies go (the same within a store). */
interface CopyEnds {
  readonly from: S3Connection;
  readonly to: S3Connection;
  /** The part bytes the job holds in memory at once, across its objects (a copy between connections). */
  readonly partSlots: PartSlots;
}

export function copyBody(connection: S3Connection, spec: CopySpec, others?: ConnectionLookup): JobBody<CopyItem> {
  return async (runtime, only) => {
    const ref = spec.sourceConnectionRef;
    if (ref !== undefined && others === undefined)
      throw new BargeError('InvalidRequest', 'This copy reads from another connection, and none was given for it.');
    const ends: CopyEnds = {
      from: ref === undefined ? connection : await others!(ref),
      to: connection,
      partSlots: partBudget(runtime),
    };
    const discovered = discover(ends.from, spec, runtime);
    const listed = ends.from === ends.to ? discovered : listedOnSource(discovered, ends.from, spec);
    const items =
      only === undefined
        ? readAhead(listed, { signal: runtime.signal, whilePaused: runtime.whilePaused })
        : countedAgain(only, runtime, (item) => item.size);
    await concurrentEach(
      items,
      () => runtime.settings.threads,
      (item) => copyOne(ends, spec, item, runtime),
    );
  };
}

async function* discover(
  connection: S3Connection,
  spec: CopySpec,
  runtime: JobRuntime<CopyItem>,
): AsyncGenerator<CopyItem> {
  const done = spec.move ? 'moved' : 'copied';
  const claims = new TargetClaims(spec);
  try {
    for (const key of spec.keys ?? []) {
      const target = copyTargetKey(spec, key);
      const owner = claims.claim(key, target);
      if (owner === key) continue;
      runtime.addTotals(1, 0);
      yield { key, target, size: undefined, ...(owner ? { refused: collision(spec, key, target, owner) } : {}) };
    }
    // A prefix's objects keep its folder's name; a pattern's land by their key below its folder (copy-targets.ts).
    const roots = [
      ...(spec.prefixes ?? []).map((named) => ({
        named,
        ...folderRoot(asFolderPrefix(named)),
        targetOf: (key: string) => copyTargetKey(spec, key, named),
      })),
      ...(spec.patterns ?? []).map((named) => ({
        named,
        ...patternRoot(named),
        targetOf: (key: string) => patternTargetKey(spec, key, named),
      })),
    ];
    for (const { named, listPrefix, base, pattern, targetOf } of roots) {
      const matches = objectMatcher(spec.filter, base, pattern);
      const keepsName = nameMatcher(spec.filter, base, pattern);
      let found = 0;
      const listing = listAllObjects(connection, {
        bucket: spec.sourceBucket,
        prefix: listPrefix,
        signal: runtime.signal,
      });
      for await (const entry of listing) {
        // A key no request can name fails by name, unless its name alone leaves it out (its size and date are unknown).
        if (entry.unreadable ? !keepsName(readablePartOf(entry.key)) : !matches(entry)) continue;
        found += 1;
        const target = targetOf(entry.key);
        const owner = entry.unreadable ? undefined : claims.claim(entry.key, target);
        // Matched by an earlier source too (two overlapping patterns): copied once.
        if (owner === entry.key) continue;
        runtime.addTotals(1, entry.size);
        yield {
          key: entry.key,
          target,
          size: entry.size,
          ...(entry.lastModified === undefined ? {} : { lastModified: entry.lastModified }),
          ...(entry.unreadable ? { unreadable: true } : {}),
          ...(owner ? { refused: collision(spec, entry.key, target, owner) } : {}),
        };
      }
      // A pattern, a filtered folder or a folder that held nothing is said (its item fails): a mistyped
      // name must not end as "0 of 0" and success.
      if (found === 0) {
        runtime.addTotals(1, 0);
        const verb = spec.move ? 'mv' : 'cp';
        const nothing =
          pattern !== undefined || isFiltering(spec.filter)
            ? nothingMatched(spec.sourceBucket, named, pattern === undefined, spec.filter, done)
            : await nothingBelow(
                connection,
                { bucket: spec.sourceBucket, named, prefix: listPrefix },
                (url) => `${spec.move ? 'move' : 'copy'} it without --recursive (barge ${verb} "${url}" DESTINATION)`,
                runtime.signal,
              );
        yield { key: named, target: spec.destination, size: 0, refused: { code: 'NothingFound', message: nothing } };
      }
    }
    runtime.totalsFinal();
  } finally {
    claims.close();
  }
}

/**
 * The destination keys a job's sources have taken. Two sources must never land on one key (keys "a/x"
 * and "b/x", or two patterns' matches, into one folder): the second copy would replace the first, and a
 * move would then have deleted the first's source. The first keeps the key. Only a job naming several
 * sources can meet itself; kept on disk past 100,000 keys (spilling-map.ts).
 */
class TargetClaims {
  private readonly owners: SpillingMap<string> | undefined;

  constructor(spec: CopySpec) {
    const sources = (spec.keys?.length ?? 0) + (spec.prefixes?.length ?? 0) + (spec.patterns?.length ?? 0);
    this.owners = sources > 1 ? new SpillingMap<string>() : undefined;
  }

  /** Take `target` for `key`: undefined when it is free, else the key that took it (`key` itself: named twice). */
  claim(key: string, target: string): string | undefined {
    const owner = this.owners?.get(target);
    if (owner === undefined) this.owners?.set(target, key);
    return owner;
  }

  close(): void {
    this.owners?.close();
  }
}

function collision(spec: CopySpec, key: string, target: string, owner: string): CopyItem['refused'] {
  const source = (name: string) => `s3://${spec.sourceBucket}/${name}`;
  const message =
    `${source(key)} would land on s3://${spec.bucket}/${target}, where ${source(owner)} goes: it was not ` +
    `${spec.move ? 'moved. Move' : 'copied. Copy'} them into separate folders.`;
  return { code: 'NameCollision', message };
}

async function copyOne(ends: CopyEnds, spec: CopySpec, item: CopyItem, runtime: JobRuntime<CopyItem>): Promise<void> {
  const where = place(spec, item);
  if (item.refused !== undefined) {
    runtime.itemFailed(item, where, new BargeError(item.refused.code, item.refused.message));
    return;
  }
  if (item.unreadable) {
    runtime.itemFailed(item, where, unreadableKeyError(spec.sourceBucket, item.key, spec.move ? 'moved' : 'copied'));
    return;
  }
  const done = runtime.journal.finishedObject(item.key);
  if (done && done.path === item.target) {
    runtime.alreadyDone(1, done.size, where);
    return;
  }
  const { from, to } = ends;
  const requests: CopyRequests = {
    request: (send) => runtime.request((signal) => send(signal)),
    partsInFlight: () => runtime.settings.threads,
    partSizeBytes: runtime.settings.partSizeBytes,
    multipartThresholdBytes: spec.partCopyAboveBytes,
    partSlots: ends.partSlots,
  };
  try {
    const version = spec.sourceVersionId === undefined ? {} : { versionId: spec.sourceVersionId };
    const described = describeCopySource(from, { bucket: spec.sourceBucket, key: item.key, ...version }, requests);
    const source = spec.sourceVersionId === undefined ? await onSource(described) : await versionSource(from, spec);
    async function versionSource(on: S3Connection, { sourceBucket, sourceVersionId }: CopySpec) {
      const place = { bucket: sourceBucket, key: item.key, versionId: sourceVersionId! };
      const looked = await described.catch(async (error: unknown) => {
        throw await explainVersionFailure(on, place, error, runtime.signal);
      });
      // Named even when it is "null": the latest is not the version asked for.
      return { ...looked, versionId: sourceVersionId, versionPinned: true };
    }
    if (item.size === undefined) runtime.addTotals(0, source.size);
    const keep = await keptBecauseThere(to, spec, item, source.head.LastModified?.getTime(), runtime);
    if (keep) {
      runtime.kept({ ...where, size: source.size }, keep);
      return;
    }
    const target = { bucket: spec.bucket, key: item.target };
    // Only an object that may go in parts has an upload to record (one lookup in the journal each).
    const inParts = source.size > Math.min(runtime.settings.partSizeBytes, spec.partCopyAboveBytes ?? Infinity);
    const recorded = inParts
      ? { ...requests, progress: await partProgress(to, spec, item, source, runtime.journal) }
      : requests;
    const copied =
      from === to
        ? await copyObject(to, source, target, recorded).catch((error: unknown) => {
            // A store that copies no object itself (NotImplemented): the bytes go through here instead.
            // (Not for a version: a streamed copy reads the latest.)
            if (errorCode(error) !== 'NotImplemented' || spec.sourceVersionId !== undefined) throw error;
            return streamCopyObject(from, source, to, target, recorded);
          })
        : await streamCopyObject(from, source, to, target, recorded);
    // Between connections, a source is deleted only where the bytes read were proved its own, and it is
    // looked at again first: the two may be one store (move-guard.ts).
    if (spec.move && from !== to) {
      if (copied.verification === 'size-only') throw unprovenMove(where, copied);
      await checkSourceBeforeDelete(from, source, to, target, (send) => runtime.request(send));
    }
    if (spec.move)
      await onSource(
        runtime.request((signal) => deleteObject(from, { bucket: spec.sourceBucket, key: item.key }, signal)),
      );
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
    const failure = toBargeError(error, `${spec.move ? 'move' : 'copy'} ${where.source}`);
    runtime.itemFailed(item, where, from === to ? failure : saidOfItsStore(error, failure, ends));
  }
}

/**
 * The sources' listing on another connection. What it throws (a bucket missing, keys refused) fails the
 * job as a whole: said to be the source's, as an object's read is, so the right credentials get fixed.
 */
async function* listedOnSource(
  items: AsyncGenerator<CopyItem>,
  from: S3Connection,
  spec: CopySpec,
): AsyncGenerator<CopyItem> {
  try {
    yield* items;
  } catch (error) {
    throw saidOf('source', toBargeError(error, `list s3://${spec.sourceBucket}`), from);
  }
}

/**
 * A failure in a copy between two connections, said to be its store's (the two may name alike
 * buckets): the source's reads are marked (source-side.ts); any other store's failure is the
 * destination's. The job's own verdicts (kept, already there) say their places themselves.
 */
function saidOfItsStore(error: unknown, failure: BargeError, ends: CopyEnds): BargeError {
  if (isFromSource(error)) return saidOf('source', failure, ends.from);
  return error instanceof BargeError ? failure : saidOf('destination', failure, ends.to);
}

/** A failure of one store, in a copy between two: said to be that side's, and where that is. */
function saidOf(side: 'source' | 'destination', failure: BargeError, store: S3Connection): BargeError {
  const where = store.endpoint.endpoint === undefined ? 'AWS S3' : redactedUrl(store.endpoint.endpoint);
  return new BargeError(failure.code, `On the ${side} connection (${where}): ${failure.message}`, { cause: failure });
}

/**
 * The job's memory for parts in flight: threads parts of the part size, but never more than the
 * streamed copy's budget (however many threads, however large the parts grow: part-slots.ts).
 */
function partBudget(runtime: JobRuntime<CopyItem>): PartSlots {
  return new PartSlots(() =>
    Math.min(STREAMED_COPY_MEMORY_BYTES, runtime.settings.threads * runtime.settings.partSizeBytes),
  );
}

/** A move whose copy could not be checked against its source: the copy stays, the source too. */
function unprovenMove(where: ItemPlace, copied: CopyOutcome): BargeError {
  return new BargeError(
    'SourceKept',
    `${where.source} was copied to ${where.destination} (${copied.size} bytes) but kept, not deleted: ` +
      'its bytes could not be checked against it (it has no CRC, and its ETag could not be made again: ' +
      'the store does not tell its part sizes, or they differ). Check the copy, then delete the source yourself.',
  );
}

/**
 * The journal's record of this copy's multipart upload: an earlier run's, found again for the same
 * source (its address and ETag), is gone on from; one for another source (it changed since) is aborted.
 */
async function partProgress(
  to: S3Connection,
  spec: CopySpec,
  item: CopyItem,
  source: CopySource,
  journal: JobJournal,
): Promise<PartProgress> {
  const identity = `s3://${spec.sourceBucket}/${item.key} ${source.etag ?? ''}`;
  let record = journal.multipart(item.target);
  if (record && (record.path !== identity || record.size !== source.size)) {
    if (record.uploadId !== '') await abortMultipartUpload(to, spec.bucket, item.target, record.uploadId);
    journal.multipartEnded(item.target, record.uploadId);
    record = undefined;
  }
  const earlier =
    record && record.uploadId !== ''
      ? {
          uploadId: record.uploadId,
          partSize: record.partSize,
          ...(record.checksumAlgorithm ? { algorithm: record.checksumAlgorithm } : {}),
          parts: journal.parts(record.uploadId),
        }
      : undefined;
  return {
    earlier,
    begun: ({ uploadId, partSize, algorithm }) =>
      journal.multipartStarted(item.target, {
        uploadId,
        startedAt: Date.now(),
        path: identity,
        size: source.size,
        mtimeMs: source.head.LastModified?.getTime() ?? 0,
        partSize,
        ...(algorithm ? { checksumAlgorithm: algorithm } : {}),
      }),
    partDone: (uploadId, part) => journal.partFinished(uploadId, part),
    ended: (uploadId) => journal.multipartEnded(item.target, uploadId),
  };
}

/** Why the object at the destination stays (--if-exists skip, newer, fail), or undefined to copy over it. */
async function keptBecauseThere(
  connection: S3Connection,
  spec: CopySpec,
  item: CopyItem,
  sourceModified: number | undefined,
  runtime: JobRuntime<CopyItem>,
): Promise<string | undefined> {
  // A retry of items that failed for being there carries the user's answer (the window's Replace or Skip).
  const ifExists = runtime.retryAnswer ?? spec.ifExists ?? 'overwrite';
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
    throw new BargeError(
      'ObjectExists',
      `${there} is already there: it was kept. To replace it, retry the failed item and choose Replace ` +
        `(in the window), or copy again with --if-exists overwrite (or skip, or newer).`,
    );
  // Keep both has no second name for a copy: the object stays, said so rather than replaced.
  if (ifExists === 'rename')
    throw new BargeError(
      'ObjectExists',
      `${there} is already there: it was kept (a copy cannot keep both: replace or skip).`,
    );
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
    const ends: CopyEnds = {
      from: connection,
      to: connection,
      partSlots: partBudget(runtime),
    };
    await concurrentEach(
      chosen(),
      () => runtime.settings.threads,
      (item) => copyOne(ends, spec, item, runtime),
    );
  };
}
