// Restore a prefix to how it was at a moment, from the versions the bucket keeps.
//
// Key by key, from its versions (newest first), the version that was the latest at the moment:
// - nothing newer: the key is as it was; nothing to do;
// - only delete markers newer: they are removed, and the version below reads again as it was (its
//   own version ID and ETag);
// - newer versions written: the version of the moment is copied over them, as the new latest (a
//   restore never deletes a version; what it replaces stays below, as an older version), unless the
//   latest has its ETag already (a restore run again changes nothing);
// - the key did not exist then (or was deleted), and does now: it is deleted, behind a delete marker
//   (which an undo, or another restore, can remove).
//
// A dry run lists each change with its reason and makes none. Deletes go 1,000 to a DeleteObjects;
// copies as many at once as Threads allows.

import type { ItemPlace } from '../../../src/jobs.ts';
import { VERIFICATION_LABELS } from '../../../src/verification.ts';
import { BargeError, toBargeError } from '../errors.ts';
import { concurrentEach } from '../queue/concurrent-each.ts';
import { datesOutOfOrder, listKeyHistories } from '../s3/key-versions.ts';
import type { KeyHistory, KeyVersion } from '../s3/key-versions.ts';
import { copyObject, describeCopySource } from '../s3/object-copy.ts';
import type { CopyRequests } from '../s3/object-copy.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { bucketVersioning } from '../s3/s3-buckets.ts';
import { deleteObjects, MAX_KEYS_PER_DELETE } from './delete-job.ts';
import type { DeleteTarget } from './delete-job.ts';
import type { JobBody, JobRuntime } from './job.ts';
import type { RestoreSpec } from './job-specs.ts';

/** One key's change: markers to remove, a version to copy over, or the key to hide. */
export type RestoreStep =
  | { readonly kind: 'unhide'; readonly key: string; readonly markers: readonly KeyVersion[] }
  | { readonly kind: 'copy'; readonly key: string; readonly version: KeyVersion; readonly over: KeyVersion }
  | { readonly kind: 'hide'; readonly key: string; readonly over: KeyVersion };

/** What a key needs to read as it did at `moment` (ms since the epoch), or undefined: it does already. */
export function restoreStep(history: KeyHistory, moment: number): RestoreStep | undefined {
  const versions = history.versions;
  const then = versions.findIndex((version) => (version.lastModified ?? 0) <= moment);
  const newer = then === -1 ? versions : versions.slice(0, then);
  const latest = versions[0];
  if (newer.length === 0 || latest === undefined) return undefined;
  const atMoment = then === -1 ? undefined : versions[then];
  if (atMoment === undefined || atMoment.isDeleteMarker)
    return latest.isDeleteMarker ? undefined : { kind: 'hide', key: history.key, over: latest };
  if (newer.every((version) => version.isDeleteMarker)) return { kind: 'unhide', key: history.key, markers: newer };
  // Copied over by an earlier restore (or written again as it was): it reads as it did already.
  if (!latest.isDeleteMarker && latest.etag !== undefined && latest.etag === atMoment.etag) return undefined;
  return { kind: 'copy', key: history.key, version: atMoment, over: latest };
}

export function restoreBody(connection: S3Connection, spec: RestoreSpec): JobBody<DeleteTarget> {
  return async (runtime) => {
    await versioningAllowsRestore(connection, spec, runtime.signal);
    // A store whose dates cannot be trusted is found before the first change, not part-way.
    if (!spec.dryRun) await checkDates(connection, spec, runtime);
    const deletes: DeleteTarget[] = [];
    const flush = async (all: boolean) => {
      while (deletes.length >= (all ? 1 : MAX_KEYS_PER_DELETE)) {
        const batch = deletes.splice(0, MAX_KEYS_PER_DELETE);
        await deleteObjects(connection, spec.bucket, batch, runtime, { verbose: true });
      }
    };
    await concurrentEach(
      steps(connection, spec, runtime),
      () => runtime.settings.threads,
      async (step) => {
        if (spec.dryRun) {
          runtime.objectDone(stepPlace(spec, step), wouldDo(step, spec.to));
          return;
        }
        if (step.kind === 'copy') {
          await copyOver(connection, spec, step, runtime);
          return;
        }
        if (step.kind === 'hide') deletes.push({ key: step.key, size: undefined });
        else for (const marker of step.markers) deletes.push({ key: step.key, versionId: marker.versionId, size: 0 });
        await flush(false);
      },
    );
    if (!spec.dryRun && !runtime.signal.aborted) await flush(true);
  };
}

