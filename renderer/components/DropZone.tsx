// Where files can be dropped to upload: it shows where they will go while something is dragged
// over it, and hands what was dropped (dropped folders walked) to onFiles.

import { useState } from 'react';
import type { DragEvent, ReactNode } from 'react';
import { filesFromDrop } from '../dropped-files.ts';
import type { PickedFile } from '../dropped-files.ts';

export function DropZone({ destination, onFiles, children }: { destination: string; onFiles: (files: PickedFile[]) => void; children: ReactNode }) {
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void filesFromDrop(event.dataTransfer).then(onFiles);
  }

  return (
    <section
      className={`drop-area${dragging ? ' dragging' : ''}`}
      aria-label="Drop files to upload"
      onDragOver={(e) => { e.preventDefault(); setDragging(true); }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {children}
      {dragging && <div className="drop-hint" aria-hidden="true">Drop to upload to {destination}</div>}
    </section>
  );
}
