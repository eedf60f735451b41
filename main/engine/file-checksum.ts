// The checksum of a byte range of a local file, read in 1 MiB chunks (a part is never held whole).

import { createReadStream } from 'node:fs';
import { createHasher } from './checksums.ts';
import type { ChecksumAlgorithm } from './checksums.ts';

/** The digest of bytes [start, end) of `file` (to its end when `end` is undefined). */
export async function fileChecksum(file: string, algorithm: ChecksumAlgorithm, start = 0, end?: number): Promise<Buffer> {
  const hasher = createHasher(algorithm);
  if (end !== undefined && end <= start) return hasher.digest();
  for await (const chunk of createReadStream(file, { start, end: end === undefined ? undefined : end - 1, highWaterMark: 1024 * 1024 })) hasher.update(chunk as Buffer);
  return hasher.digest();
}
