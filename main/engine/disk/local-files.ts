// The files an upload sends, found lazily.
//
// A folder is walked one directory at a time with opendir, so a tree of a million files starts
// uploading at once and is never held in memory whole. Keys use "/" whatever the platform.

import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, opendir, rm, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import { BargeError } from '../errors.ts';
import { onLocalFileSystem } from './local-file-system.ts';
import path from 'node:path';

/**
 * Which local file, in which state: what a writer cannot put back (the device and inode of a file
 * replaced under its name, the change time of one rewritten with its modification time restored).
 */
export interface LocalFileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly ctimeMs: number;
  readonly mtimeMs: number;
  readonly size: number;
}

export interface LocalFile {
  readonly path: string;
  readonly key: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The device the file is on: with `ino`, which file it is. */
  readonly dev: number;
  /**
   * What a writer cannot put back: the inode (a file replaced by another under its name) and the
   * change time (a file rewritten in place with its modification time restored, as rsync --inplace
   * -t, cp -p and tar do). Compared with size and mtime before an upload is made whole.
   */
  readonly ino: number;
  readonly ctimeMs: number;
}

/**
 * A file found; a file or folder that could not be read (`error`); or an entry that is not sent,
 * and why (`skipped`: a named pipe, a device, a link not followed). `key` is where it would go: a key
 * for a file, a prefix ending in "/" for a folder, so that a retry can walk it again from there.
 */
export type WalkEntry =
  | ({ readonly ok: true } & LocalFile)
  | {
      readonly ok: false;
      readonly path: string;
      readonly key: string;
      readonly error: unknown;
      readonly skipped?: undefined;
    }
  | {
      readonly ok: false;
      readonly path: string;
      readonly key: string;
      readonly skipped: string;
      readonly error?: undefined;
    };

export interface WalkOptions {
  /**
   * Follow symbolic links to folders (their files are uploaded as if they were there), with loops
   * refused, as aws-cli and s5cmd do. Links to files are followed either way, unless false here.
   * Default true.
   */
  readonly followSymlinks?: boolean;
}

/**
 * Map each source to keys under `destination`.
 *
 * A file goes to `destination` itself when that names a key (no trailing "/", one source), or to
 * destination + its name. A folder keeps its own name: "photos" to "backup/" gives
 * "backup/photos/...", as when a folder is dropped onto a prefix in a file manager.
 */
export async function* walkSources(
  sources: readonly string[],
  destination: string,
  options: WalkOptions = {},
): AsyncGenerator<WalkEntry> {
  const keys = sourceKeys(sources, destination);
  for (const [index, source] of sources.entries()) yield* walkPath(source, keys[index]!, options);
}

/** Where each source goes: the key of a file, or the prefix (without its "/") of a folder. */
export function sourceKeys(sources: readonly string[], destination: string): string[] {
  const intoPrefix = destination === '' || destination.endsWith('/') || sources.length > 1;
  const prefix = intoPrefix && destination !== '' && !destination.endsWith('/') ? `${destination}/` : destination;
  return sources.map((source) => (intoPrefix ? `${prefix}${path.basename(path.resolve(source))}` : destination));
}

/**
 * Why two sources would write the same keys (both keep their own name under one prefix, as
 * a/report.txt and b/report.txt, or x/photos and y/photos), naming both; undefined if none do.
 * Checked before anything is sent: one would silently replace the other.
 */
export function sourcesCollide(sources: readonly string[], destination: string): string | undefined {
  const intoPrefix = destination === '' || destination.endsWith('/') || sources.length > 1;
  if (!intoPrefix) return undefined;
  const byName = new Map<string, string>();
  for (const source of sources) {
    const full = path.resolve(source);
    const name = path.basename(full);
    const other = byName.get(name);
    if (other !== undefined && other !== full) {
      return (
        `${other} and ${full} would both be uploaded as ` +
        `"${destination}${destination === '' || destination.endsWith('/') ? '' : '/'}${name}", one replacing ` +
        `the other; nothing was sent. Upload them to separate prefixes (one command each).`
      );
    }
    byName.set(name, full);
  }
  return undefined;
}

/** One path: a file to `key`, or a folder below `key` + "/" (a key ending in "/" is that folder). */
export async function* walkPath(source: string, key: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const folderKey = key.endsWith('/') ? key : `${key}/`;
  let info;
  try {
    info = await stat(source);
  } catch (error) {
    yield { ok: false, path: source, key, error: await brokenLinkOr(source, error) };
    return;
  }
  if (info.isDirectory()) {
    yield* walkFolder(source, folderKey, options.followSymlinks ?? true, [folderIdentity(info)]);
  } else if (info.isFile() && !key.endsWith('/')) {
    yield fileEntry(source, key, info);
  } else if (info.isFile()) {
    yield {
      ok: false,
      path: source,
      key,
      error: Object.assign(new Error('not a regular file or folder'), { code: 'ENOTFILE' }),
    };
  } else {
    yield { ok: false, path: source, key, skipped: `${source} is ${specialKind(info)}, not a file: it was skipped.` };
  }
}

