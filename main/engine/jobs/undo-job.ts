// Undo a delete: remove exactly the delete markers that delete made, and nothing else.
//
// In a bucket that keeps versions, a delete hides each object behind a new delete marker; the
// delete's history records each marker's version ID (delete-job.ts). Removing a marker brings back
// the version below it, with its own version ID and ETag: the object as it was. A key written again
// since the delete is left as it is (its marker is no longer the latest: removing it would change
// nothing visible, and the newer write is someone's), and is reported; so is a marker someone has
// removed already.
//
// The markers are checked against one listing of the versions below the keys' common prefix, not one
// request per key. An undo is a job as a delete is: journaled, and resumed by running it again; a
// marker it removed before a crash is found gone, and counted done.

import { compareUtf8 } from '../../../src/key-order.ts';
import type { ItemPlace } from '../../../src/jobs.ts';
import { BargeError } from '../errors.ts';
import { listKeyHistories } from '../s3/key-versions.ts';
import type { KeyHistory } from '../s3/key-versions.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { deleteObjects } from './delete-job.ts';
import type { DeleteTarget } from './delete-job.ts';
import type { JobBody, JobRuntime } from './job.ts';
import { countedAgain } from './job.ts';
import type { UndoSpec } from './job-specs.ts';
import { SpillingMap } from './spilling-map.ts';

/** A marker's state while the undo runs: still to find, or found and dealt with. */
const HANDLED = '';

export function undoBody(connection: S3Connection, spec: UndoSpec): JobBody<DeleteTarget> {
  return async (runtime, only) => {
    if (only) {
      // A retry of the markers that failed: they were found, and are tried again as they are.
      await removeMarkers(
        connection,
        spec,
        runtime,
        countedAgain(only, runtime, () => 0),
      );
      return;
    }
    const markers = markersOf(spec, runtime);
    try {
      if (markers.count + markers.before === 0) throw nothingToUndo(spec);
      runtime.addTotals(markers.count + markers.before, 0);
      runtime.alreadyDone(markers.before, 0);
      runtime.totalsFinal();
      await removeMarkers(connection, spec, runtime, found(connection, spec, markers, runtime));
    } finally {
      markers.map.close();
    }
  };
}

async function removeMarkers(
  connection: S3Connection,
  spec: UndoSpec,
  runtime: JobRuntime<DeleteTarget>,
  targets: AsyncIterable<DeleteTarget>,
): Promise<void> {
  const failed = await deleteObjects(connection, spec.bucket, targets, runtime);
  if (failed === 0 && !runtime.signal.aborted) runtime.journal.undid(spec.undoes);
}

interface Markers {
  /** Each key's marker version ID, HANDLED once the listing has dealt with it. */
  readonly map: SpillingMap<string>;
  readonly count: number;
  /** Markers an earlier run of this undo removed (a resume after a crash). */
  readonly before: number;
  /** Where the listing starts (the keys' common prefix) and the last key it must reach. */
  readonly prefix: string;
  readonly last: string;
}

/** The markers the delete made, by key, minus those an earlier run of this undo removed already. */
function markersOf(spec: UndoSpec, runtime: JobRuntime<DeleteTarget>): Markers {
  const map = new SpillingMap<string>();
  const removedBefore = new Set<string>();
  for (const removal of runtime.journal.removalsOf(runtime.jobId))
    if (removal.versionId) removedBefore.add(`${removal.key}\u0000${removal.versionId}`);
  let count = 0;
  let before = 0;
  let prefix: string | undefined;
  let last = '';
  for (const removal of runtime.journal.removalsOf(spec.undoes)) {
    if (removal.markerVersionId === undefined) continue;
    if (removedBefore.has(`${removal.key}\u0000${removal.markerVersionId}`)) {
      before += 1;
      continue;
    }
    map.set(removal.key, removal.markerVersionId);
    count += 1;
    prefix = prefix === undefined ? removal.key : commonStart(prefix, removal.key);
    if (compareUtf8(removal.key, last) > 0) last = removal.key;
  }
  return { map, count, before, prefix: prefix ?? '', last };
}

/** The markers still the latest version of their key, to remove; the others reported, and left. */
async function* found(
  connection: S3Connection,
  spec: UndoSpec,
  markers: Markers,
  runtime: JobRuntime<DeleteTarget>,
): AsyncGenerator<DeleteTarget> {
  for await (const history of listKeyHistories(connection, {
    bucket: spec.bucket,
    prefix: markers.prefix,
    signal: runtime.signal,
  })) {
    if (compareUtf8(history.key, markers.last) > 0) break;
    const marker = markers.map.get(history.key);
    if (marker === undefined || marker === HANDLED) continue;
    markers.map.set(history.key, HANDLED);
    const latest = history.versions[0];
    // Still a delete marker too: a key written again while versioning was suspended takes the marker's
    // version ID ("null"), and removing that would delete the new write for good.
    if (latest?.versionId === marker && latest.isDeleteMarker) {
      if (history.versions.some((version) => !version.isDeleteMarker)) {
        yield { key: history.key, versionId: marker, size: 0 };
        continue;
      }
      // Nothing below it: the delete replaced the key's only ("null") version, written while versioning was
      // suspended, or named a key that had no version. Removing the marker would bring nothing back: it is
      // said, not counted as brought back.
      runtime.kept(
        place(spec, history.key, marker),
        'Nothing below its delete marker to bring back: the delete replaced its only version for good (one ' +
          'written while versioning was suspended), or it had none. Left as it is.',
      );
      continue;
    }
    runtime.kept(place(spec, history.key, marker), sinceTheDelete(history, marker));
  }
  if (runtime.signal.aborted) return;
  // Keys the listing never showed: every version of them has gone since, the marker with them.
  for (const removal of runtime.journal.removalsOf(spec.undoes)) {
    if (removal.markerVersionId === undefined) continue;
    const marker = markers.map.get(removal.key);
    if (marker === undefined || marker === HANDLED) continue;
    markers.map.set(removal.key, HANDLED);
    runtime.kept(
      place(spec, removal.key, marker),
      'Every version of it has been deleted since, its delete marker too: nothing can bring it back.',
    );
  }
}

/** What became of a key since the delete hid it, that its marker is no longer the latest. */
function sinceTheDelete(history: KeyHistory, marker: string): string {
  const latest = history.versions[0];
  const below = history.versions.some((version) => version.versionId === marker && version.isDeleteMarker);
  if (latest && !latest.isDeleteMarker && (below || latest.versionId === marker))
    return `Written again since the delete (now version ${latest.versionId}): left as it is.`;
  if (latest && below) return `Deleted again since the delete (by delete marker ${latest.versionId}): left as it is.`;
  return 'Its delete marker was removed already (by someone else): nothing to undo.';
}

function place(spec: UndoSpec, key: string, marker: string): ItemPlace {
  return { source: `s3://${spec.bucket}/${key} (version ${marker})`, destination: '' };
}

function commonStart(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  // Not between the two halves of a character written as a surrogate pair.
  if (i > 0 && a.charCodeAt(i - 1) >= 0xd800 && a.charCodeAt(i - 1) <= 0xdbff) i -= 1;
  return a.slice(0, i);
}

function nothingToUndo(spec: UndoSpec): BargeError {
  return new BargeError(
    'NothingToUndo',
    `The delete ${spec.undoes} recorded no delete markers in s3://${spec.bucket}: there is nothing an undo ` +
      `could bring back.`,
  );
}
