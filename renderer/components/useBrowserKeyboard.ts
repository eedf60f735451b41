// The object table's keys: arrows, Home and End move (with Shift, they select a range), Space
// toggles, Enter opens, Ctrl/Cmd+A selects all, Escape clears the selection, Delete deletes the
// selection, Backspace goes up.

import type { KeyboardEvent, RefObject } from 'react';
import { indexOfKey, selectedRefs, useBrowser } from '../store/browser-store.ts';
import type { Row, RowList } from '../store/browser-store.ts';
import type { RowWindow } from './useRowWindow.ts';

/** The prefix one folder up ('a/b/' → 'a/', 'a/' → ''). */
export function parentOf(prefix: string): string {
  const trimmed = prefix.slice(0, -1);
  return trimmed.includes('/') ? `${trimmed.slice(0, trimmed.lastIndexOf('/'))}/` : '';
}

export function useBrowserKeyboard({ rows, virtualizer, scroller, onActivate, onDelete }: {
  /** The rows on screen, in display order. */
  rows: RowList;
  virtualizer: Pick<RowWindow, 'scrollToIndex'>;
  scroller: RefObject<HTMLDivElement | null>;
  onActivate: (row: Row) => void;
  /** Delete the selection (called only when something is selected). */
  onDelete: () => void;
}): (event: KeyboardEvent<HTMLDivElement>) => void {
  const { bucket, prefix, filter, selection, open, select, selectAll, clearSelection } = useBrowser();

  return (event) => {
    const focused = document.activeElement?.getAttribute('data-key');
    const index = focused ? indexOfKey(rows, focused) : -1;
    const move = (to: number) => {
      const at = Math.max(0, Math.min(rows.length - 1, to));
      const row = rows.at(at);
      if (!row) return;
      virtualizer.scrollToIndex(at);
      requestAnimationFrame(() => (scroller.current?.querySelector(`[data-key="${CSS.escape(row.key)}"]`) as HTMLElement | null)?.focus());
      if (event.shiftKey) select(row.key, 'range', rows);
    };
    // Selected and let through by the filter: found from the selected keys, not by a walk of the rows.
    const anySelected = selection.size > 0 && selectedRefs(selection, prefix, filter).length > 0;
    if (event.key === 'ArrowDown') { event.preventDefault(); move(index + 1); }
    else if (event.key === 'ArrowUp') { event.preventDefault(); move(index - 1); }
    else if (event.key === 'Home') { event.preventDefault(); move(0); }
    else if (event.key === 'End') { event.preventDefault(); move(rows.length - 1); }
    else if (event.key === ' ' && index >= 0) { event.preventDefault(); select(rows.at(index)!.key, 'toggle', rows); }
    else if (event.key === 'Enter' && index >= 0) { event.preventDefault(); onActivate(rows.at(index)!); }
    else if (event.key === 'a' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); selectAll(rows); }
    else if (event.key === 'Escape' && anySelected) { event.preventDefault(); clearSelection(); }
    else if (event.key === 'Delete' && anySelected) { event.preventDefault(); onDelete(); }
    else if (event.key === 'Backspace' && prefix) { event.preventDefault(); open(bucket, parentOf(prefix)); }
  };
}
