// The files every fault scenario moves: a local folder of random content, with each file's SHA-256.
//
// Two multipart files (5 MiB parts; sizes that do not fall on a part boundary, so the short last
// part is exercised) and small ones on each of the engine's other paths: an empty file, a buffered
// PutObject (up to 1 MiB) and a streamed one (over 1 MiB, under a part). Small enough that a
// scenario takes seconds on two cores.

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KIB, MIB } from '../../src/byte-units.ts';

export const PAYLOAD_PART_SIZE_BYTES = 5 * MIB;

/** The folder's name: an upload stores it under "payload/", a download of that prefix recreates it. */
export const PAYLOAD_FOLDER_NAME = 'payload';

const LAYOUT: readonly { readonly relativePath: string; readonly size: number }[] = [
  { relativePath: 'large/first.bin', size: 24 * MIB + 123 },
  { relativePath: 'large/second.bin', size: 17 * MIB - 1 },
  { relativePath: 'small/empty.txt', size: 0 },
  { relativePath: 'small/note.txt', size: 1 * KIB + 7 },
  { relativePath: 'small/photo.jpg', size: 300 * KIB },
  { relativePath: 'small/streamed.bin', size: 3 * MIB + 11 },
];

export interface PayloadFile {
  /** Below the payload folder, with "/" separators (as in the key). */
  readonly relativePath: string;
  readonly size: number;
  readonly sha256: string;
}

export interface Payload {
  /** The folder itself (its name is PAYLOAD_FOLDER_NAME). */
  readonly root: string;
  readonly files: readonly PayloadFile[];
  readonly totalBytes: number;
}

/** Write the payload folder inside `parent`. */
export async function createPayload(parent: string): Promise<Payload> {
  const root = path.join(parent, PAYLOAD_FOLDER_NAME);
  const files: PayloadFile[] = [];
  for (const { relativePath, size } of LAYOUT) {
    const file = path.join(root, ...relativePath.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    const data = randomBytes(size);
    await writeFile(file, data);
    files.push({ relativePath, size, sha256: createHash('sha256').update(data).digest('hex') });
  }
  return { root, files, totalBytes: files.reduce((sum, file) => sum + file.size, 0) };
}

/** The key a payload file gets when the folder is uploaded to the top of a bucket. */
export function payloadKey(file: PayloadFile): string {
  return `${PAYLOAD_FOLDER_NAME}/${file.relativePath}`;
}
