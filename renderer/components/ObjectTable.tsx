// The objects of the prefix on screen as a WAI-ARIA grid: sortable columns, and virtualised rows,
// so a prefix of a million keys renders only what is on screen (useRowWindow.ts). The grid is one tab stop (a roving
// tabindex: the row last focused holds it); the keys are in useBrowserKeyboard. Click selects
// (Shift: a range, Ctrl/Cmd: one more); double-click or Enter opens a folder or an object's details.
// After opening a folder or going up, the focus lands in the new listing, not on the page.
// A right-click (or the ContextMenu key, Shift+F10) opens a row's menu, or the folder's on no row; the
// selection is dragged onto a folder row or a bucket to copy it there (Shift: move): drag-objects.ts.

import { ChevronDown, ChevronUp } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { DragEvent, KeyboardEvent, MouseEvent } from 'react';
import { dropVerb, isObjectDrag, leftFor, putObjectDrag, takeObjectDrag } from '../drag-objects.ts';
import { copySources, useFileActions } from '../store/file-actions-store.ts';
import type { MenuPlace } from './ContextMenu.tsx';
import { placeBeside } from './ContextMenu.tsx';
import { formatBytes, formatDate } from '../format.ts';
import { useBrowser } from '../store/browser-store.ts';
import { indexOfKey, keyAt, selectedRefs } from '../store/browser-store.ts';
import type { Row, RowList, SortColumn } from '../store/browser-store.ts';
import { FileIcon, FileIconSprite } from './FileIcon.tsx';
import { useBrowserKeyboard } from './useBrowserKeyboard.ts';
import { rowPlacement, useRowWindow } from './useRowWindow.ts';
import { Name } from './Name.tsx';
import { printable } from '../../src/unsafe-text.ts';

const ROW_HEIGHT = 28;
const COLUMNS: readonly SortColumn[] = ['name', 'size', 'modified', 'class'];
const COLUMN_NAMES: Record<SortColumn, string> = {
  name: 'Name',
  size: 'Size',
  modified: 'Modified',
  class: 'Storage class',
};

