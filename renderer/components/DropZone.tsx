// Where files can be dropped to upload: it shows where they will go while something is dragged
// over it, and hands what was dropped (not walked: that is for whoever needs the files) to onDrop.
// Only files from the desktop: objects dragged from the table (drag-objects.ts) are not its.

import { useState } from 'react';
import type { DragEvent, ReactNode } from 'react';
import type { DroppedItems } from '../../src/contract/api.ts';
import { droppedFromDrop } from '../dropped-files.ts';
import { isObjectDrag } from '../drag-objects.ts';
import { Name } from './Name.tsx';

export function DropZone({
  destination,
  onDrop: dropped,
  children,
}: {
  destination: string;
  onDrop: (items: DroppedItems) => void;
  children: ReactNode;
}) {
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent) {
    if (isObjectDrag(event.dataTransfer)) return;
    event.preventDefault();
    setDragging(false);
    dropped(droppedFromDrop(event.dataTransfer));
  }

  return (
    <section
      className={`drop-area${dragging ? ' dragging' : ''}`}
      aria-label="Drop files to upload"
      onDragOver={(e) => {
        if (isObjectDrag(e.dataTransfer)) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {children}
      {dragging && (
        <div className="drop-hint" aria-hidden="true">
          Drop to upload to <Name text={destination} />
        </div>
      )}
    </section>
  );
}
