// The browser's actions: upload files or a folder (and what becomes of an object already there),
// a new folder, download, delete, sync with a folder, copy a link, refresh, filter.

import {
  Download,
  Gauge,
  Eraser,
  History,
  FolderPlus,
  FolderSync,
  FolderUp,
  Link,
  RefreshCw,
  Search,
  Settings2,
  Sigma,
  Trash2,
  Upload,
} from 'lucide-react';
import { useRef, useState } from 'react';
import { UploadOptionsDialog } from './UploadOptionsDialog.tsx';
import { useUploadOptions } from '../store/upload-options-store.ts';
import type { ChangeEvent } from 'react';
import { droppedFromInput } from '../dropped-files.ts';
import { IF_EXISTS_UPLOAD_LABELS, ifExistsSchema } from '../../src/if-exists.ts';
import type { IfExists } from '../../src/if-exists.ts';
import { useBrowser } from '../store/browser-store.ts';
import { useUploadChoice } from '../store/upload-choice-store.ts';
import { useFolderSize } from '../store/folder-size-store.ts';
import { useSpeedTest } from '../store/speed-test-store.ts';
import type { RowRef } from '../store/browser-store.ts';
import { versioningKey, useVersions } from '../store/versions-store.ts';
import { useEffect } from 'react';

export function BrowserToolbar({
  selectedRows,
  onDownload,
  onDelete,
  onDeletePrefix,
  onSync,
  onNewFolder,
}: {
  selectedRows: readonly RowRef[];
  onDownload: () => void;
  onDelete: () => void;
  onDeletePrefix: () => void;
  /** Sync… the folder on screen (or the bucket at its top) with a local folder. */
  onSync: () => void;
  /** New folder in the folder on screen (a zero-byte "name/" marker). */
  onNewFolder: () => void;
}) {
  const { connectionId, bucket, prefix, filter, setFilter, refresh, upload, copyLink } = useBrowser();
  const calculateSize = useFolderSize((s) => s.calculateSize);
  const openSpeedTest = useSpeedTest((s) => s.open);
  const [optionsOpen, setOptionsOpen] = useState(false);
  const hasOptions = useUploadOptions(
    (s) => connectionId !== undefined && bucket !== undefined && s.optionsFor(connectionId, bucket) !== undefined,
  );
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const one = selectedRows.length === 1 ? selectedRows[0] : undefined;

  function picked(event: ChangeEvent<HTMLInputElement>) {
    if (event.target.files) void upload(droppedFromInput(event.target.files));
    event.target.value = '';
  }

  return (
    <div className="toolbar" role="toolbar" aria-label="Actions">
      <button type="button" className="primary" onClick={() => filesInput.current?.click()}>
        <Upload size={14} aria-hidden />
        Upload
      </button>
      <button type="button" onClick={() => folderInput.current?.click()}>
        <FolderUp size={14} aria-hidden />
        Upload folder
      </button>
      <button type="button" disabled={!connectionId || !bucket} onClick={onNewFolder}>
        <FolderPlus size={14} aria-hidden />
        New folder
      </button>
      <UploadChoice />
      <button
        type="button"
        disabled={!connectionId || !bucket}
        title="What uploads here are stored with: storage class, cache-control, metadata, tags, encryption"
        onClick={() => setOptionsOpen(true)}
      >
        <Settings2 size={14} aria-hidden />
        Upload options{hasOptions ? ' (set)' : ''}
      </button>
      {optionsOpen && connectionId && bucket && (
        <UploadOptionsDialog connectionId={connectionId} bucket={bucket} onClose={() => setOptionsOpen(false)} />
      )}
      <button type="button" disabled={selectedRows.length === 0} onClick={onDownload}>
        <Download size={14} aria-hidden />
        Download
      </button>
      <button type="button" disabled={selectedRows.length === 0} onClick={onDelete}>
        <Trash2 size={14} aria-hidden />
        Delete
      </button>
      <button type="button" onClick={onDeletePrefix}>
        <Eraser size={14} aria-hidden />
        {prefix ? 'Delete this folder' : 'Empty bucket'}
      </button>
      <button type="button" onClick={onSync}>
        <FolderSync size={14} aria-hidden />
        Sync…
      </button>
      <button
        type="button"
        disabled={one?.kind !== 'object'}
        onClick={() => one?.kind === 'object' && void copyLink(one.key)}
      >
        <Link size={14} aria-hidden />
        Copy link
      </button>
      <button
        type="button"
        disabled={!connectionId || !bucket || one?.kind === 'object'}
        title="How much the selected folder (or the folder on screen) holds, per storage class"
        onClick={() =>
          connectionId && bucket && void calculateSize({ connectionId, bucket, prefix: one?.key ?? prefix })
        }
      >
        <Sigma size={14} aria-hidden />
        Calculate size
      </button>
      <button
        type="button"
        disabled={!connectionId || !bucket}
        title="Speed test: measure this store from here, threads by object size and part size, in this folder"
        onClick={() => connectionId && bucket && void openSpeedTest({ connectionId, bucket, prefix })}
      >
        <Gauge size={14} aria-hidden />
        Test this endpoint
      </button>
      <button type="button" onClick={refresh}>
        <RefreshCw size={14} aria-hidden />
        Refresh
      </button>
      <VersionsToggle />
      <span className="filter">
        <Search size={14} aria-hidden />
        <input
          type="search"
          aria-label="Filter by name"
          placeholder="Filter by name"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </span>
      <input ref={filesInput} type="file" multiple hidden aria-label="Choose files to upload" onChange={picked} />
      <input
        ref={folderInput}
        type="file"
        hidden
        aria-label="Choose a folder to upload"
        {...{ webkitdirectory: '' }}
        onChange={picked}
      />
    </div>
  );
}

