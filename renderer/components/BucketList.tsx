// Buckets of the current connection: open one, create one, see one's details (its region:
// BucketDetailsDialog), delete one (emptied first if need be: BucketDeleteDialog), and list them again. The pane
// collapses to a rail (remembered) when the
// browser needs the room.

import { Database, Info, PanelLeftClose, PanelLeftOpen, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { bucketNameProblem } from '../../src/s3-names.ts';
import { useBrowser } from '../store/browser-store.ts';
import { useLayout } from '../store/layout-store.ts';
import { BucketDeleteDialog } from './BucketDeleteDialog.tsx';
import { BucketDetailsDialog } from './BucketDetailsDialog.tsx';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';
import { printable } from '../../src/unsafe-text.ts';

/** `width` undefined: collapsed to a rail with the button that brings the list back. */
export function BucketList({ width }: { width: number | undefined }) {
  const { buckets, bucket, bucketsError, open, connectionId, loadBuckets } = useBrowser();
  const setCollapsed = useLayout((s) => s.setBucketsCollapsed);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string>();
  const [detailed, setDetailed] = useState<string>();
  if (width === undefined) {
    return (
      <nav className="buckets collapsed" aria-label="Buckets">
        <button
          type="button"
          className="icon"
          aria-label="Show the bucket list"
          title="Show buckets"
          onClick={() => setCollapsed(false)}
        >
          <PanelLeftOpen size={16} aria-hidden />
        </button>
      </nav>
    );
  }
  return (
    <nav className="buckets" aria-label="Buckets" style={{ width }}>
      <div className="pane-title">
        <h2>Buckets</h2>
        <button
          type="button"
          className="icon"
          disabled={!connectionId}
          aria-label="New bucket"
          title="New bucket"
          onClick={() => setCreating(true)}
        >
          <Plus size={16} aria-hidden />
        </button>
        <button
          type="button"
          className="icon"
          disabled={!connectionId}
          aria-label="Refresh buckets"
          title="List the buckets again"
          onClick={() => void loadBuckets()}
        >
          <RefreshCw size={15} aria-hidden />
        </button>
        <button
          type="button"
          className="icon"
          aria-label="Hide the bucket list"
          title="Hide buckets"
          onClick={() => setCollapsed(true)}
        >
          <PanelLeftClose size={16} aria-hidden />
        </button>
      </div>
      {bucketsError && (
        <p role="alert" className="error">
          {bucketsError}
        </p>
      )}
      <ul>
        {buckets.map((b) => (
          <li key={b.name} className={b.name === bucket ? 'current' : ''}>
            <button
              type="button"
              className="open-bucket"
              title={printable(b.name)}
              aria-current={b.name === bucket ? 'page' : undefined}
              onClick={() => open(b.name)}
            >
              <Database size={14} aria-hidden />
              <Name text={b.name} />
            </button>
            <button
              type="button"
              className="icon"
              aria-label={`Details of bucket ${printable(b.name)}`}
              title="Bucket details (region, versioning)"
              onClick={() => setDetailed(b.name)}
            >
              <Info size={14} aria-hidden />
            </button>
            <button
              type="button"
              className="icon"
              aria-label={`Delete bucket ${printable(b.name)}`}
              title="Delete bucket"
              onClick={() => setDeleting(b.name)}
            >
              <Trash2 size={14} aria-hidden />
            </button>
          </li>
        ))}
      </ul>
      {creating && <CreateBucket onClose={() => setCreating(false)} />}
      {detailed && connectionId && (
        <BucketDetailsDialog connectionId={connectionId} name={detailed} onClose={() => setDetailed(undefined)} />
      )}
      {deleting && connectionId && (
        <BucketDeleteDialog connectionId={connectionId} name={deleting} onClose={() => setDeleting(undefined)} />
      )}
    </nav>
  );
}

function CreateBucket({ onClose }: { onClose: () => void }) {
  const createBucket = useBrowser((s) => s.createBucket);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = bucketNameProblem(name);
    if (problem) return setError(`A bucket name ${problem}.`);
    try {
      await createBucket(name);
      onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <Dialog title="New bucket" onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          Bucket name <input required autoFocus value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary">
            Create
          </button>
        </div>
      </form>
    </Dialog>
  );
}
