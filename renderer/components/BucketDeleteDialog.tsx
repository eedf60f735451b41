// Delete a bucket. What is in it is counted first (every version and delete marker, and the multipart
// uploads begun and never finished): an empty bucket is deleted as it is; one that is not can be
// emptied and deleted in one go ("Empty and delete": a delete job with its progress, which deletes
// the bucket once it is empty), confirmed by typing the bucket's name, as a large delete is.

import { useEffect, useState } from 'react';
import type { BucketVersioning } from '../../src/contract/models.ts';
import { plural } from '../../src/plural.ts';
import { formatBytes } from '../format.ts';
import { useBrowser } from '../store/browser-store.ts';
import { useJobs } from '../store/jobs-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';
import { printable } from '../../src/unsafe-text.ts';

/** What an emptied bucket loses, said plainly: its objects (or versions) and its unfinished uploads. */
export function bucketContents(
  count: number,
  bytes: string,
  uploads: number,
  versioning: BucketVersioning | undefined,
): string {
  const versioned = versioning === 'enabled' || versioning === 'suspended';
  const things = versioned
    ? plural(count, 'version or delete marker', 'versions and delete markers')
    : plural(count, 'object');
  const held = count > 0 ? `${things} (${bytes})` : '';
  const unfinished = uploads > 0 ? plural(uploads, 'unfinished upload') : '';
  return [held, unfinished].filter(Boolean).join(' and ');
}

export function BucketDeleteDialog({
  connectionId,
  name,
  onClose,
}: {
  connectionId: string;
  name: string;
  onClose: () => void;
}) {
  const deleteBucket = useBrowser((s) => s.deleteBucket);
  const emptyAndDelete = useBrowser((s) => s.emptyAndDeleteBucket);
  const unfinishedUploads = useBrowser((s) => s.unfinishedUploads);
  const readVersioning = useBrowser((s) => s.versioning);
  // The count was taken on this connection: another picked meanwhile closes the dialog rather than
  // let Delete act on a bucket of the same name elsewhere.
  const current = useBrowser((s) => s.connectionId);
  useEffect(() => {
    if (current !== connectionId) onClose();
  }, [current, connectionId, onClose]);
  const startCount = useJobs((s) => s.delete);
  const control = useJobs((s) => s.control);
  const [countId, setCountId] = useState<string>();
  const count = useJobs((s) => (countId ? s.jobs.get(countId) : undefined));
  const [uploads, setUploads] = useState<number>();
  const [versioning, setVersioning] = useState<BucketVersioning>();
  const [countError, setCountError] = useState<string>();
  const [typed, setTyped] = useState('');
  // The name as shown (its unsafe characters escaped) confirms as well as the name itself, which
  // cannot always be typed.
  const confirmed = typed === name || typed === printable(name);
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    let started: string | undefined;
    // Every version and delete marker, as Empty and delete would remove them; a preview, not a transfer.
    startCount({ connectionId, bucket: name, keys: [], prefixes: [''], allVersions: true, dryRun: true }).then(
      (job) => {
        started = job.id;
        if (current) setCountId(job.id);
        else void control('cancel', job.id);
      },
      (e: Error) => current && setCountError(e.message),
    );
    void unfinishedUploads(connectionId, name).then(
      (found) => current && setUploads(found),
      (e: Error) => current && setCountError(e.message),
    );
    void readVersioning(connectionId, name).then((answer) => current && setVersioning(answer));
    return () => {
      current = false;
      // A count nobody will read any more stops listing.
      if (started) void control('cancel', started);
    };
  }, [connectionId, name, startCount, control, unfinishedUploads, readVersioning]);

  const status = count?.state.status;
  const counted = status === 'completed' && uploads !== undefined;
  const failedCount =
    countError ??
    (count?.state.status === 'failed'
      ? count.state.error.message
      : status === 'cancelled'
        ? 'the count was cancelled.'
        : undefined);
  const held = count?.progress.objectsDone ?? 0;
  const empty = counted && held === 0 && uploads === 0;

  async function run(action: () => Promise<unknown>) {
    try {
      await action();
      onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <Dialog
      title={
        <>
          Delete bucket <Name text={name} />?
        </>
      }
      label={`Delete bucket ${printable(name)}?`}
      onClose={onClose}
    >
      <p role="status" aria-live="polite" className="preview">
        {failedCount ? (
          <>Could not count what is in it: {failedCount} A bucket must be empty to be deleted.</>
        ) : !counted ? (
          <>
            Counting what is in <Name text={name} />… {count ? `${held.toLocaleString()} so far` : ''}
          </>
        ) : empty ? (
          <>The bucket is empty. Deleting it cannot be undone.</>
        ) : (
          <>
            <strong>
              <Name text={name} />
            </strong>{' '}
            is not empty: it holds{' '}
            {bucketContents(held, formatBytes(count?.progress.bytesDone ?? 0), uploads, versioning)}.{' '}
            <strong>Empty and delete</strong> removes all of it, every version and unfinished upload, then the bucket.
            It cannot be undone.
          </>
        )}
      </p>
      {counted && !empty && (
        <label>
          Type{' '}
          <code>
            <Name text={name} />
          </code>{' '}
          to confirm{' '}
          <input
            aria-label="Type the bucket name to confirm"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </label>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        {/* Focus starts here: Enter on a delete dialog must never do harm. */}
        <button type="button" data-autofocus onClick={onClose}>
          Cancel
        </button>
        {counted && !empty ? (
          <button
            type="button"
            className="danger"
            disabled={!confirmed}
            onClick={() => void run(() => emptyAndDelete(connectionId, name))}
          >
            Empty and delete
          </button>
        ) : (
          <button
            type="button"
            className="danger"
            disabled={!empty && !failedCount}
            onClick={() => void run(() => deleteBucket(name))}
          >
            Delete
          </button>
        )}
      </div>
    </Dialog>
  );
}
