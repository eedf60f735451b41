// What the user dropped or picked, as the API takes it: the top-level items now, the files below
// them only when asked (files()). Electron reads dropped items in place by their paths and never
// walks them here; a browser walks them to send each file to the host.

import type { DroppedItems, PickedFile } from '../src/contract/api.ts';

/** Files from an <input type="file"> (with webkitdirectory, each file knows its path below the folder picked). */
export function droppedFromInput(list: FileList): DroppedItems {
  // Taken now: the input is emptied for the next pick as soon as this returns.
  const picked: readonly PickedFile[] = [...list].map((file) => ({
    file,
    relativePath: file.webkitRelativePath || file.name,
  }));
  return { topLevel: undefined, count: picked.length, files: async () => picked };
}

/** Items from a drop; files() walks dropped folders (Chromium's FileSystemEntry API). */
export function droppedFromDrop(transfer: DataTransfer): DroppedItems {
  // Taken now: a drop's DataTransfer is emptied once its event ends; the entries stay readable.
  const topLevel = [...transfer.files];
  const entries = [...transfer.items]
    .map((item) => item.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => Boolean(e));
  return {
    topLevel,
    count: entries.length || topLevel.length,
    async files() {
      if (entries.length === 0) return topLevel.map((file) => ({ file, relativePath: file.name }));
      const found: PickedFile[] = [];
      for (const entry of entries) await walk(entry, '', found);
      return found;
    },
  };
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
