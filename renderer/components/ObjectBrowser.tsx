// The bucket browser: breadcrumbs, a toolbar, and a virtualised table that stays responsive with
// 100,000 keys in one prefix. Files dropped anywhere on it upload to the prefix on screen.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import type { DragEvent, KeyboardEvent, MouseEvent } from 'react';
import { formatBytes, formatDate } from '../format.ts';
import { useBrowser, visibleRows } from '../store/browser-store.ts';
import type { Row, SortColumn } from '../store/browser-store.ts';
import { useConnections } from '../store/connections-store.ts';
import { useDetails } from '../store/details-store.ts';
import { filesFromDrop, filesFromInput } from '../dropped-files.ts';
import { DeleteDialog } from './DeleteDialog.tsx';
import type { DeleteTarget } from './DeleteDialog.tsx';
import { DownloadDialog } from './DownloadDialog.tsx';
import { DetailsDialog } from './DetailsDialog.tsx';

const ROW_HEIGHT = 28;

export function ObjectBrowser() {
  const state = useBrowser();
  const { bucket, prefix, rows, sort, filter, selection, listing, listError, connectionId, notice: message, upload } = state;
  const rows_ = useMemo(() => visibleRows(rows, sort, filter), [rows, sort, filter]);
  const [deleting, setDeleting] = useState<DeleteTarget>();
  const [downloading, setDownloading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const virtualizer = useVirtualizer({ count: rows_.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });
  const selectedRows = rows_.filter((r) => selection.has(r.key));

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void filesFromDrop(event.dataTransfer).then(upload);
  }

  function click(row: Row, event: MouseEvent) {
    state.select(row.key, event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'only', rows_);
  }

  function activate(row: Row) {
    if (row.kind === 'folder') state.open(bucket, row.key);
    else if (connectionId && bucket) void useDetails.getState().show({ connectionId, bucket, key: row.key });
  }

  function onKey(event: KeyboardEvent<HTMLDivElement>) {
    const focused = document.activeElement?.getAttribute('data-key');
    const index = rows_.findIndex((r) => r.key === focused);
    const move = (to: number) => {
      const row = rows_[Math.max(0, Math.min(rows_.length - 1, to))];
      if (!row) return;
      virtualizer.scrollToIndex(rows_.indexOf(row));
      requestAnimationFrame(() => (scroller.current?.querySelector(`[data-key="${CSS.escape(row.key)}"]`) as HTMLElement | null)?.focus());
      if (event.shiftKey) state.select(row.key, 'range', rows_);
    };
    if (event.key === 'ArrowDown') { event.preventDefault(); move(index + 1); }
    else if (event.key === 'ArrowUp') { event.preventDefault(); move(index - 1); }
    else if (event.key === 'Home') { event.preventDefault(); move(0); }
    else if (event.key === 'End') { event.preventDefault(); move(rows_.length - 1); }
    else if (event.key === ' ' && index >= 0) { event.preventDefault(); state.select(rows_[index]!.key, 'toggle', rows_); }
    else if (event.key === 'Enter' && index >= 0) { event.preventDefault(); activate(rows_[index]!); }
    else if (event.key === 'a' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); state.selectAll(rows_); }
    else if (event.key === 'Delete' && selectedRows.length > 0) { event.preventDefault(); deleteSelection(); }
    else if (event.key === 'Backspace' && prefix) { event.preventDefault(); state.open(bucket, parentOf(prefix)); }
  }

  function deleteSelection() {
    if (!connectionId || !bucket) return;
    setDeleting({
      connectionId, bucket,
      keys: selectedRows.filter((r) => r.kind === 'object').map((r) => r.key),
      prefixes: selectedRows.filter((r) => r.kind === 'folder').map((r) => r.key),
      confirmName: selectedRows.length === 1 ? selectedRows[0]!.name : `${selectedRows.length} items`,
    });
  }

  function deletePrefix() {
    if (!connectionId || !bucket) return;
    setDeleting({ connectionId, bucket, keys: [], prefixes: [prefix], confirmName: prefix || bucket });
  }

  async function copyLink() {
    const row = selectedRows[0];
    if (row?.kind === 'object') await state.copyLink(row.key);
  }

  if (!bucket) return <main className="browser empty" aria-label="Objects"><p>{connectionId ? 'Pick a bucket.' : 'Pick or add a connection.'}</p></main>;

  const crumbs = prefix.split('/').filter(Boolean);
  return (
    <main
      className={`browser${dragging ? ' dragging' : ''}`}
      aria-label="Objects"
    >
      <nav aria-label="Breadcrumbs" className="breadcrumbs">
        <button type="button" className="link" onClick={() => state.open(bucket, '')}>{bucket}</button>
        {crumbs.map((name, i) => (
          <span key={i}> / <button type="button" className="link" onClick={() => state.open(bucket, `${crumbs.slice(0, i + 1).join('/')}/`)}>{name}</button></span>
        ))}
      </nav>
      <div className="toolbar" role="toolbar" aria-label="Actions">
        <button type="button" onClick={() => filesInput.current?.click()}>Upload</button>
        <button type="button" onClick={() => folderInput.current?.click()}>Upload folder</button>
        <button type="button" disabled={selectedRows.length === 0} onClick={() => setDownloading(true)}>Download</button>
        <button type="button" disabled={selectedRows.length === 0} onClick={deleteSelection}>Delete</button>
        <button type="button" onClick={deletePrefix}>{prefix ? 'Delete this folder' : 'Empty bucket'}</button>
        <button type="button" disabled={selectedRows.length !== 1 || selectedRows[0]?.kind !== 'object'} onClick={() => void copyLink()}>Copy link</button>
        <button type="button" onClick={() => state.refresh()}>Refresh</button>
        <input type="search" aria-label="Filter by name" placeholder="Filter by name" value={filter} onChange={(e) => state.setFilter(e.target.value)} />
        <input ref={filesInput} type="file" multiple hidden aria-label="Choose files to upload" onChange={(e) => { if (e.target.files) void upload(filesFromInput(e.target.files)); e.target.value = ''; }} />
        <input ref={folderInput} type="file" hidden aria-label="Choose a folder to upload" {...{ webkitdirectory: '' }} onChange={(e) => { if (e.target.files) void upload(filesFromInput(e.target.files)); e.target.value = ''; }} />
      </div>
      <p role="status" className="status">
        {rows_.length.toLocaleString()} items{listing ? ' (loading…)' : ''}{selection.size > 0 ? `, ${selection.size.toLocaleString()} selected` : ''}{message ? ` · ${message}` : ''}
      </p>
      {listError && <p role="alert" className="error">{listError}</p>}
      <section
        className="drop-area"
        aria-label="Drop files to upload"
        onDragOver={(e) => { e.preventDefault(); setDragging(true); }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <div className="table" role="grid" aria-label={`Objects in ${bucket}/${prefix}`} aria-rowcount={rows_.length + 1} aria-multiselectable="true">
          <div className="row header" role="row">
            {(['name', 'size', 'modified', 'class'] as SortColumn[]).map((column) => (
              <div key={column} role="columnheader" className={`cell ${column}`} aria-sort={sort.column === column ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                <button type="button" className="link" onClick={() => state.setSort(column)}>{COLUMN_NAMES[column]}{sort.column === column ? (sort.descending ? ' ▼' : ' ▲') : ''}</button>
              </div>
            ))}
          </div>
          <div ref={scroller} className="rows" onKeyDown={onKey}>
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((item) => {
                const row = rows_[item.index]!;
                const selected = selection.has(row.key);
                return (
                  <div
                    key={row.key}
                    data-key={row.key}
                    role="row"
                    aria-rowindex={item.index + 2}
                    aria-selected={selected}
                    tabIndex={0}
                    className={`row${selected ? ' selected' : ''}`}
                    style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                    onClick={(e) => click(row, e)}
                    onDoubleClick={() => activate(row)}
                  >
                    <div role="gridcell" className="cell name">{row.kind === 'folder' && <FolderIcon />}{/* Isolated: a right-to-left override in a key cannot reorder the row around it. */}<bdi>{row.name}</bdi>{row.kind === 'folder' ? '/' : ''}</div>
                    <div role="gridcell" className="cell size">{row.kind === 'object' ? formatBytes(row.size) : ''}</div>
                    <div role="gridcell" className="cell modified">{row.kind === 'object' ? formatDate(row.lastModified) : ''}</div>
                    <div role="gridcell" className="cell class">{row.kind === 'object' ? row.storageClass ?? '' : ''}</div>
                  </div>
                );
              })}
            </div>
          </div>
        </div>
        {dragging && <div className="drop-hint" aria-hidden="true">Drop to upload to {bucket}/{prefix}</div>}
      </section>
      {deleting && <DeleteDialog target={deleting} onClose={() => setDeleting(undefined)} onDeleted={() => { state.clearSelection(); setTimeout(() => state.refresh(), 1500); }} />}
      {downloading && connectionId && (
        <DownloadDialog
          connectionId={connectionId}
          bucket={bucket}
          keys={selectedRows.filter((r) => r.kind === 'object').map((r) => r.key)}
          prefixes={selectedRows.filter((r) => r.kind === 'folder').map((r) => r.key)}
          defaultFolder={useConnections.getState().host?.defaultDownloadFolder ?? ''}
          onClose={() => setDownloading(false)}
        />
      )}
      <DetailsDialog />
    </main>
  );
}

function FolderIcon() {
  return (
    <svg className="folder-icon" width="14" height="12" viewBox="0 0 14 12" aria-hidden="true">
      <path d="M1 2h4l1.5 1.5H13v7.5H1z" fill="currentColor" />
    </svg>
  );
}

const COLUMN_NAMES: Record<SortColumn, string> = { name: 'Name', size: 'Size', modified: 'Modified', class: 'Storage class' };

function parentOf(prefix: string): string {
  const trimmed = prefix.slice(0, -1);
  return trimmed.includes('/') ? `${trimmed.slice(0, trimmed.lastIndexOf('/'))}/` : '';
}