async function* steps(
  connection: S3Connection,
  spec: RestoreSpec,
  runtime: JobRuntime<DeleteTarget>,
): AsyncGenerator<RestoreStep> {
  for await (const history of listKeyHistories(connection, {
    bucket: spec.bucket,
    prefix: spec.prefix,
    signal: runtime.signal,
  })) {
    if (datesOutOfOrder(history)) throw unreliableDates(spec, history.key, spec.dryRun ? 'before' : 'during');
    const step = restoreStep(history, spec.to);
    if (!step) continue;
    // Each marker removed is one delete; a copy or a hide is one change.
    runtime.addTotals(step.kind === 'unhide' ? step.markers.length : 1, step.kind === 'copy' ? step.version.size : 0);
    yield step;
  }
  runtime.totalsFinal();
}

/** Every key's versions read once, for dates out of order, before anything is changed. */
async function checkDates(connection: S3Connection, spec: RestoreSpec, runtime: JobRuntime<DeleteTarget>) {
  for await (const history of listKeyHistories(connection, {
    bucket: spec.bucket,
    prefix: spec.prefix,
    signal: runtime.signal,
  }))
    if (datesOutOfOrder(history)) throw unreliableDates(spec, history.key, 'before');
}

async function copyOver(
  connection: S3Connection,
  spec: RestoreSpec,
  step: Extract<RestoreStep, { kind: 'copy' }>,
  runtime: JobRuntime<DeleteTarget>,
): Promise<void> {
  const target = { key: step.key, size: step.version.size };
  const where = stepPlace(spec, step);
  const requests: CopyRequests = {
    request: (send) => runtime.request((signal) => send(signal)),
    partsInFlight: () => runtime.settings.threads,
    partSizeBytes: runtime.settings.partSizeBytes,
  };
  try {
    const place = { bucket: spec.bucket, key: step.key };
    const source = await describeCopySource(connection, { ...place, versionId: step.version.versionId }, requests);
    const copied = await copyObject(connection, source, place, requests);
    runtime.addBytes(copied.size);
    runtime.journal.objectFinished({ key: step.key, path: '', size: copied.size, etag: copied.etag });
    runtime.objectDone(
      where,
      `version ${step.version.versionId} copied over; ${VERIFICATION_LABELS[copied.verification]}`,
    );
  } catch (error) {
    runtime.itemFailed(target, where, toBargeError(error, `restore s3://${spec.bucket}/${step.key}`));
  }
}

/**
 * A restore needs the bucket to keep versions, and to keep keeping them: with versioning suspended,
 * each copy over would replace the key's null version for good.
 */
async function versioningAllowsRestore(
  connection: S3Connection,
  spec: RestoreSpec,
  signal: AbortSignal,
): Promise<void> {
  const state = await bucketVersioning(connection, spec.bucket, signal);
  if (state === 'enabled') return;
  throw new BargeError(
    'VersioningOff',
    state === 'off'
      ? `The bucket ${spec.bucket} has never kept versions (versioning was never enabled): there is no earlier ` +
          `state to restore. Nothing was changed.`
      : `Versioning is suspended in the bucket ${spec.bucket}: a restore's copies would replace each key's null ` +
          `version for good. Enable versioning again first (barge does not change it for you). Nothing was changed.`,
  );
}

/**
 * `before`: found before any change (a dry run, or the check a restore starts with); `during`: a key
 * written since that check, found part-way.
 */
function unreliableDates(spec: RestoreSpec, key: string, when: 'before' | 'during'): BargeError {
  return new BargeError(
    'UnreliableVersionDates',
    `The store dates an older version of s3://${spec.bucket}/${key} after its latest one: its dates say when ` +
      `versions were set aside, not when they were written, so what each key held at a moment cannot be known. ` +
      (when === 'during'
        ? `The restore stopped there; keys before it (in key order) were restored.`
        : `The ${spec.dryRun ? 'dry run' : 'restore'} stopped there. Nothing was changed.`),
  );
}

function stepPlace(spec: RestoreSpec, step: RestoreStep): ItemPlace {
  return {
    source: `s3://${spec.bucket}/${step.key}`,
    destination: '',
    ...(step.kind === 'copy' ? { size: step.version.size } : {}),
  };
}

function wouldDo(step: RestoreStep, moment: number): string {
  const when = (version: KeyVersion) =>
    version.lastModified === undefined ? '' : ` of ${new Date(version.lastModified).toISOString()}`;
  if (step.kind === 'unhide') {
    const markers = step.markers.length === 1 ? 'its delete marker' : `${step.markers.length} delete markers`;
    return `would remove ${markers}${when(step.markers[step.markers.length - 1]!)}`;
  }
  if (step.kind === 'copy')
    return `would copy version ${step.version.versionId}${when(step.version)} over version ${step.over.versionId}`;
  return `would delete it: it did not exist at ${new Date(moment).toISOString()}`;
}
