// Buckets of the current connection: open one, create one, see one's details (its region:
// BucketDetailsDialog), delete one (emptied first if need be: BucketDeleteDialog), and list them again. The pane
// collapses to a rail (remembered) when the browser needs the room. A bucket has a context menu
// (right-click, the ContextMenu key or Shift+F10) and takes objects dragged from the table: a copy
// into its top, a move with Shift.

import { Database, Info, PanelLeftClose, PanelLeftOpen, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import type { DragEvent, FormEvent } from 'react';
import { dropVerb, isObjectDrag, leftFor, takeObjectDrag } from '../drag-objects.ts';
import { useConnections } from '../store/connections-store.ts';
import { useFileActions } from '../store/file-actions-store.ts';
import { useFolderSize } from '../store/folder-size-store.ts';
import { ContextMenu, asksForMenu, placeBeside } from './ContextMenu.tsx';
import type { MenuItem, MenuPlace } from './ContextMenu.tsx';
import { NewFolderDialog } from './NewFolderDialog.tsx';
import { SyncDialog } from './SyncDialog.tsx';
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
  const [menu, setMenu] = useState<{ readonly bucket: string; readonly place: MenuPlace }>();
  const [syncing, setSyncing] = useState<string>();
  const [makingFolder, setMakingFolder] = useState<string>();
  // The bucket a drag of objects is over, and whether the drop would move (Shift) or copy.
  const [dropTarget, setDropTarget] = useState<{ bucket: string; move: boolean }>();
  const drop = useFileActions((s) => s.drop);
  const defaultFolder = useConnections((s) => s.host?.defaultDownloadFolder ?? '');
  const closeMenu = useCallback(() => setMenu(undefined), []);
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
  const menuItems = (name: string): MenuItem[] => [
    { label: 'Open', onSelect: () => open(name) },
    { label: 'New folder…', onSelect: () => setMakingFolder(name), separated: true },
    { label: 'Sync with a folder…', onSelect: () => setSyncing(name) },
    {
      label: 'Calculate size',
      // The bucket is opened too: the size's dialog is the browser's.
      onSelect: () => {
        open(name);
        if (connectionId) void useFolderSize.getState().calculateSize({ connectionId, bucket: name, prefix: '' });
      },
    },
    { label: 'Details', onSelect: () => setDetailed(name), separated: true },
    { label: 'Delete bucket…', onSelect: () => setDeleting(name) },
  ];
  const dragOver = (name: string, event: DragEvent) => {
    if (!isObjectDrag(event.dataTransfer)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = event.shiftKey ? 'move' : 'copy';
    const move = event.shiftKey;
    setDropTarget((t) => (t?.bucket === name && t.move === move ? t : { bucket: name, move }));
  };
  const dropOn = (name: string, event: DragEvent) => {
    if (!isObjectDrag(event.dataTransfer)) return;
    event.preventDefault();
    setDropTarget(undefined);
    const sources = takeObjectDrag(event.dataTransfer);
    if (sources) void drop(sources, name, '', event.shiftKey);
  };

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
          <li
            key={b.name}
            className={`${b.name === bucket ? 'current' : ''}${dropTarget?.bucket === b.name ? ' drop-target' : ''}`}
            onContextMenu={(e) => {
              e.preventDefault();
              const button = e.currentTarget.querySelector<HTMLElement>('.open-bucket');
              setMenu({ bucket: b.name, place: { x: e.clientX, y: e.clientY, returnFocus: button } });
            }}
            onDragEnter={(e) => dragOver(b.name, e)}
            onDragOver={(e) => dragOver(b.name, e)}
            onDragLeave={(e) => leftFor(e) && setDropTarget((t) => (t?.bucket === b.name ? undefined : t))}
            onDrop={(e) => dropOn(b.name, e)}
          >
            <button
              type="button"
              className="open-bucket"
              title={printable(b.name)}
              aria-current={b.name === bucket ? 'page' : undefined}
              onClick={() => open(b.name)}
              onKeyDown={(e) => {
                if (!asksForMenu(e)) return;
                e.preventDefault();
                setMenu({ bucket: b.name, place: placeBeside(e.currentTarget) });
              }}
            >
              <Database size={14} aria-hidden />
              <Name text={b.name} />
              {dropTarget?.bucket === b.name && (
                <span className="drop-verb" role="status">
                  {dropVerb(dropTarget.move)} here{dropTarget.move ? '' : ' (Shift: move)'}
                </span>
              )}
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
      {menu && (
        <ContextMenu
          label={`Actions on bucket ${printable(menu.bucket)}`}
          items={menuItems(menu.bucket)}
          place={menu.place}
          onClose={closeMenu}
        />
      )}
      {syncing && connectionId && (
        <SyncDialog
          connectionId={connectionId}
          bucket={syncing}
          prefix=""
          defaultFolder={defaultFolder}
          onClose={() => setSyncing(undefined)}
        />
      )}
      {makingFolder && connectionId && (
        <NewFolderDialog
          connectionId={connectionId}
          bucket={makingFolder}
          prefix=""
          onClose={() => setMakingFolder(undefined)}
        />
      )}
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
