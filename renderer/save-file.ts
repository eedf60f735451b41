// Hand text to the browser (or Electron) as a file download.

export function saveFile(fileName: string, text: string | readonly BlobPart[], type: string): void {
  const url = URL.createObjectURL(new Blob(typeof text === 'string' ? [text] : [...text], { type }));
  saveUrl(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Have the browser download what `url` (on this origin) answers, as `fileName`: its own download, streamed to disk. */
export function saveUrl(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
}
