// The delete dialog's word on whether this delete can be taken back: in a bucket keeping versions it
// can (from History, or the job's Undo); where versioning was never enabled or is suspended it cannot,
// said plainly with the state named, and the bucket's versioning can be turned on first.

import { History } from 'lucide-react';
import { useEffect } from 'react';
import type { BucketVersioning } from '../../src/contract/models.ts';
import { versioningInWords } from '../history-text.ts';
import { useUndoNote } from '../store/undo-note-store.ts';

/** `onVersioning`: the bucket's state as read, and again once turned on (the dialog's outcome follows it). */
export function DeleteUndoNote({
  connectionId,
  bucket,
  allVersions,
  onVersioning,
}: {
  connectionId: string;
  bucket: string;
  /** Every version deleted: nothing can bring those back, whatever the bucket keeps. */
  allVersions: boolean;
  onVersioning?: (versioning: BucketVersioning) => void;
}) {
  const { versioning, turningOn, error, read, turnOn } = useUndoNote();
  useEffect(() => {
    void read(connectionId, bucket).then((state) => state && onVersioning?.(state));
    // Read once per bucket: onVersioning is the dialog's state setter, not a reason to ask again.
  }, [connectionId, bucket, read]);
  if (allVersions || (versioning === undefined && error === undefined)) return null;
  return (
    <div className="undo-note" aria-live="polite">
      {versioning === 'enabled' ? (
        <p>
          <History size={14} aria-hidden /> This bucket keeps versions: this delete can be undone from History (or its
          Undo in Transfers).
        </p>
      ) : versioning !== undefined ? (
        <>
          <p className="warning">
            This delete cannot be undone: {versioningInWords(versioning)} in this bucket
            {versioning === 'suspended' ? " (each key's unversioned copy is replaced for good)" : ''}.
          </p>
          <button
            type="button"
            disabled={turningOn}
            onClick={() => void turnOn().then((state) => state && onVersioning?.(state))}
          >
            {turningOn ? 'Turning on versioning…' : 'Turn on versioning first'}
          </button>
        </>
      ) : null}
      {error && <p className="error">{error}</p>}
    </div>
  );
}