/** Whether `now` (a fresh stat) is the file as it was listed: same size, times, device and inode. */
export function sameVersion(
  now: Pick<Stats, 'size' | 'mtimeMs' | 'dev' | 'ino' | 'ctimeMs'>,
  listed: Pick<LocalFile, 'size' | 'mtimeMs' | 'dev' | 'ino' | 'ctimeMs'>,
): boolean {
  return (
    now.size === listed.size &&
    now.mtimeMs === listed.mtimeMs &&
    now.dev === listed.dev &&
    now.ino === listed.ino &&
    now.ctimeMs === listed.ctimeMs
  );
}

/** The identity a finished object records of its local file (see LocalFileIdentity). */
export function identityOf(info: Pick<Stats, 'dev' | 'ino' | 'ctimeMs' | 'mtimeMs' | 'size'>): LocalFileIdentity {
  return { dev: info.dev, ino: info.ino, ctimeMs: info.ctimeMs, mtimeMs: info.mtimeMs, size: info.size };
}

/**
 * Whether `now` (a fresh stat) is still the local file a finished object recorded: same device,
 * inode, change and modification times, size. An identity not recorded (an older journal) proves
 * nothing: the object is done again.
 */
export function sameLocalFile(
  now: Pick<Stats, 'dev' | 'ino' | 'ctimeMs' | 'mtimeMs' | 'size'>,
  recorded: LocalFileIdentity | undefined,
): boolean {
  return (
    recorded !== undefined &&
    now.dev === recorded.dev &&
    now.ino === recorded.ino &&
    now.ctimeMs === recorded.ctimeMs &&
    now.mtimeMs === recorded.mtimeMs &&
    now.size === recorded.size
  );
}

export function fileEntry(file: string, key: string, info: Stats): WalkEntry {
  return {
    ok: true,
    path: file,
    key,
    size: info.size,
    mtimeMs: info.mtimeMs,
    dev: info.dev,
    ino: info.ino,
    ctimeMs: info.ctimeMs,
  };
}

/** A folder's identity, to know a link that leads back into a folder being walked (a loop). */
export function folderIdentity(info: Stats): string {
  return `${info.dev}:${info.ino}`;
}

/** What a special file is, in words. */
export function specialKind(info: Stats): string {
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'neither a file nor a folder';
}

/**
 * ENOENT on a path that is a symbolic link means the link is broken: said so, as a source (nothing is
 * "in the way" of an upload, as the download's wording of EBROKENLINK says).
 */
export async function brokenLinkOr(file: string, error: unknown): Promise<unknown> {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error;
  const link = await lstat(file).catch(() => undefined);
  return link?.isSymbolicLink()
    ? new BargeError(
        'EBROKENLINK',
        `${file} is a broken symbolic link (it leads to nothing): fix or remove the link.`,
        { cause: error },
      )
    : error;
}

/**
 * A file name's bytes as text, failing on bytes that are not UTF-8. `ignoreBOM`: a name may begin
 * with U+FEFF, and a decoder taking it for a byte-order mark would drop it ("\uFEFFa.txt" read as "a.txt").
 */
