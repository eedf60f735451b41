// Copy to… / Move to…: the selection (objects and folders) copied or moved by the store into a
// folder picked here, in any bucket of the same connection. The picker lists a bucket's folders one
// level at a time; the copy goes into the folder open in it, or into a new one made there (as the
// Finder's and Cyberduck's pickers offer).

import { ArrowUp, Folder, FolderPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { copyPlacesProblem } from '../../src/copy-targets.ts';
import { plural } from '../../src/plural.ts';
import { printable } from '../../src/unsafe-text.ts';
import { useBrowser } from '../store/browser-store.ts';
import { useFileActions } from '../store/file-actions-store.ts';
import type { CopySources, PickerFolders } from '../store/file-actions-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';
import { FolderNameInput, FolderNameProblem, useNewFolderName } from './NewFolderName.tsx';
import { parentOf } from './useBrowserKeyboard.ts';

export function CopyToDialog({ sources, move, onClose }: { sources: CopySources; move: boolean; onClose: () => void }) {
  const buckets = useBrowser((s) => s.buckets);
  const { folders, copyTo } = useFileActions();
  const [bucket, setBucket] = useState(sources.bucket);
  const [prefix, setPrefix] = useState('');
  const [listed, setListed] = useState<PickerFolders | string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const verb = move ? 'Move' : 'Copy';
  const count = sources.keys.length + sources.prefixes.length;

  useEffect(() => {
    let current = true;
    setListed(undefined);
    folders(sources.connectionId, bucket, prefix).then(
      (found) => current && setListed(found),
      (e: unknown) => current && setListed((e as Error).message),
    );
    return () => {
      current = false;
    };
  }, [folders, sources.connectionId, bucket, prefix]);

  const problem = copyPlacesProblem(
    { sourceBucket: sources.bucket, keys: sources.keys, prefixes: sources.prefixes, bucket, destination: prefix },
    move ? 'move' : 'copy',
  );

  async function run() {
    if (problem) return setError(problem);
    setBusy(true);
    try {
      await copyTo(sources, bucket, prefix, move);
      onClose();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  }

  const where = `${bucket}/${prefix}`;
  return (
    <Dialog title={`${verb} ${plural(count, 'item')} to…`} onClose={onClose}>
      <div className="form copy-to">
        <label>
          Bucket{' '}
          <select
            value={bucket}
            onChange={(e) => {
              setBucket(e.target.value);
              setPrefix('');
              setError(undefined);
            }}
          >
            {buckets.map((b) => (
              <option key={b.name} value={b.name}>
                {printable(b.name)}
              </option>
            ))}
          </select>
        </label>
        <p className="picker-place">
          <button
            type="button"
            className="icon"
            aria-label="Up one folder"
            title="Up one folder"
            disabled={prefix === ''}
            onClick={() => {
              setPrefix(parentOf(prefix));
              setError(undefined);
            }}
          >
            <ArrowUp size={14} aria-hidden />
          </button>
          <Name text={where} />
        </p>
        <FolderChoices
          listed={listed}
          onOpen={(folder) => {
            setPrefix(folder);
            setError(undefined);
          }}
        />
        <PickerNewFolder
          key={where}
          connectionId={sources.connectionId}
          bucket={bucket}
          prefix={prefix}
          onMade={(folder) => {
            setPrefix(folder);
            setError(undefined);
          }}
        />
        {(error ?? problem) && (
          <p role="alert" className="error">
            {error ?? problem}
          </p>
        )}
        <div className="buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={busy || problem !== undefined} onClick={() => void run()}>
            {verb} to {printable(where)}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

function FolderChoices({
  listed,
  onOpen,
}: {
  listed: PickerFolders | string | undefined;
  onOpen: (prefix: string) => void;
}) {
  if (listed === undefined) return <p role="status">Listing folders…</p>;
  if (typeof listed === 'string')
    return (
      <p role="alert" className="error">
        {listed}
      </p>
    );
  if (listed.prefixes.length === 0) return <p className="hint">No folders here.</p>;
  return (
    <ul className="picker-folders" aria-label="Folders">
      {listed.prefixes.map((folder) => (
        <li key={folder}>
          <button type="button" className="link" onClick={() => onOpen(folder)}>
            <Folder size={14} aria-hidden />
            <Name text={folder.slice(folder.slice(0, -1).lastIndexOf('/') + 1)} />
          </button>
        </li>
      ))}
      {listed.more && <li className="hint">The first 1,000 folders are shown.</li>}
    </ul>
  );
}

/** A folder made where the picker is, then opened: the copy goes into it. */
function PickerNewFolder(props: {
  connectionId: string;
  bucket: string;
  prefix: string;
  onMade: (prefix: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const folder = useNewFolderName(props, props.onMade);
  if (!open)
    return (
      <p>
        <button type="button" onClick={() => setOpen(true)}>
          <FolderPlus size={14} aria-hidden /> New folder…
        </button>
      </p>
    );
  return (
    <form className="picker-new-folder" onSubmit={(e) => void folder.submit(e)}>
      <FolderNameInput label="New folder name" folder={folder} />
      <button type="submit" disabled={folder.busy}>
        Create
      </button>
      <FolderNameProblem folder={folder} />
    </form>
  );
}
