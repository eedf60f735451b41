// A file range as a body that writes itself: the bytes in order, through two buffers used again and
// again, and a file that changed refused before its last bytes go.

import { mkdtemp, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { fileRangeBody, READ_CHUNK_BYTES } from '../../../../../main/engine/disk/file-range-body.ts';
import type { LocalFile } from '../../../../../main/engine/disk/local-files.ts';

async function listed(file: string): Promise<LocalFile> {
  const info = await stat(file);
  return {
    path: file,
    key: path.basename(file),
    size: info.size,
    mtimeMs: info.mtimeMs,
    dev: info.dev,
    ino: info.ino,
    ctimeMs: info.ctimeMs,
  };
}

async function fileOf(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-body-'));
  const file = path.join(dir, 'source.bin');
  await writeFile(file, bytes);
  return file;
}

it('writes the range in order, through two buffers whatever its size, counting what the socket took', async () => {
  const data = randomBytes(5 * READ_CHUNK_BYTES + 1234);
  const file = await listed(await fileOf(data));
  let counted = 0;
  const body = await fileRangeBody(file, 1000, data.length - 7, (bytes) => {
    counted += bytes;
  });
  const out: Buffer[] = [];
  const memory = new Set<ArrayBufferLike>();
  await body.pipeTo(async (chunk) => {
    memory.add(chunk.buffer);
    out.push(Buffer.from(chunk));
    await new Promise((resolve) => setImmediate(resolve));
  });
  expect(Buffer.concat(out).equals(data.subarray(1000, data.length - 7))).toBe(true);
  expect(counted).toBe(data.length - 7 - 1000);
  expect(memory.size).toBe(2);
  // Sent once: the file is closed.
  await expect(body.pipeTo(async () => {})).rejects.toThrow(/sent once/);
});

it('fails as changed a file that shrank since it was listed, and one changed before its last bytes go', async () => {
  const data = randomBytes(3 * READ_CHUNK_BYTES);
  const path1 = await fileOf(data);
  const before = await listed(path1);
  const shrinking = await fileRangeBody(before, 0, data.length, () => {});
  await truncate(path1, READ_CHUNK_BYTES);
  await expect(shrinking.pipeTo(async () => {})).rejects.toMatchObject({
    code: 'FileChanged',
    message: expect.stringContaining('shorter'),
  });

  const path2 = await fileOf(data);
  const held = await fileRangeBody(await listed(path2), 0, data.length, () => {}, true);
  let written = 0;
  await expect(
    held.pipeTo(async (chunk) => {
      written += chunk.length;
      // Touched while it is sent (its modification time changes): the last chunk is not sent.
      if (written === READ_CHUNK_BYTES) await utimes(path2, new Date(), new Date(Date.now() + 60_000));
    }),
  ).rejects.toMatchObject({ code: 'FileChanged', message: expect.stringContaining('nothing was stored') });
  expect(written).toBeLessThan(data.length);
});

it('lets go of its file when released before it ran', async () => {
  const file = await listed(await fileOf(randomBytes(100)));
  const body = await fileRangeBody(file, 0, 100, () => {});
  await body.release();
  await body.release();
  await expect(body.pipeTo(async () => {})).rejects.toThrow(/sent once/);
});
