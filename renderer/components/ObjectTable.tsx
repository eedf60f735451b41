// The objects of the prefix on screen as a grid: sortable columns, and virtualised rows, so a
// prefix of a million keys renders only what is on screen (useRowWindow.ts). Click selects (Shift:
// a range, Ctrl/Cmd: one more); double-click or Enter opens a folder or an object's details.

import { useRef } from 'react';
import type { MouseEvent } from 'react';
import { formatBytes, formatDate } from '../format.ts';
import { useBrowser } from '../store/browser-store.ts';
import type { Row, RowList, SortColumn } from '../store/browser-store.ts';
import { useBrowserKeyboard } from './useBrowserKeyboard.ts';
import { useRowWindow } from './useRowWindow.ts';

const ROW_HEIGHT = 28;
const COLUMNS: readonly SortColumn[] = ['name', 'size', 'modified', 'class'];
const COLUMN_NAMES: Record<SortColumn, string> = { name: 'Name', size: 'Size', modified: 'Modified', class: 'Storage class' };

export function ObjectTable({ label, rows, onActivate, onDelete }: {
  label: string;
  /** The rows on screen, in display order (made as they are read: only those on screen are). */
  rows: RowList;
  onActivate: (row: Row) => void;
  onDelete: () => void;
}) {
  const { sort, setSort, selection, select } = useBrowser();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useRowWindow({ count: rows.length, rowHeight: ROW_HEIGHT, overscan: 20, scroller });
  const onKeyDown = useBrowserKeyboard({ rows, virtualizer, scroller, onActivate, onDelete });

  function click(row: Row, event: MouseEvent) {
    select(row.key, event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'only', rows);
  }

  return (
    <div className="table" role="grid" aria-label={label} aria-rowcount={rows.length + 1} aria-multiselectable="true">
      <div className="row header" role="row">
        {COLUMNS.map((column) => (
          <div key={column} role="columnheader" className={`cell ${column}`} aria-sort={sort.column === column ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
            <button type="button" className="link" onClick={() => setSort(column)}>{COLUMN_NAMES[column]}{sort.column === column ? (sort.descending ? ' ▼' : ' ▲') : ''}</button>
          </div>
        ))}
      </div>
      <div ref={scroller} className="rows" onKeyDown={onKeyDown}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows.at(item.index)!;
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
                onDoubleClick={() => onActivate(row)}
              >
                <div role="gridcell" className="cell name" title={row.kind === 'folder' ? `${row.name}/` : row.name}>{row.kind === 'folder' && <FolderIcon />}{/* Isolated: a right-to-left override in a key cannot reorder the row around it. */}<bdi>{row.name}</bdi>{row.kind === 'folder' ? '/' : ''}</div>
                <div role="gridcell" className="cell size">{row.kind === 'object' ? formatBytes(row.size) : ''}</div>
                <div role="gridcell" className="cell modified">{row.kind === 'object' ? formatDate(row.lastModified) : ''}</div>
                <div role="gridcell" className="cell class">{row.kind === 'object' ? row.storageClass ?? '' : ''}</div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function FolderIcon() {
  return (
    <svg className="folder-icon" width="14" height="12" viewBox="0 0 14 12" aria-hidden="true">
      <path d="M1 2h4l1.5 1.5H13v7.5H1z" fill="currentColor" />
    </svg>
  );
}
