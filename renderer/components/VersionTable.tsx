// Show versions: the folder on screen as its keys' versions and delete markers, in the object table's
// place and look: a grid whose rows are virtualised (useRowWindow.ts), so a folder of many versions
// renders only what is on screen. Each version row carries its actions as buttons (Tab reaches
// them): Download and Restore on a version, Undelete on a key's latest delete marker, Delete on any,
// confirmed first since a version deleted is gone for good.

import { useEffect, useRef, useState } from 'react';
import { formatBytes, formatDate } from '../format.ts';
import { plural } from '../../src/plural.ts';
import type { ObjectVersionRow } from '../../src/contract/models.ts';
import { useBrowser } from '../store/browser-store.ts';
import { shortVersion, useVersions, versioningKey } from '../store/versions-store.ts';
import type { VersionsRow } from '../store/versions-store.ts';
import { Dialog } from './Dialog.tsx';
import { FileIcon, FileIconSprite } from './FileIcon.tsx';
import { Name } from './Name.tsx';
import { rowPlacement, useRowWindow } from './useRowWindow.ts';

const ROW_HEIGHT = 32;

export function VersionsView() {
  const { connectionId, bucket, prefix, open } = useBrowser();
  const { rows, loading, error, notice, place, load, restore, versioning } = useVersions();
  const [confirming, setConfirming] = useState<ObjectVersionRow>();
  const [restoring, setRestoring] = useState<ObjectVersionRow>();
  // Suspended: the restored copy is written as the key's "null" version, replacing the one there for good.
  const suspended = connectionId && bucket ? versioning[versioningKey(connectionId, bucket)] === 'suspended' : false;
  // The folder on screen changed (opened, gone up, another bucket): its versions are listed.
  useEffect(() => {
    if (!connectionId || !bucket) return;
    if (place?.connectionId === connectionId && place.bucket === bucket && place.prefix === prefix) return;
    void load({ connectionId, bucket, prefix });
  }, [connectionId, bucket, prefix, place, load]);
  const versions = rows.filter((row) => row.kind === 'version').length;
  return (
    <>
      <p role="status" className="status">
        {plural(versions, 'version')} and delete marker{versions === 1 ? '' : 's'}
        {loading ? ' (loading…)' : ''}
        {notice ? ` · ${notice}` : ''}
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <VersionTable
        label={`Versions in ${bucket ?? ''}/${prefix}`}
        rows={rows}
        onOpen={(key) => bucket && open(bucket, key)}
        onDelete={setConfirming}
        onRestore={(version) => (suspended ? setRestoring(version) : void restore(version))}
      />
      {confirming && <DeleteVersionDialog version={confirming} onClose={() => setConfirming(undefined)} />}
      {restoring && <SuspendedRestoreDialog version={restoring} onClose={() => setRestoring(undefined)} />}
    </>
  );
}