/** Short, for the toolbar; the whole answer is the option's tooltip and the select's title. */
const SHORT_LABELS: Readonly<Record<IfExists, string>> = {
  ask: 'Ask',
  overwrite: 'Replace',
  skip: 'Skip',
  rename: 'Keep both',
  newer: 'Replace if newer',
  fail: 'Fail',
};

/** What uploads (drops and picks alike) do with an object already there: asked for each one unless chosen up front. */
function UploadChoice() {
  const { ifExists, setIfExists } = useUploadChoice();
  return (
    <label className="upload-choice" title={`If an object is already there: ${IF_EXISTS_UPLOAD_LABELS[ifExists]}`}>
      If there
      <select
        aria-label="If an object is already there"
        value={ifExists}
        onChange={(e) => setIfExists(e.target.value as IfExists)}
      >
        {ifExistsSchema.options.map((choice) => (
          <option key={choice} value={choice} title={IF_EXISTS_UPLOAD_LABELS[choice]}>
            {SHORT_LABELS[choice]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What the toggle says of a bucket that does not keep versions (the state named, and what it means). */
const VERSIONING_NOTES: Readonly<Record<string, string>> = {
  off:
    'Versioning was never enabled on this bucket: it keeps no versions and no delete markers, so a delete ' +
    'here is for good.',
  suspended:
    'Versioning is suspended on this bucket: the versions kept before are listed, but a write or delete now ' +
    'replaces the "null" version.',
  unknown: 'The store did not say whether this bucket keeps versions.',
};

/** Show versions: the folder's versions and delete markers in the table's place; off where the bucket keeps none. */
function VersionsToggle() {
  const { connectionId, bucket, prefix } = useBrowser();
  const { showing, setShowing, versioning, learnVersioning } = useVersions();
  useEffect(() => {
    if (connectionId && bucket) void learnVersioning(connectionId, bucket);
  }, [connectionId, bucket, learnVersioning]);
  const state = connectionId && bucket ? versioning[versioningKey(connectionId, bucket)] : undefined;
  const note = state === undefined ? undefined : VERSIONING_NOTES[state];
  // Never enabled: there is nothing but the objects to show.
  const off = state === 'off';
  useEffect(() => {
    if (off && showing) setShowing(false, undefined);
  }, [off, showing, setShowing]);
  const label =
    state === 'off'
      ? 'Show versions (versioning never enabled)'
      : state === 'suspended'
        ? 'Show versions (versioning suspended)'
        : 'Show versions';
  return (
    <button
      type="button"
      aria-pressed={showing && !off}
      disabled={!connectionId || !bucket || off}
      title={note ?? "Each key's versions and delete markers: download, restore, delete one, undelete"}
      onClick={() => connectionId && bucket && setShowing(!showing, { connectionId, bucket, prefix })}
    >
      <History size={14} aria-hidden />
      {label}
    </button>
  );
}
