// Opening a file an upload sends, again: for each part, each checksum read, a small file's one read.
//
// Between the listing and a read the path may come to lead elsewhere: to another file, or to a named
// pipe, whose plain open() waits for a writer and holds one of Node's four pool threads until then
// (a cancel could never finish: it waits for the reads in flight). So the path is opened with
// O_NONBLOCK, which changes nothing for a regular file and makes a FIFO's open return at once, and
// what was opened is checked by its descriptor before a byte is read: a regular file, the very one
// listed (device and inode), unchanged since (size and times).
//
// Files the system makes up as they are read (/proc, /sys) report a size that is not their content's,
// so they fail as "changed" on every try; madeUpAsRead tells such a file system apart, from its type.

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, statfs } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { BargeError } from '../errors.ts';
import { onLocalFileSystem } from './local-file-system.ts';
import { sameVersion, specialKind } from './local-files.ts';
import type { LocalFile } from './local-files.ts';

/** O_NONBLOCK where the platform has it (not Windows, which has no FIFOs to block on). */
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** The file as it was listed, opened for reading; FileChanged if the path leads elsewhere now. */
export async function openSource(file: LocalFile): Promise<FileHandle> {
  const handle = await open(file.path, constants.O_RDONLY | NONBLOCK);
  try {
    assertStillListed(await handle.stat(), file);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * A small source's bytes (at most `size` + 1, so growth shows), with the same checks as openSource.
 *
 * Read on the event loop where that is safe, because it is cheaper: a read through the thread pool
 * takes four trips (open, fstat, read, close), and on 2,000 files of 64 KiB those cost 0.2-0.3 s of
 * CPU of about 1.5 s (measured with `npm run bench`, small-up). Safe means a local file system, whose
 * reads of a small file take microseconds; on a network or FUSE file system a read may wait on the
 * network, so there the pool is used and the loop (progress, cancel) never waits.
 */
export async function readSmallSource(file: LocalFile): Promise<Buffer> {
  if (await onLocalDevice(file)) {
    const fd = openSync(file.path, constants.O_RDONLY | NONBLOCK);
    try {
      assertStillListed(fstatSync(fd), file);
      const buffer = Buffer.allocUnsafe(file.size + 1);
      return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0));
    } finally {
      closeSync(fd);
    }
  }
  const handle = await openSource(file);
  try {
    const buffer = Buffer.allocUnsafe(file.size + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** What an opened source must be: a regular file, the very one listed, unchanged since. */
function assertStillListed(now: Stats, file: LocalFile): void {
  if (!now.isFile()) throw noLongerListed(file, `it is now ${now.isDirectory() ? 'a folder' : specialKind(now)}`);
  if (now.dev !== file.dev || now.ino !== file.ino) throw noLongerListed(file, 'another file took its name');
  if (!sameVersion(now, file))
    throw new BargeError(
      'FileChanged',
      `${file.path} changed while it was being uploaded: nothing was stored; retry when it no longer changes.`,
    );
}

/** Whether each device (by its number) is on a local file system; asked once per device. */
const localDevices = new Map<number, Promise<boolean>>();

function onLocalDevice(file: LocalFile): Promise<boolean> {
  let local = localDevices.get(file.dev);
  if (!local) {
    local = onLocalFileSystem(file.path);
    localDevices.set(file.dev, local);
  }
  return local;
}

function noLongerListed(file: LocalFile, why: string): BargeError {
  return new BargeError(
    'FileChanged',
    `${file.path} changed while it was being uploaded: it is no longer the file that was listed (${why}); ` +
      `nothing was stored.`,
  );
}

/** File systems whose files are made up as they are read (statfs f_type, from linux/magic.h). */
const MADE_UP_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'procfs'],
  [0x62656572, 'sysfs'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x62656570, 'configfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
]);

/**
 * The name of the file system `path` is on, if its files are made up as they are read; undefined otherwise (or
 * unknown).
 */
export async function madeUpAsRead(path: string): Promise<string | undefined> {
  const info = await statfs(path).catch(() => undefined);
  return info ? MADE_UP_FILE_SYSTEMS.get(info.type) : undefined;
}

/** Why a file made up as it is read cannot be uploaded as it is, and what to do. */
export function sizeUnknown(file: LocalFile, fileSystem: string | undefined): BargeError {
  const says =
    file.size === 0 ? 'says it is empty but is not' : `says it holds ${file.size} bytes, which is not what it holds`;
  const where = fileSystem
    ? `it is on a ${fileSystem} file system, as files in /proc and /sys are`
    : 'as files in /proc and /sys are';
  return new BargeError(
    'SizeUnknown',
    `${file.path} ${says}: it is made up as it is read (${where}), so its size cannot be known before it is ` +
      `sent. Copy it to a regular file first (cat FILE > COPY), and upload the copy.`,
  );
}
