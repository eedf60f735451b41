// The files an upload sends, found lazily.
//
// A folder is walked one directory at a time with opendir, so a tree of a million files starts
// uploading at once and is never held in memory whole. Keys use "/" whatever the platform.

import { randomBytes } from 'node:crypto';
import { mkdir, open, opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export interface LocalFile {
  readonly path: string;
  readonly key: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * A file found, or a file or folder that could not be read. `key` is where it would go: a key for a
 * file, a prefix ending in "/" for a folder, so that a retry can walk it again from there.
 */
export type WalkEntry = ({ readonly ok: true } & LocalFile) | { readonly ok: false; readonly path: string; readonly key: string; readonly error: unknown };

/**
 * Map each source to keys under `destination`.
 *
 * A file goes to `destination` itself when that names a key (no trailing "/", one source), or to
 * destination + its name. A folder keeps its own name: "photos" to "backup/" gives
 * "backup/photos/...", as when a folder is dropped onto a prefix in a file manager.
 */
export async function* walkSources(sources: readonly string[], destination: string): AsyncGenerator<WalkEntry> {
  const intoPrefix = destination === '' || destination.endsWith('/') || sources.length > 1;
  const prefix = intoPrefix && destination !== '' && !destination.endsWith('/') ? `${destination}/` : destination;
  for (const source of sources) {
    const name = path.basename(path.resolve(source));
    yield* walkPath(source, intoPrefix ? `${prefix}${name}` : destination);
  }
}

/** One path: a file to `key`, or a folder below `key` + "/" (a key ending in "/" is that folder). */
export async function* walkPath(source: string, key: string): AsyncGenerator<WalkEntry> {
  const folderKey = key.endsWith('/') ? key : `${key}/`;
  let info;
  try {
    info = await stat(source);
  } catch (error) {
    yield { ok: false, path: source, key, error };
    return;
  }
  if (info.isDirectory()) {
    yield* walkFolder(source, folderKey);
  } else if (info.isFile() && !key.endsWith('/')) {
    yield { ok: true, path: source, key, size: info.size, mtimeMs: info.mtimeMs };
  } else {
    yield { ok: false, path: source, key, error: Object.assign(new Error('not a regular file or folder'), { code: 'ENOTFILE' }) };
  }
}

async function* walkFolder(folder: string, keyPrefix: string): AsyncGenerator<WalkEntry> {
  let dir;
  try {
    dir = await opendir(folder);
  } catch (error) {
    yield { ok: false, path: folder, key: keyPrefix, error };
    return;
  }
  const subfolders: string[] = [];
  for await (const entry of dir) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      subfolders.push(entry.name);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      try {
        // Symbolic links to files are followed; links to folders are not (they can loop).
        const info = await stat(full);
        if (info.isFile()) yield { ok: true, path: full, key: keyPrefix + entry.name, size: info.size, mtimeMs: info.mtimeMs };
      } catch (error) {
        yield { ok: false, path: full, key: keyPrefix + entry.name, error };
      }
    }
  }
  subfolders.sort();
  for (const name of subfolders) yield* walkFolder(path.join(folder, name), `${keyPrefix}${name}/`);
}

/**
 * Whether `folder` (or, while it does not exist yet, the nearest folder above it that does) treats
 * names that differ only in case as one: "Photo.jpg" and "photo.jpg" are then the same file. Found
 * by experiment (a folder's file system, not its platform, decides: Linux can mount FAT, macOS can
 * format case-sensitive APFS). Where nothing can be written there, the platform's usual answer.
 */
export async function folderIgnoresCase(folder: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const existing = await nearestExistingFolder(path.resolve(folder));
  const probe = path.join(existing, `.barge-case-probe-${randomBytes(6).toString('hex')}`);
  try {
    const handle = await open(probe, 'wx');
    await handle.close();
  } catch {
    return platform === 'win32' || platform === 'darwin';
  }
  try {
    const upper = path.join(existing, path.basename(probe).toUpperCase());
    return await stat(upper).then(() => true, () => false);
  } finally {
    await rm(probe, { force: true });
  }
}

async function nearestExistingFolder(folder: string): Promise<string> {
  for (let current = folder; ; current = path.dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    if (info?.isDirectory() || current === path.dirname(current)) return current;
  }
}

/**
 * mkdir -p that reports the real reason it failed. (Node's recursive mkdir answers ENOENT when a
 * missing folder cannot be made, on a read-only disk or without permission; the first folder that
 * cannot be made tells why.)
 */
export async function makeFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const existing = await nearestExistingFolder(path.resolve(folder));
    const first = path.join(existing, path.relative(existing, path.resolve(folder)).split(path.sep)[0]!);
    // Throws the first folder's own error (EROFS, EACCES, ENOTDIR); if that works after all, the rest may too.
    await mkdir(first);
    await mkdir(folder, { recursive: true });
  }
}
