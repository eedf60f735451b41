// Sync…: keep the prefix on screen and a folder on the engine's machine in step.
//
// The comparison comes first (what is new, changed and extra, each with its count and bytes, and
// the keys), from the engine's own plan; nothing runs until the user has seen it. Sync then runs it
// as one job in the transfers panel, deleting the extras only when asked (Delete extra). A
// comparison made for another folder or direction is not the one shown: Sync waits for a new one.

import { useState } from 'react';
import type { FormEvent } from 'react';
import { formatBytes } from '../format.ts';
import { isWholePath, relativePathProblem } from '../../src/local-path.ts';
import { useConnections } from '../store/connections-store.ts';
import { MAX_LISTED_ITEMS, useSync } from '../store/sync-store.ts';
import type { SyncPlan, SyncReason } from '../store/sync-store.ts';
import { Dialog } from './Dialog.tsx';
import { useFolderField } from './FolderField.tsx';
import { MiddlePath } from './MiddlePath.tsx';

type Direction = 'upload' | 'download';

const REASONS: readonly { reason: SyncReason; label: string }[] = [
  { reason: 'new', label: 'New' },
  { reason: 'changed', label: 'Changed' },
  { reason: 'extra', label: 'Extra' },
];

export function SyncDialog(props: {
  connectionId: string;
  bucket: string;
  prefix: string;
  defaultFolder: string;
  onClose: () => void;
}) {
  const [direction, setDirection] = useState<Direction>('upload');
  const [deleteExtra, setDeleteExtra] = useState(false);
  const [plan, setPlan] = useState<{ plan: SyncPlan; folder: string; direction: Direction }>();
  const [comparing, setComparing] = useState(false);
  const [error, setError] = useState<string>();
  const host = useConnections((s) => s.host);
  const { folder, field, picker } = useFolderField({
    label: 'Folder',
    ariaLabel: 'Sync folder',
    initial: props.defaultFolder,
    onChosen: () => setError(undefined),
  });
  const { compare, run } = useSync();
  const onHost = host?.kind === 'web';
  const remote = `s3://${props.bucket}/${props.prefix}`;
  const shown = plan && plan.folder === folder && plan.direction === direction ? plan.plan : undefined;
  const request = { connectionId: props.connectionId, direction, folder, bucket: props.bucket, prefix: props.prefix };

  async function compareNow(event: FormEvent) {
    event.preventDefault();
    if (!isWholePath(folder)) return setError(relativePathProblem(folder));
    setError(undefined);
    setComparing(true);
    try {
      setPlan({ plan: await compare(request), folder, direction });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setComparing(false);
    }
  }
  async function syncNow() {
    try {
      // The comparison was shown: a delete at the bucket's top is confirmed by it.
      await run({ ...request, delete: deletes, confirmed: true });
      props.onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  const toDo = shown ? shown.totals.new.count + shown.totals.changed.count : 0;
  const extras = shown?.totals.extra.count ?? 0;
  const listed = shown ? shown.items.filter((item) => item.reason !== 'extra' || deleteExtra) : [];
  // The engine keeps the extras whatever is asked (an empty source): said, and not offered.
  const extrasKept = shown?.extrasKept;
  const deletes = deleteExtra && extrasKept === undefined;
  return (
    <Dialog title="Sync" onClose={props.onClose}>
      <form onSubmit={(e) => void compareNow(e)} className="form sync-form">
        <p>
          Keep <code>{remote}</code> and a folder{onHost ? ` on ${host.machineName}` : ''} in step: only what is new or
          changed is sent.
        </p>
        {field}
        <fieldset className="sync-direction">
          <legend>Direction</legend>
          <label className="inline">
            <input
              type="radio"
              name="sync-direction"
              checked={direction === 'upload'}
              onChange={() => setDirection('upload')}
            />{' '}
            Folder → {remote} (upload)
          </label>
          <label className="inline">
            <input
              type="radio"
              name="sync-direction"
              checked={direction === 'download'}
              onChange={() => setDirection('download')}
            />{' '}
            {remote} → folder (download)
          </label>
        </fieldset>
        <div className="buttons">
          <button type="submit" disabled={comparing}>
            {comparing ? 'Comparing…' : 'Compare'}
          </button>
        </div>
        {shown && (
          <section aria-label="Comparison" className="sync-plan">
            <ul className="sync-totals">
              {REASONS.map(({ reason, label }) => (
                <li key={reason} data-reason={reason}>
                  {label}: {shown.totals[reason].count.toLocaleString('en-US')} (
                  {formatBytes(shown.totals[reason].bytes)})
                </li>
              ))}
            </ul>
            {shown.items.length === 0 ? (
              <p role="status">Already in step: nothing to send.</p>
            ) : (
              <div className="sync-items" role="region" aria-label="Keys to sync" tabIndex={0}>
                <table>
                  <tbody>
                    {listed.map((item) => (
                      <tr key={`${item.reason}:${item.source}`}>
                        <td>{item.reason}</td>
                        <td>
                          <MiddlePath text={item.reason === 'extra' ? item.source : item.destination} />
                        </td>
                        <td>{formatBytes(item.size)}</td>
                        <td>
                          {item.reason !== 'extra'
                            ? item.why
                            : extrasKept === undefined
                              ? 'only at the destination: deleted'
                              : `only at the destination: kept (${extrasKept})`}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {shown.items.length >= MAX_LISTED_ITEMS && (
                  <p>The first {MAX_LISTED_ITEMS.toLocaleString('en-US')} are listed; the totals count them all.</p>
                )}
              </div>
            )}
            <label className="inline">
              <input
                type="checkbox"
                checked={deleteExtra}
                disabled={extrasKept !== undefined}
                aria-describedby={extrasKept === undefined ? undefined : 'sync-extras-kept'}
                onChange={(e) => setDeleteExtra(e.target.checked)}
              />{' '}
              Delete extra ({extras.toLocaleString('en-US')}): what is only at the destination
            </label>
            {extrasKept !== undefined && extras > 0 && (
              <p id="sync-extras-kept" role="note">
                Extra ones are kept: {extrasKept} (a mistyped name?). To empty the destination, delete it instead.
              </p>
            )}
          </section>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="buttons">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="primary"
            disabled={!shown || (toDo === 0 && (extras === 0 || !deletes))}
            onClick={() => void syncNow()}
          >
            Sync
          </button>
        </div>
      </form>
      {picker}
    </Dialog>
  );
}
