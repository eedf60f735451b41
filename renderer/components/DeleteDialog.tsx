// Bulk delete with a clear preview: a dry run counts what would go (objects and bytes) before
// anything is deleted; above 1,000 objects the operator types the name to confirm.

import { useEffect, useState } from 'react';
import type { JobSnapshot } from '../../src/jobs.ts';
import { isFinished } from '../../src/jobs.ts';
import { formatBytes } from '../format.ts';
import { request } from '../store/api.ts';
import { useJobs } from '../store/jobs-store.ts';
import { Dialog } from './Dialog.tsx';

export const TYPE_TO_CONFIRM_ABOVE = 1000;

export interface DeleteTarget {
  readonly connectionId: string;
  readonly bucket: string;
  readonly keys: readonly string[];
  readonly prefixes: readonly string[];
  /** What the operator types to confirm a large delete: the prefix, or the bucket's name. */
  readonly confirmName: string;
}

export function DeleteDialog({ target, onClose, onDeleted }: { target: DeleteTarget; onClose: () => void; onDeleted: () => void }) {
  const [allVersions, setAllVersions] = useState(false);
  const [previewId, setPreviewId] = useState<string>();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const preview: JobSnapshot | undefined = useJobs((s) => (previewId ? s.jobs.get(previewId) : undefined));

  useEffect(() => {
    setPreviewId(undefined);
    request('jobs.delete', { connectionId: target.connectionId, bucket: target.bucket, keys: [...target.keys], prefixes: [...target.prefixes], allVersions, dryRun: true })
      .then((job) => setPreviewId(job.id), (e: Error) => setError(e.message));
  }, [target, allVersions]);

  const counted = preview !== undefined && isFinished(preview.state);
  const count = preview?.progress.objectsDone ?? 0;
  const needsTyping = count > TYPE_TO_CONFIRM_ABOVE;
  const confirmed = counted && count > 0 && (!needsTyping || typed === target.confirmName);

  async function confirm() {
    try {
      await request('jobs.delete', { connectionId: target.connectionId, bucket: target.bucket, keys: [...target.keys], prefixes: [...target.prefixes], allVersions, dryRun: false });
      onDeleted();
      onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  const what = [...target.prefixes.map((p) => `${p || '(whole bucket)'} (folder)`), ...target.keys];
  return (
    <Dialog title="Delete objects" onClose={onClose}>
      <p>From <strong>{target.bucket}</strong>: {what.slice(0, 5).join(', ')}{what.length > 5 ? ` and ${what.length - 5} more` : ''}</p>
      <label className="inline"><input type="checkbox" checked={allVersions} onChange={(e) => setAllVersions(e.target.checked)} /> Delete all versions (versioned buckets)</label>
      <p role="status" aria-live="polite" className="preview">
        {counted
          ? <>This deletes <strong>{count.toLocaleString()}</strong> {allVersions ? 'versions' : 'objects'} ({formatBytes(preview.progress.bytesDone)}).</>
          : <>Counting… {preview ? `${preview.progress.objectsDone.toLocaleString()} so far` : ''}</>}
      </p>
      {needsTyping && counted && (
        <label>Type <code>{target.confirmName}</code> to confirm <input aria-label="Type the name to confirm" value={typed} onChange={(e) => setTyped(e.target.value)} /></label>
      )}
      {error && <p role="alert" className="error">{error}</p>}
      <div className="buttons">
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" className="danger" disabled={!confirmed} onClick={() => void confirm()}>Delete {counted ? count.toLocaleString() : ''}</button>
      </div>
    </Dialog>
  );
}
