// File names against the file system's limit on their length.
//
// ext4, XFS and APFS take names of at most 255 bytes (NTFS 255 UTF-16 units, which UTF-8 bytes never
// undercount). A name made from another (a temporary name, a numbered copy) must fit wherever the
// original fits, so it is cut at a character boundary, never in the middle of one.

/** The longest file name most file systems take, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;

const UTF8 = new TextEncoder();

/** How many bytes `text` takes in UTF-8 (a name's length as the file system counts it). */
export function utf8Bytes(text: string): number {
  return UTF8.encode(text).length;
}

/** The longest beginning of `text` of at most `bytes` UTF-8 bytes that ends between characters. */
export function cutToBytes(text: string, bytes: number): string {
  let cut = '';
  let used = 0;
  for (const character of text) {
    used += utf8Bytes(character);
    if (used > bytes) break;
    cut += character;
  }
  return cut;
}
