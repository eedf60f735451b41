// Files from a drop or a picker, with their paths relative to what was dropped, folders walked.

export interface PickedFile {
  readonly file: File;
  readonly relativePath: string;
}

/** Files from an <input type="file"> (with webkitdirectory, each file knows its relative path). */
export function filesFromInput(list: FileList): PickedFile[] {
  return [...list].map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

/** Files from a drop; dropped folders are walked (Chromium's FileSystemEntry API). */
export async function filesFromDrop(transfer: DataTransfer): Promise<PickedFile[]> {
  const entries = [...transfer.items].map((item) => item.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => Boolean(e));
  if (entries.length === 0) return [...transfer.files].map((file) => ({ file, relativePath: file.name }));
  const found: PickedFile[] = [];
  for (const entry of entries) await walk(entry, '', found);
  return found;
}

async function walk(entry: FileSystemEntry, parent: string, found: PickedFile[]): Promise<void> {
  const relativePath = parent ? `${parent}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    found.push({ file, relativePath });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches; an empty batch means the folder is done.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, relativePath, found);
  }
}
