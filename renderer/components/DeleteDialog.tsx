// Bulk delete with a clear preview: a dry run counts what would go (objects and bytes) before
// anything is deleted; above 1,000 objects the operator types the name to confirm.

import { Fragment, useEffect, useState } from 'react';
import type { JobView } from '../store/jobs-store.ts';
import { formatBytes } from '../format.ts';
import { useJobs } from '../store/jobs-store.ts';
import { useBrowser } from '../store/browser-store.ts';
import type { BucketVersioning } from '../../src/contract/models.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';

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
      `This hides ${objects} (${bytes}): each gets a delete marker, and its versions are kept (remove the ` +
      `marker to bring it back).`
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

function spec(target: DeleteTarget) {
  return {
    connectionId: target.connectionId,
    bucket: target.bucket,
    keys: [...target.keys],
    ...(target.keySizes ? { keySizes: [...target.keySizes] } : {}),
    prefixes: [...target.prefixes],
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
  // The count shown, and the exact request it counted: Delete sends that request, nothing else.
  const [preview, setPreview] = useState<{ id: string; allVersions: boolean }>();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const job: JobView | undefined = useJobs((s) => (preview ? s.jobs.get(preview.id) : undefined));
  const startDelete = useJobs((s) => s.delete);
  const control = useJobs((s) => s.control);
  const readVersioning = useBrowser((s) => s.versioning);
  const [versioning, setVersioning] = useState<BucketVersioning>();

  useEffect(() => {
    let current = true;
    void readVersioning(target.connectionId, target.bucket).then((answer) => current && setVersioning(answer));
    return () => {
      current = false;
    };
  }, [target, readVersioning]);

  useEffect(() => {
    let current = true;
    let countId: string | undefined;
    setPreview(undefined);
    setError(undefined);
    startDelete({ ...spec(target), allVersions, dryRun: true }).then(
      (counting) => {
        countId = counting.id;
        if (current) setPreview({ id: counting.id, allVersions });
        else void control('cancel', counting.id);
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
      // A count nobody will read any more stops listing.
      if (countId) void control('cancel', countId);
    };
  }, [target, allVersions, startDelete, control]);

  // Only a count that ran to the end may unlock the delete: a failed or cancelled one undercounts.
  const counted = job?.state.status === 'completed';
  const countFailed = job !== undefined && (job.state.status === 'failed' || job.state.status === 'cancelled');
  const count = job?.progress.objectsDone ?? 0;
  const needsTyping = count > TYPE_TO_CONFIRM_ABOVE;
  const confirmed =
    counted &&
    preview !== undefined &&
    preview.allVersions === allVersions &&
    count > 0 &&
    (!needsTyping || typed === target.confirmName);

  async function confirm() {
    if (!preview) return;
    try {
      await startDelete({ ...spec(target), allVersions: preview.allVersions, dryRun: false });
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
      <label className="inline">
        <input type="checkbox" checked={allVersions} onChange={(e) => setAllVersions(e.target.checked)} /> Delete all
        versions (versioned buckets)
      </label>
      <p role="status" aria-live="polite" className="preview">
        {counted ? (
          <>{deleteOutcome(count, formatBytes(job.progress.bytesDone), allVersions, versioning)}</>
        ) : countFailed ? (
          <>
            Could not count what would be deleted{job.state.status === 'failed' ? `: ${job.state.error.message}` : ''}.
            Nothing was deleted.
          </>
        ) : (
          <>Counting… {job ? `${job.progress.objectsDone.toLocaleString()} so far` : ''}</>
        )}
      </p>
      {needsTyping && counted && (
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
          Cancel
        </button>
        <button type="button" className="danger" disabled={!confirmed} onClick={() => void confirm()}>
          Delete {counted ? count.toLocaleString() : ''}
        </button>
      </div>
    </Dialog>
  );
}
