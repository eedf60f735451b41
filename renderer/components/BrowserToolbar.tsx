// The browser's actions: upload files or a folder, download, delete, copy a link, refresh, filter.

import { Download, Eraser, FolderUp, Link, RefreshCw, Search, Trash2, Upload } from 'lucide-react';
import { useRef } from 'react';
import type { ChangeEvent } from 'react';
import { droppedFromInput } from '../dropped-files.ts';
import { useBrowser } from '../store/browser-store.ts';
import type { RowRef } from '../store/browser-store.ts';

export function BrowserToolbar({ selectedRows, onDownload, onDelete, onDeletePrefix }: {
  selectedRows: readonly RowRef[];
  onDownload: () => void;
  onDelete: () => void;
  onDeletePrefix: () => void;
}) {
  const { prefix, filter, setFilter, refresh, upload, copyLink } = useBrowser();
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const one = selectedRows.length === 1 ? selectedRows[0] : undefined;

  function picked(event: ChangeEvent<HTMLInputElement>) {
    if (event.target.files) void upload(droppedFromInput(event.target.files));
    event.target.value = '';
  }

  return (
    <div className="toolbar" role="toolbar" aria-label="Actions">
      <button type="button" className="primary" onClick={() => filesInput.current?.click()}><Upload size={14} aria-hidden />Upload</button>
      <button type="button" onClick={() => folderInput.current?.click()}><FolderUp size={14} aria-hidden />Upload folder</button>
      <button type="button" disabled={selectedRows.length === 0} onClick={onDownload}><Download size={14} aria-hidden />Download</button>
      <button type="button" disabled={selectedRows.length === 0} onClick={onDelete}><Trash2 size={14} aria-hidden />Delete</button>
      <button type="button" onClick={onDeletePrefix}><Eraser size={14} aria-hidden />{prefix ? 'Delete this folder' : 'Empty bucket'}</button>
      <button type="button" disabled={one?.kind !== 'object'} onClick={() => one?.kind === 'object' && void copyLink(one.key)}><Link size={14} aria-hidden />Copy link</button>
      <button type="button" onClick={refresh}><RefreshCw size={14} aria-hidden />Refresh</button>
      <span className="filter"><Search size={14} aria-hidden /><input type="search" aria-label="Filter by name" placeholder="Filter by name" value={filter} onChange={(e) => setFilter(e.target.value)} /></span>
      <input ref={filesInput} type="file" multiple hidden aria-label="Choose files to upload" onChange={picked} />
      <input ref={folderInput} type="file" hidden aria-label="Choose a folder to upload" {...{ webkitdirectory: '' }} onChange={picked} />
    </div>
  );
}
