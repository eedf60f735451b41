// Objects and folders dragged from the object table: carried under Barge's own MIME type, so a drop
// target tells them from files dragged from the desktop (which upload: DropZone.tsx), and neither
// takes the other's drag. A drop copies; Shift held at the drop moves.

import type { CopySources } from './store/file-actions-store.ts';

export const OBJECTS_MIME = 'application/x-barge-objects';

/** Whether a drag carries objects from the table (the types are readable while dragging; the data only at the drop). */
export function isObjectDrag(data: DataTransfer): boolean {
  return data.types.includes(OBJECTS_MIME);
}

export function putObjectDrag(data: DataTransfer, sources: CopySources): void {
  data.setData(OBJECTS_MIME, JSON.stringify(sources));
  data.effectAllowed = 'copyMove';
}

/** The dragged sources, or undefined when the drop holds none (or not Barge's). */
export function takeObjectDrag(data: DataTransfer): CopySources | undefined {
  const text = data.getData(OBJECTS_MIME);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<CopySources>;
    if (
      typeof value.connectionId !== 'string' ||
      typeof value.bucket !== 'string' ||
      !Array.isArray(value.keys) ||
      !Array.isArray(value.prefixes)
    )
      return undefined;
    return value as CopySources;
  } catch {
    return undefined;
  }
}

/** What a drop does, said in the hint while dragging: Shift moves. */
export function dropVerb(shift: boolean): 'Copy' | 'Move' {
  return shift ? 'Move' : 'Copy';
}

/**
 * Whether a dragleave left the element itself, not only one of its children for another (which fires
 * one too, and Chromium gives no relatedTarget to tell): the pointer is then outside its box.
 */
export function leftFor(event: { currentTarget: Element; clientX: number; clientY: number }): boolean {
  const box = event.currentTarget.getBoundingClientRect();
  const { clientX: x, clientY: y } = event;
  return x < box.left || x >= box.right || y < box.top || y >= box.bottom;
}
