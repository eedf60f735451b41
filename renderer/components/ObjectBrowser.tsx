// The bucket browser: breadcrumbs, a toolbar, a status line, and the table of what is in the
// prefix on screen. Files dropped anywhere on the table upload to that prefix. Each part is a
// component of its own; this one lays them out and says which dialog (or context menu) is open.

import { Plus, Sparkles } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { plural } from '../../src/plural.ts';
import { selectedRefs, useBrowser } from '../store/browser-store.ts';
import type { Row } from '../store/browser-store.ts';
import { useConnections } from '../store/connections-store.ts';
import { useDetails } from '../store/details-store.ts';
import { BrowserDialogs, copySelection, deletePrefix, deleteSelection, downloadSelection } from './BrowserDialogs.tsx';
import { folderOnScreenMenu, selectionMenu } from './browser-menu.ts';
import type { BrowserActions } from './browser-menu.ts';
import { ContextMenu } from './ContextMenu.tsx';
import type { MenuPlace } from './ContextMenu.tsx';
import { useFileActions } from '../store/file-actions-store.ts';
import { useFolderSize } from '../store/folder-size-store.ts';
import type { BrowserDialog } from './BrowserDialogs.tsx';
import { BrowserToolbar } from './BrowserToolbar.tsx';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { DropZone } from './DropZone.tsx';
import { ObjectTable } from './ObjectTable.tsx';
import { useRestore } from '../store/restore-store.ts';
import { useVersions } from '../store/versions-store.ts';
import { VersionsView } from './VersionTable.tsx';

export function ObjectBrowser() {
  const {
    connectionId,
    bucket,
    prefix,
    view: shown,
    filter,
    selection,
    listing,
    listError,
    notice,
    open,
    upload,
    copyLink,
    refresh,
  } = useBrowser();
  const { dropProblem, dismissDropProblem } = useFileActions();
  // From the selected keys, not a walk of the rows: a million rows on screen cost nothing here.
  const selectedRows = useMemo(() => selectedRefs(selection, prefix, filter), [selection, prefix, filter]);
  const [dialog, setDialog] = useState<BrowserDialog>();
  // The open context menu: of the selected rows, or of the folder on screen.
  const [menu, setMenu] = useState<{ readonly of: 'selection' | 'folder'; readonly place: MenuPlace }>();
  const closeMenu = useCallback(() => setMenu(undefined), []);
  const showingVersions = useVersions((s) => s.showing);

  if (!connectionId) return <NoConnection />;
  if (!bucket)
    return (
      <main className="browser empty" aria-label="Objects">
        <p>Pick a bucket.</p>
      </main>
    );

  const activate = (row: Row) => {
    if (row.kind === 'folder') open(bucket, row.key);
    else void useDetails.getState().show({ connectionId, bucket, key: row.key });
  };
  // The size the listing shows for a selected object: its delete then counts the bytes its preview did.
  const sizeOf = (key: string) => {
    const index = shown.table.indexOfKey(key);
    const row = index < 0 ? undefined : shown.table.row(index);
    return row?.kind === 'object' ? row.size : undefined;
  };
  const onDelete = () => setDialog(deleteSelection(connectionId, bucket, selectedRows, sizeOf));
  const actions: BrowserActions = {
    download: () => setDialog(downloadSelection(connectionId, bucket, selectedRows)),
    copyLink: (key) => void copyLink(key),
    details: (key) => void useDetails.getState().show({ connectionId, bucket, key }),
    rename: (row) => setDialog({ kind: 'rename', connectionId, bucket, prefix, row }),
    copyTo: (move) => setDialog(copySelection(connectionId, bucket, selectedRows, move)),
    delete: onDelete,
    sync: (at) => setDialog({ kind: 'sync', connectionId, bucket, prefix: at }),
    calculateSize: (at) => void useFolderSize.getState().calculateSize({ connectionId, bucket, prefix: at }),
    newFolder: (at) => setDialog({ kind: 'new-folder', connectionId, bucket, prefix: at }),
    restoreTo: (at) => useRestore.getState().open({ connectionId, bucket, prefix: at }),
    refresh,
  };

  // The place and the toolbar, the same over the objects and over their versions.
  const top = (
    <>
      <Breadcrumbs bucket={bucket} prefix={prefix} />
      <BrowserToolbar
        selectedRows={selectedRows}
        onDownload={() => setDialog(downloadSelection(connectionId, bucket, selectedRows))}
        onDelete={onDelete}
        onDeletePrefix={() => setDialog(deletePrefix(connectionId, bucket, prefix))}
        onSync={() => setDialog({ kind: 'sync', connectionId, bucket, prefix })}
        onNewFolder={() => actions.newFolder(prefix)}
      />
    </>
  );

  // Show versions: the folder's versions and delete markers in the table's place (VersionTable.tsx).
  if (showingVersions)
    return (
      <main className="browser" aria-label="Objects">
        {top}
        <VersionsView />
        <BrowserDialogs dialog={dialog} onClose={() => setDialog(undefined)} />
      </main>
    );

  return (
    <main className="browser" aria-label="Objects">
      {top}
      <p role="status" className="status">
        {plural(shown.length, 'item')}
        {listing ? ' (loading…)' : ''}
        {selection.size > 0 ? `, ${selection.size.toLocaleString()} selected` : ''}
        {notice ? ` · ${notice}` : ''}
      </p>
      {dropProblem && (
        <p role="alert" className="error">
          {dropProblem}{' '}
          <button type="button" className="link" onClick={dismissDropProblem}>
            Dismiss
          </button>
        </p>
      )}
      {listError && (
        <p role="alert" className="error">
          {listError}
        </p>
      )}
      <DropZone destination={`${bucket}/${prefix}`} onDrop={(items) => void upload(items)}>
        <ObjectTable
          label={`Objects in ${bucket}/${prefix}`}
          rows={shown}
          onActivate={activate}
          onDelete={onDelete}
          onMenu={(row, place) => setMenu({ of: row ? 'selection' : 'folder', place })}
        />
      </DropZone>
      {menu && (
        <ContextMenu
          label={menu.of === 'selection' ? 'Actions on the selection' : 'Actions on this folder'}
          items={menu.of === 'selection' ? selectionMenu(selectedRows, actions) : folderOnScreenMenu(prefix, actions)}
          place={menu.place}
          onClose={closeMenu}
        />
      )}
      <BrowserDialogs dialog={dialog} onClose={() => setDialog(undefined)} />
    </main>
  );
}

/** Nothing to browse yet: add a connection, or try Barge on the demo store. */
function NoConnection() {
  const { connections, openForm, demo, openDemo } = useConnections();
  return (
    <main className="browser empty" aria-label="Objects">
      <h2>{connections.length === 0 ? 'No connection yet' : 'Pick a connection'}</h2>
      <p>Connect to your S3 store (AWS, MinIO, R2, B2, Ceph…), or try Barge on a demo store first.</p>
      <p className="choices">
        <button type="button" className="primary" onClick={() => openForm('new')}>
          <Plus size={14} aria-hidden />
          Add a connection
        </button>
        <button type="button" disabled={demo?.state === 'starting'} onClick={() => void openDemo()}>
          <Sparkles size={14} aria-hidden />
          Open the demo store
        </button>
      </p>
      <p role="status" className={demo?.state === 'failed' ? 'error' : 'hint'}>
        {demo
          ? demo.line
          : 'The demo store is a local MinIO on this machine with buckets to browse (the first start builds ' +
            'it, which needs Go and a network connection and takes a few minutes; later starts take seconds).'}
      </p>
    </main>
  );
}
