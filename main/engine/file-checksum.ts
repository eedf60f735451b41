// The checksum of a byte range of a local file, read through one small buffer.
//
// One 256 KiB buffer per call, reused for every read: a stream would allocate a fresh chunk per read,
// and with dozens of parts hashed at once that garbage showed as 100 MiB more peak memory (measured
// with `npm run bench`, 1 GiB up).

import { open } from 'node:fs/promises';
import { createHasher } from './checksums.ts';
import type { ChecksumAlgorithm } from './checksums.ts';

const READ_BYTES = 256 * 1024;

/** The digest of bytes [start, end) of `file` (to its end when `end` is undefined). */
export async function fileChecksum(file: string, algorithm: ChecksumAlgorithm, start = 0, end?: number): Promise<Buffer> {
  const hasher = createHasher(algorithm);
  const handle = await open(file, 'r');
  try {
    const last = end ?? (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, Math.max(1, last - start)));
    for (let position = start; position < last;) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, last - position), position);
      // The file is shorter than the range: it changed, and the sizes will tell (FileChanged).
      if (bytesRead === 0) break;
      hasher.update(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return hasher.digest();
}