function VersionTable({
  label,
  rows,
  onOpen,
  onDelete,
  onRestore,
}: {
  label: string;
  rows: readonly VersionsRow[];
  onOpen: (folderKey: string) => void;
  onDelete: (version: ObjectVersionRow) => void;
  onRestore: (version: ObjectVersionRow) => void;
}) {
  const { undelete, download } = useVersions();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useRowWindow({ count: rows.length, rowHeight: ROW_HEIGHT, overscan: 20, scroller });
  const items = virtualizer.getVirtualItems();
  return (
    <div className="table versions" role="grid" aria-label={label} aria-rowcount={rows.length + 1}>
      <FileIconSprite />
      <div role="rowgroup">
        <div className="row header" role="row" aria-rowindex={1}>
          {['Name', 'Version ID', 'Size', 'Modified', 'Latest', 'Marker', 'Actions'].map((name) => (
            <div key={name} role="columnheader" className={`cell ${columnClass(name)}`}>
              {name}
            </div>
          ))}
        </div>
      </div>
      <div ref={scroller} className="rows" role="rowgroup">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            const name = row.key.slice(row.key.lastIndexOf('/', row.key.length - 2) + 1);
            if (row.kind === 'folder')
              return (
                <div
                  key={`folder ${row.key}`}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className="row"
                  style={rowPlacement(item.start, ROW_HEIGHT)}
                >
                  <div role="gridcell" className="cell name">
                    <FileIcon name={name} folder />
                    <button type="button" className="link" onClick={() => onOpen(row.key)}>
                      <Name className="name-text" text={name} />
                    </button>
                  </div>
                </div>
              );
            const restorable = !row.isDeleteMarker && !row.isLatest;
            const undeletable = row.isDeleteMarker && row.isLatest;
            return (
              <div
                key={`${row.key} ${row.versionId}`}
                role="row"
                aria-rowindex={item.index + 2}
                className={`row${row.isDeleteMarker ? ' delete-marker' : ''}${row.isLatest ? ' latest' : ''}`}
                style={rowPlacement(item.start, ROW_HEIGHT)}
              >
                <div role="gridcell" className="cell name">
                  <FileIcon name={name} folder={false} />
                  <Name className="name-text" text={name} />
                </div>
                <div role="gridcell" className="cell version-id" title={row.versionId}>
                  {row.versionId}
                </div>
                <div role="gridcell" className="cell size">
                  {row.isDeleteMarker ? '' : formatBytes(row.size)}
                </div>
                <div role="gridcell" className="cell modified">
                  {formatDate(row.lastModified)}
                </div>
                <div role="gridcell" className="cell flag">
                  {row.isLatest ? 'Latest' : ''}
                </div>
                <div role="gridcell" className="cell flag">
                  {row.isDeleteMarker ? 'Delete marker' : ''}
                </div>
                <div role="gridcell" className="cell actions">
                  {!row.isDeleteMarker && (
                    <button
                      type="button"
                      className="link"
                      aria-label={`Download version ${row.versionId} of ${row.key}`}
                      onClick={() => void download(row)}
                    >
                      Download
                    </button>
                  )}
                  {restorable && (
                    <button
                      type="button"
                      className="link"
                      aria-label={`Restore version ${row.versionId} of ${row.key}`}
                      title="Copy this version over the key: it becomes the latest"
                      onClick={() => onRestore(row)}
                    >
                      Restore
                    </button>
                  )}
                  {undeletable && (
                    <button
                      type="button"
                      className="link"
                      aria-label={`Undelete ${row.key}`}
                      title="Remove this delete marker: the version before it is the key's again"
                      onClick={() => void undelete(row)}
                    >
                      Undelete
                    </button>
                  )}
                  <button
                    type="button"
                    className="link danger"
                    aria-label={`Delete version ${row.versionId} of ${row.key}`}
                    onClick={() => onDelete(row)}
                  >
                    Delete
                  </button>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function columnClass(name: string): string {
  return (
    { Name: 'name', 'Version ID': 'version-id', Size: 'size', Modified: 'modified', Actions: 'actions' }[name] ?? 'flag'
  );
}

/** Deleting one version is for good: said plainly, Cancel first. */
function DeleteVersionDialog({ version, onClose }: { version: ObjectVersionRow; onClose: () => void }) {
  const deleteVersion = useVersions((s) => s.deleteVersion);
  const what = version.isDeleteMarker ? 'delete marker' : 'version';
  const which = version.isDeleteMarker ? 'The delete marker' : 'Version';
  return (
    <Dialog title={`Delete this ${what} for good?`} label={`Delete this ${what} for good?`} onClose={onClose}>
      <p>
        {which} <code>{shortVersion(version.versionId)}</code> of <Name text={version.key} /> will be removed from the
        bucket. This is permanent: no delete marker is left in its place, and nothing can bring it back.
      </p>
      <CancelOr label="Delete for good" kind="danger" onClose={onClose} onConfirm={() => void deleteVersion(version)} />
    </Dialog>
  );
}

/**
 * Restoring in a bucket whose versioning is suspended writes the copy as the key's "null" version: a
 * "null" version there now (written while suspended) is replaced for good. Said, with the state named.
 */
function SuspendedRestoreDialog({ version, onClose }: { version: ObjectVersionRow; onClose: () => void }) {
  const restore = useVersions((s) => s.restore);
  return (
    <Dialog title="Restore in a bucket whose versioning is suspended?" onClose={onClose}>
      <p>
        Versioning is suspended on this bucket: version <code>{shortVersion(version.versionId)}</code> of{' '}
        <Name text={version.key} /> is copied over the key as its &quot;null&quot; version, which replaces for good a
        &quot;null&quot; version written while versioning was suspended. Versions kept before stay.
      </p>
      <CancelOr label="Restore" kind="primary" onClose={onClose} onConfirm={() => void restore(version)} />
    </Dialog>
  );
}

/** A confirmation's two buttons: Cancel, which has the focus, and the act, which closes the dialog first. */
function CancelOr(props: { label: string; kind: 'danger' | 'primary'; onClose: () => void; onConfirm: () => void }) {
  return (
    <div className="buttons">
      <button type="button" data-autofocus onClick={props.onClose}>
        Cancel
      </button>
      <button
        type="button"
        className={props.kind}
        onClick={() => {
          props.onClose();
          props.onConfirm();
        }}
      >
        {props.label}
      </button>
    </div>
  );
}
