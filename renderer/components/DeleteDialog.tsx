// Bulk delete with a clear preview: the list of exactly what will go, streamed from the listing
// with the filters the delete will use (the command line's, read by the same parser), its count and
// bytes; nothing matching disables Delete. Above 1,000 objects the operator types the name to confirm.
// The delete sends the folders and the filter, never the listed keys: a million-key folder is listed
// again by the engine, not passed through the window. "Delete all versions" counts versions by a dry
// run of the delete itself (a listing of current objects would not show them).

import { Fragment, useEffect, useMemo, useState } from 'react';
import type { JobView } from '../store/jobs-store.ts';
import { formatBytes } from '../format.ts';
import { useJobs } from '../store/jobs-store.ts';
import { useBrowser } from '../store/browser-store.ts';
import { useDeletePreview } from '../store/delete-preview-store.ts';
import type { BucketVersioning } from '../../src/contract/models.ts';
import { EMPTY_FILTER_FIELDS, readFilterFields } from '../../src/filter-form.ts';
import type { FilterFields } from '../../src/filter-form.ts';
import type { ObjectFilter } from '../../src/object-filter.ts';
import { Dialog } from './Dialog.tsx';
import { DeleteFilters } from './DeleteFilters.tsx';
import { DeletePreviewList } from './DeletePreviewList.tsx';
import { ServerExpiryOffer } from './ServerExpiryOffer.tsx';
import { useSettings } from '../store/settings-store.ts';
import { useServerExpiry } from '../store/server-expiry-store.ts';
import { DEFAULT_SETTINGS } from '../../src/settings.ts';
import { isFiltering } from '../../src/object-filter.ts';
import { Name } from './Name.tsx';
import { DeleteUndoNote } from './DeleteUndoNote.tsx';

export const TYPE_TO_CONFIRM_ABOVE = 1000;

export interface DeleteTarget {
  readonly connectionId: string;
  readonly bucket: string;
  readonly keys: readonly string[];
  /** The sizes listed for `keys`, in order (absent where the listing did not have them all). */
  readonly keySizes?: readonly number[];
  readonly prefixes: readonly string[];
  /** What the operator types to confirm a large delete: the prefix, or the bucket's name. */
  readonly confirmName: string;
}

/**
 * What a delete of `count` objects does, said plainly: in a bucket that keeps versions a plain
 * delete hides each object behind a marker and keeps its versions; everything else is for good.
 */
export function deleteOutcome(
  count: number,
  bytes: string,
  allVersions: boolean,
  versioning: BucketVersioning | undefined,
): string {
  const objects = `${count.toLocaleString()} ${count === 1 ? 'object' : 'objects'}`;
  if (allVersions)
    return (
      `This permanently deletes ${count.toLocaleString()} ${count === 1 ? 'version' : 'versions'} ` +
      `(${bytes}). It cannot be undone.`
    );
  if (versioning === 'enabled')
    return (
      `This hides ${objects} (${bytes}): each gets a delete marker, and its versions are kept (Show ` +
      `versions lists the markers; Undelete on one brings its object back).`
    );
  if (versioning === 'suspended')
    return (
      `This hides ${objects} (${bytes}): versions kept before versioning was suspended stay; the latest ` +
      `unversioned copies are gone.`
    );
  if (versioning === 'off')
    return `This permanently deletes ${objects} (${bytes}): the bucket keeps no versions. It cannot be undone.`;
  return `This deletes ${objects} (${bytes}).`;
}

function spec(target: DeleteTarget, filter: ObjectFilter | undefined) {
  return {
    connectionId: target.connectionId,
    bucket: target.bucket,
    keys: [...target.keys],
    ...(target.keySizes ? { keySizes: [...target.keySizes] } : {}),
    prefixes: [...target.prefixes],
    ...(filter ? { filter } : {}),
  };
}

/** What the count says, whichever way it was made. */
interface Count {
  /** Made to the end, for exactly the request Delete would send. */
  readonly done: boolean;
  readonly objects: number;
  readonly bytes: number;
  /** Why there is no count (a failed or cancelled one). */
  readonly failed?: string;
}

/**
 * The count of a delete of every version: a dry run of the delete itself (the listing shows current
 * objects only). Cancelled when the request changes or the dialog closes.
 */
