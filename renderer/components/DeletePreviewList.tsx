// The objects a delete will remove, as a list that renders only the rows on screen (useRowWindow,
// as the object table): a folder of a million keys scrolls as one of ten. The store keeps the first
// rows only (delete-preview-store.ts); the list ends saying how many more were counted, not listed.

import { useRef } from 'react';
import type { PreviewRow } from '../store/delete-preview-store.ts';
import { formatBytes } from '../format.ts';
import { Name } from './Name.tsx';
import { rowPlacement, useRowWindow } from './useRowWindow.ts';

const ROW_HEIGHT = 24;
const OVERSCAN_ROWS = 10;

export function DeletePreviewList({
  rows,
  listed,
  count,
}: {
  rows: readonly PreviewRow[];
  /** Rows held: the first `listed` of `rows`. */
  listed: number;
  /** Objects counted: past `listed`, a last line says how many more. */
  count: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const more = count - listed;
  const lines = listed + (more > 0 ? 1 : 0);
  const rowWindow = useRowWindow({ count: lines, rowHeight: ROW_HEIGHT, overscan: OVERSCAN_ROWS, scroller });
  return (
    <div ref={scroller} className="delete-preview-list" role="list" aria-label="Objects to delete" tabIndex={0}>
      <div style={{ height: rowWindow.getTotalSize(), position: 'relative' }}>
        {rowWindow.getVirtualItems().map((item) => {
          const style = rowPlacement(item.start, ROW_HEIGHT);
          if (item.index >= listed)
            return (
              <div key="more" role="listitem" className="delete-preview-row delete-preview-more" style={style}>
                and {more.toLocaleString()} more not listed here
              </div>
            );
          const row = rows[item.index]!;
          return (
            <div
              key={item.index}
              role="listitem"
              aria-setsize={lines}
              aria-posinset={item.index + 1}
              className="delete-preview-row"
              style={style}
            >
              <span className="delete-preview-key">
                <Name text={row.key} />
              </span>
              <span className="delete-preview-size">{row.size === undefined ? '' : formatBytes(row.size)}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