export const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A name's bytes shown safely: ASCII as it is, every other byte as \xNN. */
export function escapedBytes(name: Buffer): string {
  return [...name]
    .map((byte) =>
      byte >= 0x20 && byte < 0x7f && byte !== 0x5c
        ? String.fromCharCode(byte)
        : `\\x${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');
}

/** Entries a folder read brings at once (Node's default is 32: a round trip to the thread pool each). */
const DIR_ENTRIES_PER_READ = 256;

async function* walkFolder(
  folder: string,
  keyPrefix: string,
  followSymlinks: boolean,
  ancestors: readonly string[],
): AsyncGenerator<WalkEntry> {
  let dir;
  // Files are stat-ed on the loop where the folder is on a local file system (local-file-system.ts): a stat
  // through the thread pool cost the loop ~60-100 µs on two busy cores, a quarter of a small-file upload's
  // CPU profile; on the loop, a few µs. The loop still turns at each read of the folder's names.
  const statOnLoop = await onLocalFileSystem(folder);
  try {
    // Names as bytes: one that is not UTF-8 would otherwise be decoded lossily into a name that
    // does not exist ("caf\ufffd.txt"), and two such files would look like one.
    dir = await opendir(folder, { encoding: 'buffer' as BufferEncoding, bufferSize: DIR_ENTRIES_PER_READ });
  } catch (error) {
    yield { ok: false, path: folder, key: keyPrefix, error };
    return;
  }
  const subfolders: { name: string; identity: string }[] = [];
  for await (const entry of dir) {
    const raw = entry.name as unknown as Buffer;
    let name: string;
    try {
      name = STRICT_UTF8.decode(raw);
    } catch {
      const shown = path.join(folder, escapedBytes(raw));
      yield {
        ok: false,
        path: shown,
        key: keyPrefix + escapedBytes(raw),
        error: new BargeError(
          'InvalidFileName',
          `${shown}: its name is not valid UTF-8, and S3 keys must be; it was not uploaded. Rename it (the ` +
            `bytes that are not UTF-8 are shown as \\xNN).`,
        ),
      };
      continue;
    }
    const full = path.join(folder, name);
    const found = await entryKind(entry, full, keyPrefix + name, followSymlinks, ancestors);
    if (found.kind === 'folder') subfolders.push({ name, identity: found.identity });
    else if (found.kind === 'not-a-file') yield found.entry;
    else {
      let info: Stats;
      try {
        info = found.info ?? (statOnLoop ? statSync(full) : await stat(full));
      } catch (error) {
        yield { ok: false, path: full, key: keyPrefix + name, error };
        continue;
      }
      yield fileEntry(full, keyPrefix + name, info);
    }
  }
  subfolders.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, identity } of subfolders)
    yield* walkFolder(path.join(folder, name), `${keyPrefix}${name}/`, followSymlinks, [...ancestors, identity]);
}

/** What a folder's entry is to a walk: a file (its stat, when a link was followed to it), a folder, or neither. */
export type EntryKind =
  | { readonly kind: 'file'; readonly info?: Stats }
  | { readonly kind: 'folder'; readonly identity: string }
  | { readonly kind: 'not-a-file'; readonly entry: WalkEntry };

/**
 * One rule for both walks (this one, and ordered-walk.ts's in key order): links followed only when asked, a link
 * back to a folder the walk is inside skipped as a loop, and pipes, sockets and devices never read.
 */
export async function entryKind(
  entry: Dirent,
  full: string,
  key: string,
  followSymlinks: boolean,
  ancestors: readonly string[],
): Promise<EntryKind> {
  const skipped = (why: string, as = key): EntryKind => ({
    kind: 'not-a-file',
    entry: { ok: false, path: full, key: as, skipped: why },
  });
  if (entry.isDirectory()) {
    const info = await stat(full).catch(() => undefined);
    return { kind: 'folder', identity: info ? folderIdentity(info) : full };
  }
  if (entry.isFile()) return { kind: 'file' };
  if (entry.isSymbolicLink()) {
    if (!followSymlinks)
      return skipped(`${full} is a symbolic link, not followed (--no-follow-symlinks): it was skipped.`);
    let info: Stats;
    try {
      info = await stat(full);
    } catch (error) {
      return { kind: 'not-a-file', entry: { ok: false, path: full, key, error: await brokenLinkOr(full, error) } };
    }
    if (info.isFile()) return { kind: 'file', info };
    if (!info.isDirectory()) return skipped(`${full} is a link to ${specialKind(info)}, not a file: it was skipped.`);
    const identity = folderIdentity(info);
    return ancestors.includes(identity)
      ? skipped(`${full} is a symbolic link to a folder it is inside (a loop): it was skipped.`, `${key}/`)
      : { kind: 'folder', identity };
  }
  // A named pipe, a socket, a device: reading one could block forever or never end.
  const info = await lstat(full).catch(() => undefined);
  return skipped(`${full} is ${info ? specialKind(info) : 'neither a file nor a folder'}, not a file: it was skipped.`);
}

/**
 * Whether `folder` (or, while it does not exist yet, the nearest folder above it that does) treats
 * names that differ only in case as one: "Photo.jpg" and "photo.jpg" are then the same file. Found
 * by experiment (a folder's file system, not its platform, decides: Linux can mount FAT, macOS can
 * format case-sensitive APFS). Where nothing can be written there, the platform's usual answer.
 */
export async function folderIgnoresCase(
  folder: string,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
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
    return await stat(upper).then(
      () => true,
      () => false,
    );
  } finally {
    await rm(probe, { force: true });
  }
}

/** A file error as the system would give it, for toBargeError to word (with the path it names). */
export function fileError(code: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${file}`), { code, path: file });
}

async function nearestExistingFolder(folder: string): Promise<string> {
  for (let current = folder; ; current = path.dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    if (info?.isDirectory() || current === path.dirname(current)) return current;
  }
}

/**
 * mkdir -p, bounded, that says why it failed. Node's recursive mkdir answers ENOENT for any folder it
 * cannot make (a read-only disk, no permission) and loops forever where mkdir answers ENOENT while
 * the parent exists (/proc). Here each missing folder is made once, from the top: the first that
 * cannot be made fails at once with its own reason, and a file or a broken link in the way is named.
 */
export async function makeFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    const info = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      // ENOTDIR: something above is a file; the walk up finds it.
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw error;
    });
    if (info) {
      const target = info.isSymbolicLink() ? await stat(current).catch(() => undefined) : info;
      if (!target) throw fileError('EBROKENLINK', current);
      if (!target.isDirectory()) throw fileError('ENOTDIR', current);
      break;
    }
    missing.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const each of missing) {
    try {
      await mkdir(each);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Made meanwhile by another download into the same folder.
      if (code === 'EEXIST' && (await stat(each).catch(() => undefined))?.isDirectory()) continue;
      if (code === 'ENOENT') throw fileError('ENOFOLDERHERE', each);
      throw error;
    }
  }
}