function useVersionCount(request: ReturnType<typeof spec> | undefined): Count | undefined {
  const [countId, setCountId] = useState<string>();
  const [error, setError] = useState<string>();
  const job: JobView | undefined = useJobs((s) => (countId ? s.jobs.get(countId) : undefined));
  const startDelete = useJobs((s) => s.delete);
  const control = useJobs((s) => s.control);
  useEffect(() => {
    setCountId(undefined);
    setError(undefined);
    if (!request) return;
    let current = true;
    let id: string | undefined;
    startDelete({ ...request, allVersions: true, dryRun: true }).then(
      (counting) => {
        id = counting.id;
        if (current) setCountId(counting.id);
        else void control('cancel', counting.id);
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
      // A count nobody will read any more stops listing.
      if (id) void control('cancel', id);
    };
  }, [request, startDelete, control]);
  if (!request) return undefined;
  if (error) return { done: false, objects: 0, bytes: 0, failed: error };
  if (!job) return { done: false, objects: 0, bytes: 0 };
  const status = job.state.status;
  return {
    // Only a count that ran to the end may unlock the delete: a failed or cancelled one undercounts.
    done: status === 'completed',
    objects: job.progress.objectsDone,
    bytes: job.progress.bytesDone,
    ...(status === 'failed' ? { failed: job.state.error.message } : status === 'cancelled' ? { failed: '' } : {}),
  };
}

export function DeleteDialog({
  target,
  onClose,
  onDeleted,
}: {
  target: DeleteTarget;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const [allVersions, setAllVersions] = useState(false);
  const [fields, setFields] = useState<FilterFields>(EMPTY_FILTER_FIELDS);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const startDelete = useJobs((s) => s.delete);
  const readVersioning = useBrowser((s) => s.versioning);
  const [versioning, setVersioning] = useState<BucketVersioning>();
  const preview = useDeletePreview();
  const { preview: startPreview, cancel: cancelPreview } = preview;

  // Filters act on what is listed: the folders. Objects picked by name go as named (as in the engine),
  // so with any in the selection the filters are not offered.
  const filtersOffered = target.keys.length === 0;
  // Read once per edit: ages become instants here, and Delete sends the very filter the list shows.
  const reading = useMemo(() => readFilterFields(fields, Date.now()), [fields]);
  const request = useMemo(
    () => (reading.ok ? spec(target, filtersOffered ? reading.filter : undefined) : undefined),
    [reading, target, filtersOffered],
  );

  useEffect(() => {
    let current = true;
    void readVersioning(target.connectionId, target.bucket).then((answer) => current && setVersioning(answer));
    return () => {
      current = false;
    };
  }, [target, readVersioning]);

  useEffect(() => {
    if (!request || allVersions) return;
    void startPreview(request);
    // Other filters, the dialog closed or all versions asked for: this list stops.
    return cancelPreview;
  }, [request, allVersions, startPreview, cancelPreview]);

  const versionCount = useVersionCount(allVersions ? request : undefined);
  const count: Count | undefined = !request
    ? undefined
    : allVersions
      ? versionCount
      : {
          done: preview.scan === request && preview.finished,
          objects: preview.scan === request ? preview.count : 0,
          bytes: preview.scan === request ? preview.bytes : 0,
          ...(preview.scan === request && preview.error !== undefined ? { failed: preview.error } : {}),
        };
  const counted = count?.done === true;
  const nothing = counted && count.objects === 0;
  const needsTyping = counted && count.objects > TYPE_TO_CONFIRM_ABOVE;
  // Past the threshold, the store can delete the folders itself (a lifecycle rule): offered while the
  // count still runs, since a prefix that large may take hours to count. Only whole folders: a rule
  // takes no filter, and objects picked by name go as named.
  const expireAbove = useSettings(
    (s) => s.settings?.expireOnServerAboveKeys ?? DEFAULT_SETTINGS.expireOnServerAboveKeys,
  );
  const expiryOffered =
    request !== undefined &&
    filtersOffered &&
    target.prefixes.length > 0 &&
    !isFiltering(request.filter) &&
    count !== undefined &&
    count.failed === undefined &&
    count.objects > expireAbove;
  // Once the store has the rule, a delete from here is not what is wanted: the dialog only closes.
  const expired = useServerExpiry((s) => s.added.length > 0);
  const resetExpiry = useServerExpiry((s) => s.reset);
  // Each dialog starts afresh, and leaves nothing behind for the next.
  useEffect(() => {
    resetExpiry();
    return resetExpiry;
  }, [resetExpiry]);
  const confirmed =
    request !== undefined && counted && !nothing && !expired && (!needsTyping || typed === target.confirmName);

  async function confirm() {
    if (!request) return;
    try {
      await startDelete({ ...request, allVersions, dryRun: false });
      onDeleted();
      onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  // The bucket's top (Empty bucket) is everything in it, not a folder (it read "(whole bucket) (folder)").
  const what = [
    ...target.prefixes.map((p) =>
      p ? (
        <>
          <Name text={p} /> (folder)
        </>
      ) : (
        'everything in it (the whole bucket)'
      ),
    ),
    ...target.keys.map((key) => <Name text={key} />),
  ];
  return (
    <Dialog title="Delete objects" onClose={onClose}>
      <p>
        From{' '}
        <strong>
          <Name text={target.bucket} />
        </strong>
        :{' '}
        {what.slice(0, 5).map((each, i) => (
          <Fragment key={i}>
            {i > 0 && ', '}
            {each}
          </Fragment>
        ))}
        {what.length > 5 ? ` and ${what.length - 5} more` : ''}
      </p>
      {filtersOffered ? (
        <DeleteFilters fields={fields} problem={reading.ok ? undefined : reading.problem} onChange={setFields} />
      ) : (
        target.prefixes.length > 0 && (
          <p className="hint">Objects picked by name go as named; to filter, delete folders alone.</p>
        )
      )}
      <label className="inline">
        <input type="checkbox" checked={allVersions} onChange={(e) => setAllVersions(e.target.checked)} /> Delete all
        versions (versioned buckets)
      </label>
      <DeleteUndoNote
        connectionId={target.connectionId}
        bucket={target.bucket}
        allVersions={allVersions}
        onVersioning={setVersioning}
      />
      <p role="status" aria-live="polite" className="preview">
        {!count ? (
          'Nothing is listed until the filters are mended.'
        ) : count.failed !== undefined ? (
          <>Could not count what would be deleted{count.failed ? `: ${count.failed}` : ''}. Nothing was deleted.</>
        ) : nothing ? (
          'Nothing matches: nothing would be deleted.'
        ) : counted ? (
          deleteOutcome(count.objects, formatBytes(count.bytes), allVersions, versioning)
        ) : allVersions ? (
          `Counting… ${count.objects.toLocaleString()} so far`
        ) : (
          `Scanning… ${count.objects.toLocaleString()} ${count.objects === 1 ? 'object' : 'objects'} ` +
          `(${formatBytes(count.bytes)}) so far`
        )}
      </p>
      {request && !allVersions && preview.scan === request && preview.count > 0 && (
        <DeletePreviewList rows={preview.rows} listed={preview.listed} count={preview.count} />
      )}
      {!allVersions && preview.scan === request && preview.unreadable > 0 && (
        <p className="error">
          {preview.unreadable.toLocaleString()} listed with a broken name encoding: no request can name them, so the
          delete fails on each by name.
        </p>
      )}
      {(expiryOffered || expired) && (
        <ServerExpiryOffer
          connectionId={target.connectionId}
          bucket={target.bucket}
          prefixes={target.prefixes}
          confirmName={target.confirmName}
          objects={count?.objects ?? 0}
          counting={!counted}
        />
      )}
      {needsTyping && !expired && (
        <label>
          Type{' '}
          <code>
            <Name text={target.confirmName} />
          </code>{' '}
          to confirm{' '}
          <input aria-label="Type the name to confirm" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </label>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        {/* Focus starts here, not on "Delete all versions": Enter on a delete dialog must never do harm. */}
        <button type="button" data-autofocus onClick={onClose}>
          {expired ? 'Close' : 'Cancel'}
        </button>
        <button type="button" className="danger" disabled={!confirmed} onClick={() => void confirm()}>
          Delete {counted && !nothing ? count.objects.toLocaleString() : ''}
        </button>
      </div>
    </Dialog>
  );
}