export function ObjectTable({
  label,
  rows,
  onActivate,
  onDelete,
  onMenu,
}: {
  label: string;
  /** The rows on screen, in display order (made as they are read: only those on screen are). */
  rows: RowList;
  onActivate: (row: Row) => void;
  onDelete: () => void;
  /** Open the context menu of a row (selected first, if it was not) or, for none, of the folder on screen. */
  onMenu: (row: Row | undefined, place: MenuPlace) => void;
}) {
  const { sort, setSort, selection, select, listing, filter, connectionId, bucket, prefix } = useBrowser();
  const drop = useFileActions((s) => s.drop);
  // The folder row a drag of objects is over, and whether it would move (Shift) or copy.
  const [dropTarget, setDropTarget] = useState<{ key: string; move: boolean }>();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useRowWindow({ count: rows.length, rowHeight: ROW_HEIGHT, overscan: 20, scroller });
  // The row holding the grid's one tab stop.
  const [active, setActive] = useState<string>();
  // Set when the table itself navigated: the row to focus once the new listing has it (null: the first).
  const focusAfterLoad = useRef<string | null>(undefined);
  const activate = (row: Row) => {
    if (row.kind === 'folder') focusAfterLoad.current = null;
    onActivate(row);
  };
  const rowsPerPage = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 10 * ROW_HEIGHT) / ROW_HEIGHT) - 1);
  const onKeyDown = useBrowserKeyboard({
    rows,
    virtualizer,
    scroller,
    rowsPerPage,
    onActivate: activate,
    onDelete,
    onLeave: (folderKey) => {
      focusAfterLoad.current = folderKey;
    },
    onMenu: (row, at) => menuFor(row, placeBeside(at)),
    onAbove: () => header.current?.querySelector<HTMLElement>('[aria-sort]:not([aria-sort="none"]) button')?.focus(),
  });
  const header = useRef<HTMLDivElement>(null);
  function headerKeys(event: KeyboardEvent<HTMLDivElement>) {
    const buttons = [...(header.current?.querySelectorAll<HTMLElement>('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const to = event.key === 'ArrowRight' ? at + 1 : event.key === 'ArrowLeft' ? at - 1 : undefined;
    if (to !== undefined) {
      event.preventDefault();
      buttons[Math.max(0, Math.min(buttons.length - 1, to))]?.focus();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      scroller.current?.querySelector<HTMLElement>('[role=row][tabindex="0"]')?.focus();
    }
  }

  useEffect(() => {
    const wanted = focusAfterLoad.current;
    if (wanted === undefined) return;
    let index = wanted === null ? 0 : indexOfKey(rows, wanted);
    // The folder left may come in a later page; until the listing ends, wait for it.
    if (index < 0 && listing) return;
    if (index < 0) index = 0;
    if (rows.length === 0 && listing) return;
    focusAfterLoad.current = undefined;
    const key = keyAt(rows, index);
    if (key === undefined) {
      scroller.current?.focus();
      return;
    }
    setActive(key);
    virtualizer.scrollToIndex(index);
    requestAnimationFrame(() =>
      scroller.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus(),
    );
  }, [rows, listing, virtualizer]);

  function menuFor(row: Row | undefined, place: MenuPlace) {
    if (row && !selection.has(row.key)) select(row.key, 'only', rows);
    onMenu(row, place);
  }

  function dragStart(row: Row, event: DragEvent) {
    if (!connectionId || !bucket) return;
    // The selection when the row dragged is part of it; else the row alone (selected, as a file manager does).
    const dragged = selection.has(row.key) ? selectedRefs(selection, prefix, filter) : [row];
    if (!selection.has(row.key)) select(row.key, 'only', rows);
    putObjectDrag(event.dataTransfer, copySources(connectionId, bucket, dragged));
  }

  function dragOver(row: Row, event: DragEvent) {
    if (row.kind !== 'folder' || !isObjectDrag(event.dataTransfer)) return;
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = event.shiftKey ? 'move' : 'copy';
    const move = event.shiftKey;
    setDropTarget((t) => (t?.key === row.key && t.move === move ? t : { key: row.key, move }));
  }

  function dropOn(row: Row, event: DragEvent) {
    if (row.kind !== 'folder' || !isObjectDrag(event.dataTransfer) || !bucket) return;
    event.preventDefault();
    event.stopPropagation();
    setDropTarget(undefined);
    const sources = takeObjectDrag(event.dataTransfer);
    if (sources) void drop(sources, bucket, row.key, event.shiftKey);
  }

  function click(row: Row, event: MouseEvent) {
    select(row.key, event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'only', rows);
  }

  const items = virtualizer.getVirtualItems();
  // The tab stop: the active row if it is drawn, else the first row drawn (Tab never skips the grid).
  const tabStop = items.some((item) => keyAt(rows, item.index) === active)
    ? active
    : items[0]
      ? keyAt(rows, items[0].index)
      : undefined;

  return (
    <div className="table" role="grid" aria-label={label} aria-rowcount={rows.length + 1} aria-multiselectable="true">
      <FileIconSprite />
      <div role="rowgroup">
        <div ref={header} className="row header" role="row" aria-rowindex={1} onKeyDown={headerKeys}>
          {COLUMNS.map((column) => (
            <div
              key={column}
              role="columnheader"
              className={`cell ${column}`}
              aria-sort={sort.column === column ? (sort.descending ? 'descending' : 'ascending') : 'none'}
            >
              <button
                type="button"
                className="link"
                tabIndex={rows.length === 0 ? 0 : -1}
                onClick={() => setSort(column)}
              >
                {COLUMN_NAMES[column]}
                {sort.column === column &&
                  (sort.descending ? <ChevronDown size={14} aria-hidden /> : <ChevronUp size={14} aria-hidden />)}
              </button>
            </div>
          ))}
        </div>
      </div>
      <div
        ref={scroller}
        className="rows"
        role="rowgroup"
        tabIndex={rows.length === 0 ? 0 : -1}
        onKeyDown={onKeyDown}
        onContextMenu={(e) => {
          e.preventDefault();
          const key = (e.target as HTMLElement).closest('[role=row]')?.getAttribute('data-key');
          const index = key ? indexOfKey(rows, key) : -1;
          const row = index >= 0 ? rows.at(index) : undefined;
          const returnTo = (e.target as HTMLElement).closest<HTMLElement>('[role=row]') ?? scroller.current;
          menuFor(row, { x: e.clientX, y: e.clientY, returnFocus: returnTo });
        }}
      >
        {rows.length === 0 && !listing && filter.trim() !== '' && (
          <p className="no-match" role="status">
            No names match <Name text={filter.trim()} />.
          </p>
        )}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows.at(item.index)!;
            const selected = selection.has(row.key);
            const shownName = row.kind === 'folder' ? `${row.name}/` : row.name;
            const dropHere = dropTarget?.key === row.key ? dropTarget : undefined;
            return (
              <div
                key={row.key}
                data-key={row.key}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={selected}
                tabIndex={row.key === tabStop ? 0 : -1}
                className={`row${selected ? ' selected' : ''}${dropHere ? ' drop-target' : ''}`}
                draggable
                onDragStart={(e) => dragStart(row, e)}
                onDragEnter={(e) => dragOver(row, e)}
                onDragOver={(e) => dragOver(row, e)}
                onDragLeave={(e) => leftFor(e) && setDropTarget((t) => (t?.key === row.key ? undefined : t))}
                onDrop={(e) => dropOn(row, e)}
                style={rowPlacement(item.start, ROW_HEIGHT)}
                onFocus={() => setActive(row.key)}
                onClick={(e) => click(row, e)}
                onDoubleClick={() => activate(row)}
              >
                <div role="gridcell" className="cell name" title={printable(shownName)}>
                  <FileIcon name={row.name} folder={row.kind === 'folder'} />
                  {/* Isolated, its overrides shown as escapes: a key can neither reorder the row nor pass for another
                     name. */}
                  <Name className="name-text" text={shownName} />
                  {dropHere && (
                    <span className="drop-verb" role="status">
                      {dropVerb(dropHere.move)} here{dropHere.move ? '' : ' (Shift: move)'}
                    </span>
                  )}
                </div>
                <div role="gridcell" className="cell size">
                  {row.kind === 'object' ? formatBytes(row.size) : ''}
                </div>
                <div role="gridcell" className="cell modified">
                  {row.kind === 'object' ? formatDate(row.lastModified) : ''}
                </div>
                <div role="gridcell" className="cell class">
                  {row.kind === 'object' ? (row.storageClass ?? '') : ''}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
