// The object table's keys, as in a file manager: the arrows, Home, End, PageUp and PageDown move
// the focus and the selection with it (Shift extends a range from the anchor; Ctrl/Cmd moves the
// focus alone, and Space then toggles the focused row). Enter opens, Ctrl/Cmd+A selects all,
// Escape clears the selection, Delete deletes it, Backspace goes up; ArrowUp from the first row goes
// to the column headers (ArrowLeft/Right there, Enter sorts, ArrowDown comes back). Typing letters jumps to the
// next name that starts with them (type-to-find). The ContextMenu key or Shift+F10 opens the focused row's menu.

import type { KeyboardEvent, RefObject } from 'react';
import { useRef } from 'react';
import { indexOfKey, keyAt, ListingView, selectedRefs, useBrowser } from '../store/browser-store.ts';
import type { Row, RowList } from '../store/browser-store.ts';
import type { RowWindow } from './useRowWindow.ts';
import { asksForMenu } from './ContextMenu.tsx';

/** Letters typed within this long of each other are one search ("rep" finds "report.pdf"). */
const TYPE_TO_FIND_PAUSE_MS = 800;

/** The prefix one folder up ('a/b/' → 'a/', 'a/' → ''). */
export function parentOf(prefix: string): string {
  const trimmed = prefix.slice(0, -1);
  return trimmed.includes('/') ? `${trimmed.slice(0, trimmed.lastIndexOf('/'))}/` : '';
}

/** The name shown at a position: a listing's view reads it from its column, without making the row. */
function nameAt(rows: RowList, index: number): string {
  return rows instanceof ListingView ? rows.table.name(rows.order[index]!) : (rows.at(index)?.name ?? '');
}

/**
 * The row type-to-find lands on: the first whose name starts with `typed` (ignoring case), looking
 * from `from` onwards and wrapping round. A single letter typed again moves on to the next match,
 * as in Finder and Explorer, so `from` is the row after the focused one for a fresh letter.
 */
export function findByTyping(rows: RowList, typed: string, from: number): number {
  if (typed === '' || rows.length === 0) return -1;
  const wanted = typed.toLocaleLowerCase();
  for (let i = 0; i < rows.length; i++) {
    const index = (Math.max(0, from) + i) % rows.length;
    if (nameAt(rows, index).toLocaleLowerCase().startsWith(wanted)) return index;
  }
  return -1;
}

export function useBrowserKeyboard({
  rows,
  virtualizer,
  scroller,
  rowsPerPage,
  onActivate,
  onDelete,
  onLeave,
  onAbove,
  onMenu,
}: {
  /** The rows on screen, in display order. */
  rows: RowList;
  virtualizer: Pick<RowWindow, 'scrollToIndex'>;
  scroller: RefObject<HTMLDivElement | null>;
  rowsPerPage: number;
  onActivate: (row: Row) => void;
  /** Delete the selection (called only when something is selected). */
  onDelete: () => void;
  /** Going up a folder: the folder left (its key), to be focused once the parent is listed. */
  onLeave: (folderKey: string) => void;
  /** ArrowUp on the first row: the column headers, which are part of the grid (and not tab stops). */
  onAbove: () => void;
  /** The context menu of the focused row (the folder on screen when no row is focused), beside `at`. */
  onMenu: (row: Row | undefined, at: HTMLElement) => void;
}): (event: KeyboardEvent<HTMLDivElement>) => void {
  const { bucket, prefix, filter, selection, open, select, selectAll, clearSelection } = useBrowser();
  const typed = useRef({ text: '', at: 0 });

  return (event) => {
    const focused = document.activeElement?.getAttribute('data-key');
    const index = focused ? indexOfKey(rows, focused) : -1;
    const move = (to: number, extend = event.shiftKey, focusOnly = event.ctrlKey || event.metaKey) => {
      const target = Math.max(0, Math.min(rows.length - 1, to));
      const key = keyAt(rows, target);
      if (key === undefined) return;
      virtualizer.scrollToIndex(target);
      requestAnimationFrame(() =>
        (scroller.current?.querySelector(`[data-key="${CSS.escape(key)}"]`) as HTMLElement | null)?.focus(),
      );
      if (extend) select(key, 'range', rows);
      else if (!focusOnly) select(key, 'only', rows);
    };
    // Selected and let through by the filter: found from the selected keys, not by a walk of the rows.
    const anySelected = selection.size > 0 && selectedRefs(selection, prefix, filter).length > 0;
    const steps: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index < 0 ? 0 : index - 1,
      Home: 0,
      End: rows.length - 1,
      PageDown: index + rowsPerPage,
      PageUp: index - rowsPerPage,
    };
    if (asksForMenu(event)) {
      event.preventDefault();
      onMenu(index >= 0 ? rows.at(index) : undefined, document.activeElement as HTMLElement);
    } else if (event.key === 'ArrowUp' && index === 0 && !event.shiftKey) {
      event.preventDefault();
      onAbove();
    } else if (event.key in steps && !event.altKey) {
      event.preventDefault();
      move(steps[event.key]!);
    } else if (event.key === ' ' && index >= 0) {
      event.preventDefault();
      select(keyAt(rows, index)!, 'toggle', rows);
    } else if (event.key === 'Enter' && index >= 0) {
      event.preventDefault();
      onActivate(rows.at(index)!);
    } else if (event.key === 'a' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      selectAll(rows);
    } else if (event.key === 'Escape' && anySelected) {
      event.preventDefault();
      clearSelection();
    } else if (event.key === 'Delete' && anySelected) {
      event.preventDefault();
      onDelete();
    } else if (event.key === 'Backspace' && prefix) {
      event.preventDefault();
      onLeave(prefix);
      open(bucket, parentOf(prefix));
    } else if (event.key.length === 1 && event.key !== ' ' && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      const now = performance.now();
      const fresh = now - typed.current.at > TYPE_TO_FIND_PAUSE_MS;
      typed.current = { text: fresh ? event.key : typed.current.text + event.key, at: now };
      // A new search starts after the focused row; a longer one may stay on it ("r", then "re").
      const found = findByTyping(rows, typed.current.text, fresh ? index + 1 : Math.max(index, 0));
      if (found >= 0) move(found, false, false);
    }
  };
}
