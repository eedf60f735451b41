// Checksums of a byte range of a local file, read through one small buffer.
//
// One 256 KiB buffer per call, reused for every read: a stream would allocate a fresh chunk per read,
// and with dozens of parts hashed at once that garbage showed as 100 MiB more peak memory (measured
// with `npm run bench`, 1 GiB up). Several algorithms share one read.

import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { createHasher } from './checksums.ts';
import type { ChecksumAlgorithm } from './checksums.ts';

const READ_BYTES = 256 * 1024;

/** How a file is opened for reading: by its path, or (an upload's source) only as it was listed. */
export type OpenForReading = (file: string) => Promise<FileHandle>;

const openByPath: OpenForReading = (file) => open(file, 'r');

/** The digest of bytes [start, end) of `file` (to its end when `end` is undefined). */
export async function fileChecksum(
  file: string,
  algorithm: ChecksumAlgorithm,
  start = 0,
  end?: number,
): Promise<Buffer> {
  const [digest] = await fileChecksums(file, [algorithm], start, end);
  return digest!;
}

/** The digests of bytes [start, end) of `file` by each algorithm, in one read. */
export async function fileChecksums(
  file: string,
  algorithms: readonly ChecksumAlgorithm[],
  start = 0,
  end?: number,
  openFile: OpenForReading = openByPath,
): Promise<Buffer[]> {
  const hashers = algorithms.map((algorithm) => createHasher(algorithm));
  const handle = await openFile(file);
  try {
    const last = end ?? (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, Math.max(1, last - start)));
    for (let position = start; position < last;) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, last - position), position);
      // The file is shorter than the range: it changed, and the sizes will tell (FileChanged).
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      for (const hasher of hashers) hasher.update(chunk);
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return hashers.map((hasher) => hasher.digest());
}
