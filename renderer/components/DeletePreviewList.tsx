// The objects a delete will remove, as a list that renders only the rows on screen (useRowWindow,
// as the object table): a folder of a million keys scrolls as one of ten.

import { useRef } from 'react';
import type { PreviewRow } from '../store/delete-preview-store.ts';
import { formatBytes } from '../format.ts';
import { Name } from './Name.tsx';
import { useRowWindow } from './useRowWindow.ts';

const ROW_HEIGHT = 24;
const OVERSCAN_ROWS = 10;

export function DeletePreviewList({ rows, count }: { rows: readonly PreviewRow[]; count: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  const rowWindow = useRowWindow({ count, rowHeight: ROW_HEIGHT, overscan: OVERSCAN_ROWS, scroller });
  return (
    <div ref={scroller} className="delete-preview-list" role="list" aria-label="Objects to delete" tabIndex={0}>
      <div style={{ height: rowWindow.getTotalSize(), position: 'relative' }}>
        {rowWindow.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={item.index}
              role="listitem"
              aria-setsize={count}
              aria-posinset={item.index + 1}
              className="delete-preview-row"
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: ROW_HEIGHT,
                transform: `translateY(${item.start}px)`,
              }}
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
