// The icon beside a name in the object table: a folder, or the kind of file its extension says.

import { File, FileArchive, FileAudio, FileCode, FileImage, FileSpreadsheet, FileText, FileVideo, Folder } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { fileKind } from '../file-kind.ts';
import type { FileKind } from '../file-kind.ts';

const ICONS: Record<FileKind, LucideIcon> = {
  image: FileImage, video: FileVideo, audio: FileAudio, archive: FileArchive, code: FileCode, spreadsheet: FileSpreadsheet, text: FileText, other: File,
};

export function FileIcon({ name, folder }: { name: string; folder: boolean }) {
  const Icon = folder ? Folder : ICONS[fileKind(name)];
  const kind = folder ? 'folder' : fileKind(name);
  return <Icon size={15} aria-hidden className={`file-icon ${kind}`} data-kind={kind} />;
}
