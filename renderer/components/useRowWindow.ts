// Which rows of a long list of one row height are on screen (with some above and below), and how
// to bring one into view.
//
// @tanstack/react-virtual did this before. It allows rows of any height, so it lays every row out
// again whenever their number changes: 13-20 ms for a million rows, on every filter keystroke and on
// every batch a streaming listing shows, on the main thread. With one height the window is
// arithmetic on the scroll offset: nothing here grows with the list.

import { useCallback, useLayoutEffect, useState } from 'react';
import type { RefObject } from 'react';
import { flushSync } from 'react-dom';

export interface WindowRow {
  readonly index: number;
  /** Its top, in pixels from the top of the list. */
  readonly start: number;
}

export interface RowWindow {
  getVirtualItems(): WindowRow[];
  getTotalSize(): number;
  /** Scroll just enough to show the row (not at all if it shows). */
  scrollToIndex(index: number): void;
}

/** The first and last rows to render for a viewport (last < first when there are none). */
export function rowsInView(
  viewport: { top: number; height: number },
  count: number,
  rowHeight: number,
  overscan: number,
): { first: number; last: number } {
  return {
    first: Math.max(0, Math.floor(viewport.top / rowHeight) - overscan),
    last: Math.min(count - 1, Math.ceil((viewport.top + viewport.height) / rowHeight) - 1 + overscan),
  };
}

/** Where to scroll so the row shows: the least move, or none (undefined) if it shows already. */
export function scrollTopShowing(
  index: number,
  rowHeight: number,
  viewport: { top: number; height: number },
): number | undefined {
  const top = index * rowHeight;
  if (top < viewport.top) return top;
  if (top + rowHeight > viewport.top + viewport.height) return Math.max(0, top + rowHeight - viewport.height);
  return undefined;
}

/** A rendered row's place in the list: absolutely placed at its top, the list's full width. */
export function rowPlacement(start: number, height: number) {
  return { position: 'absolute', top: 0, left: 0, right: 0, height, transform: `translateY(${start}px)` } as const;
}

export function useRowWindow({
  count,
  rowHeight,
  overscan,
  scroller,
}: {
  count: number;
  rowHeight: number;
  /** Rows rendered beyond each edge, so a scroll shows rows already there. */
  overscan: number;
  scroller: RefObject<HTMLElement | null>;
}): RowWindow {
  const [viewport, setViewport] = useState({ top: 0, height: 0 });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () =>
      setViewport((last) =>
        last.top === element.scrollTop && last.height === element.clientHeight
          ? last
          : { top: element.scrollTop, height: element.clientHeight },
      );
    measure();
    // Rendered in the scroll event's own task, before the frame is painted: no blank rows flash
    // by on a fast scroll (what the library did too).
    const onScroll = () => flushSync(measure);
    element.addEventListener('scroll', onScroll, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      resized.disconnect();
    };
  }, [scroller]);

  const scrollToIndex = useCallback(
    (index: number) => {
      const element = scroller.current;
      if (!element) return;
      const top = scrollTopShowing(index, rowHeight, { top: element.scrollTop, height: element.clientHeight });
      if (top !== undefined) element.scrollTop = top;
    },
    [scroller, rowHeight],
  );

  const { first, last } = rowsInView(viewport, count, rowHeight, overscan);
  return {
    getVirtualItems() {
      const rows: WindowRow[] = [];
      for (let index = first; index <= last; index++) rows.push({ index, start: index * rowHeight });
      return rows;
    },
    getTotalSize: () => count * rowHeight,
    scrollToIndex,
  };
}
