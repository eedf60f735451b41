import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open, rename, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { LocalFile } from '../../../../../main/engine/disk/local-files.ts';
import { madeUpAsRead, openSource, readSmallSource } from '../../../../../main/engine/disk/source-file.ts';

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

it('opens a source as it was listed, and refuses another file that took its name', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-source-'));
  const file = path.join(dir, 'a.bin');
  await writeFile(file, 'listed');
  const before = await listed(file);
  const handle = await openSource(before);
  await handle.close();
  await writeFile(path.join(dir, 'b.bin'), 'other!');
  await rename(path.join(dir, 'b.bin'), file);
  await expect(openSource(before)).rejects.toMatchObject({
    code: 'FileChanged',
    message: `${file} changed while it was being uploaded: it is no longer the file that was listed (another file took its name); nothing was stored.`,
  });
});

it(
  'a named pipe swapped in for a source fails at once as changed, instead of waiting for a writer',
  { timeout: 5000 },
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-source-'));
    const file = path.join(dir, 'big.bin');
    await writeFile(file, Buffer.alloc(1024));
    const before = await listed(file);
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await rename(fifo, file);
    try {
      await expect(openSource(before)).rejects.toMatchObject({
        code: 'FileChanged',
        message: `${file} changed while it was being uploaded: it is no longer the file that was listed (it is now a named pipe (FIFO)); nothing was stored.`,
      });
    } finally {
      // Had the open waited for a writer, this lets it go: the test fails instead of hanging.
      await open(file, constants.O_WRONLY | constants.O_NONBLOCK).then(
        (handle) => handle.close(),
        () => undefined,
      );
    }
  },
);

it('knows a file system whose files are made up as they are read, and a regular one', async () => {
  expect(await madeUpAsRead('/proc/self/status')).toBe('procfs');
  expect(await madeUpAsRead(os.tmpdir())).toBeUndefined();
});

it(
  'reads a small source whole, with the checks openSource makes: changed, replaced or a named pipe, it is refused at once',
  { timeout: 5000 },
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-source-'));
    const file = path.join(dir, 'small.bin');
    await writeFile(file, 'twelve bytes');
    const before = await listed(file);
    expect((await readSmallSource(before)).toString()).toBe('twelve bytes');
    // Changed in place since it was listed: refused.
    await writeFile(file, 'twelve bytes and more');
    await expect(readSmallSource(before)).rejects.toMatchObject({ code: 'FileChanged' });
    await writeFile(file, 'twelve bytes');
    // Another file under its name, or a named pipe: refused at once, as changed.
    await writeFile(path.join(dir, 'other.bin'), 'other bytes!');
    await rename(path.join(dir, 'other.bin'), file);
    await expect(readSmallSource(before)).rejects.toMatchObject({
      code: 'FileChanged',
      message: expect.stringContaining('another file took its name'),
    });
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const pipeListed = { ...before, path: fifo };
    await expect(readSmallSource(pipeListed)).rejects.toMatchObject({
      code: 'FileChanged',
      message: expect.stringContaining('named pipe'),
    });
  },
);

it('reads a source on a file system that is not a known local one through the thread pool, with the same result', async () => {
  // /proc is no local disk file system: the pool is used. It says its files are empty; one byte comes back.
  const proc = await listed('/proc/self/status');
  expect(proc.size).toBe(0);
  expect((await readSmallSource(proc)).length).toBe(1);
});
