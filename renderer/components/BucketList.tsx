// Buckets of the current connection: open one, create one, delete one (emptied first if need be:
// BucketDeleteDialog), and list them again.

import { useState } from 'react';
import type { FormEvent } from 'react';
import { bucketNameProblem } from '../../src/s3-names.ts';
import { useBrowser } from '../store/browser-store.ts';
import { BucketDeleteDialog } from './BucketDeleteDialog.tsx';
import { Dialog } from './Dialog.tsx';

export function BucketList() {
  const { buckets, bucket, bucketsError, open, connectionId, loadBuckets } = useBrowser();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string>();
  return (
    <nav className="buckets" aria-label="Buckets">
      <div className="pane-title">
        <h2>Buckets</h2>
        <button type="button" disabled={!connectionId} onClick={() => setCreating(true)}>New bucket</button>
        <button type="button" disabled={!connectionId} aria-label="Refresh buckets" title="List the buckets again" onClick={() => void loadBuckets()}>Refresh</button>
      </div>
      {bucketsError && <p role="alert" className="error">{bucketsError}</p>}
      <ul>
        {buckets.map((b) => (
          <li key={b.name} className={b.name === bucket ? 'current' : ''}>
            <button type="button" className="link" aria-current={b.name === bucket ? 'page' : undefined} onClick={() => open(b.name)}>{b.name}</button>
            <button type="button" className="icon" aria-label={`Delete bucket ${b.name}`} title="Delete bucket" onClick={() => setDeleting(b.name)}>✕</button>
          </li>
        ))}
      </ul>
      {creating && <CreateBucket onClose={() => setCreating(false)} />}
      {deleting && connectionId && <BucketDeleteDialog connectionId={connectionId} name={deleting} onClose={() => setDeleting(undefined)} />}
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
        <label>Bucket name <input required autoFocus value={name} onChange={(e) => setName(e.target.value)} /></label>
        {error && <p role="alert" className="error">{error}</p>}
        <div className="buttons"><button type="button" onClick={onClose}>Cancel</button><button type="submit">Create</button></div>
      </form>
    </Dialog>
  );
}
