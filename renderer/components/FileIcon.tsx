// The icon beside a name in the object table: a folder, or the kind of file its extension says.
//
// Each kind's lucide icon is drawn once, in a sprite (FileIconSprite, mounted with the table), and
// a row shows it with <use>: one element per row instead of a component with its paths. Scrolling a
// page of rows a frame mounts dozens of rows each frame; measured (npm run bench:window, 100,000
// keys), the components cost a frame in two, the sprite nothing measurable.

import {
  File,
  FileArchive,
  FileAudio,
  FileCode,
  FileImage,
  FileSpreadsheet,
  FileText,
  FileVideo,
  Folder,
} from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { fileKind } from '../file-kind.ts';
import type { FileKind } from '../file-kind.ts';

const ICONS: Record<FileKind | 'folder', LucideIcon> = {
  image: FileImage,
  video: FileVideo,
  audio: FileAudio,
  archive: FileArchive,
  code: FileCode,
  spreadsheet: FileSpreadsheet,
  text: FileText,
  other: File,
  folder: Folder,
};

/** The icons, drawn once for every row to use. */
export function FileIconSprite() {
  return (
    <svg aria-hidden="true" width="0" height="0" style={{ position: 'absolute' }}>
      {Object.entries(ICONS).map(([kind, Icon]) => (
        <symbol key={kind} id={`file-icon-${kind}`} viewBox="0 0 24 24">
          <Icon />
        </symbol>
      ))}
    </svg>
  );
}

export function FileIcon({ name, folder }: { name: string; folder: boolean }) {
  const kind = folder ? 'folder' : fileKind(name);
  return (
    <svg width="15" height="15" aria-hidden="true" className={`file-icon ${kind}`} data-kind={kind}>
      <use href={`#file-icon-${kind}`} />
    </svg>
  );
}
