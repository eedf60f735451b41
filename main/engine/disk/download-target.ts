// The folder a download writes into, held open for the whole job, and every folder below it opened
// from it: what lands where cannot be changed by whoever else can write there.
//
// Checking a path and then using it leaves a moment in which another user who can write inside the
// target can swap a folder for a symlink (or swap the target itself), and a download would follow
// it out, even over ~/.ssh/authorized_keys. So on Linux the target is opened once, when the job
// starts, and each folder below it is opened from the one above through /proc/self/fd/N (which
// names the open folder itself, wherever it has moved). Each folder opened is checked for where it
// really is (the descriptor's own path, which no swap can change) before anything is made or
// written in it; files are then created, written, renamed and removed by names inside that open
// folder. Where /proc/self/fd does not exist (macOS, Windows), the real paths are checked before
// and after each folder is made, and the moment between a check and its use remains.

import { existsSync } from 'node:fs';
import { constants } from 'node:fs';
import { readlinkSync } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { assertInside, isInside, realPathOf } from './confined-path.ts';
import { BargeError, toBargeError } from '../errors.ts';
import { fileError, makeFolder } from './local-files.ts';

const ANCHORS = existsSync('/proc/self/fd');
/**
 * Folders are opened with O_PATH on Linux (Node does not name it): a handle to the folder itself,
 * needing no read permission, so a drop-box folder (write and search only) still takes downloads.
 */
const O_PATH = process.platform === 'linux' ? 0o10000000 : 0;
const FOLDER_FLAGS = (O_PATH || constants.O_RDONLY) | constants.O_DIRECTORY;
/**
 * The longest path Linux names (PATH_MAX, 4096 with its NUL). A folder past it can be made from its
 * parent's descriptor, but where it is can no longer be read (ENAMETOOLONG), so it cannot be checked.
 */
const LONGEST_PATH_BYTES = 4095;
/**
 * Folders held open past their last object, so the next object in the same folder does not open it
 * again; the least recently used are closed beyond this many (descriptors are limited, often to 1,024).
 */
const MOST_FOLDERS_HELD = 32;

/** A folder of the target, open: names below it resolve inside it. */
export interface OpenFolder {
  /** The folder as the user knows it (for messages). */
  readonly shown: string;
  /** Where a file of this folder is reached, given its name or its shown path. */
  at(file: string): string;
  /** An error whose path is the anchored one, with the shown path instead. */
  explain(error: unknown): unknown;
  close(): Promise<void>;
}

/** A folder below the target, open (undefined: the target itself), and how many objects are using it. */
interface HeldFolder {
  readonly relative: string;
  readonly opened: Promise<FileHandle | undefined>;
  users: number;
}

export class DownloadTarget {
  private readonly shown: string;
  private readonly real: string;
  /** The target's nearest folder that exists (the target itself once it does), open. */
  private readonly anchor: FileHandle | undefined;
  /** The folders from the anchor down to the target that do not exist yet, made by the first `folder` call. */
  private readonly missing: readonly string[];
  private made: Promise<FileHandle | undefined> | undefined;
  /** Folders below the target opened for the job, by their path relative to it, most recently used last. */
  private readonly held = new Map<string, HeldFolder>();
  private readonly mode: number | undefined;

  private constructor(
    shown: string,
    real: string,
    anchor: FileHandle | undefined,
    missing: readonly string[],
    mode: number | undefined,
  ) {
    this.shown = shown;
    this.real = real;
    this.anchor = anchor;
    this.missing = missing;
    this.mode = mode;
  }

  /** Where the target really is (its real path, or the one it will have once made). */
  get realPath(): string {
    return this.real;
  }

  /**
   * The target folder, looked at and held, never made here: nothing is created until the first
   * object is ready to be written (`folder`). Its nearest existing folder is opened (on Linux) and
   * where the target really is, or will be, is read from that descriptor. `confinedTo` (a host's
   * download root): the target must really be below it, now. `wasAt`: where an earlier run of the
   * job found it; a target that now leads elsewhere (swapped for a symlink between runs) is refused.
   */
  static async open(folder: string, confinedTo?: string, wasAt?: string): Promise<DownloadTarget> {
    const shown = path.resolve(folder);
    const { anchor, missing } = ANCHORS ? await openNearest(shown) : { anchor: undefined, missing: [] };
    try {
      const real = anchor
        ? path.join(await whereIs(anchor, path.join(shown, ...missing.map(() => '..'))), ...missing)
        : await realPathOf(shown);
      if (anchor && Buffer.byteLength(real) > LONGEST_PATH_BYTES) throw tooLong(shown, real, 'nothing was downloaded');
      if (confinedTo !== undefined && !isInside(await realPathOf(confinedTo), real)) {
        throw new BargeError(
          'OutsideDownloadRoot',
          `Downloads through this host go only below ${confinedTo}; ${shown} is not (really ${real}), so ` +
            `nothing was downloaded. Start the download again to a folder below ${confinedTo}.`,
        );
      }
      if (wasAt !== undefined && real !== wasAt) {
        throw new BargeError(
          'UnsafePath',
          `${shown} now leads to ${real}, not to ${wasAt} where this download began: it was not resumed there. ` +
            `If that is meant, start the download afresh (--no-resume).`,
        );
      }
      // A host's download folders are its user's alone, as its download root is.
      return new DownloadTarget(shown, real, anchor, missing, confinedTo === undefined ? undefined : 0o700);
    } catch (error) {
      await anchor?.close();
      throw error;
    }
  }

  /** `folder` (the target or a folder below it, as shown), made if missing, opened for `what` to be written in. */
  async folder(folder: string, what: string): Promise<OpenFolder> {
    const shown = path.resolve(folder);
    const relative = path.relative(this.shown, shown);
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
      throw new BargeError(
        'UnsafePath',
        `${what} would be written into ${shown}, outside ${this.shown}; it was not downloaded.`,
      );
    if (!this.anchor) return this.checkedFolder(shown, what);
    const target = (await this.target())!;
    // Each folder is opened once for the job (not once an object) and kept while it is in use.
    let held = this.held.get(relative);
    const reused = held !== undefined;
    if (held) this.held.delete(relative);
    else held = { relative, opened: this.openPath(relative, shown, what, target), users: 0 };
    this.held.set(relative, held);
    held.users++;
    const entry = held;
    let handle: FileHandle | undefined;
    try {
      handle = await entry.opened;
      // Checked again at each use: a folder moved out of the target since it was opened is refused.
      if (handle) await this.assertBelow(handle, shown, what, target);
    } catch (error) {
      // Not kept: opened afresh from the target (once), as if it had never been held.
      if (this.held.get(relative) === entry) this.held.delete(relative);
      await this.release(entry);
      if (reused) return this.folder(folder, what);
      throw error;
    }
    const base = `/proc/self/fd/${(handle ?? target).fd}`;
    let released = false;
    return {
      shown,
      at: (file) => `${base}/${path.basename(file)}`,
      explain: (error) => shownPath(error, base, shown),
      close: async () => {
        if (released) return;
        released = true;
        await this.release(entry);
      },
    };
  }

  /** One object done with a held folder: closed if it is no longer held and no other object uses it. */
  private async release(entry: HeldFolder): Promise<void> {
    entry.users--;
    if (entry.users === 0 && this.held.get(entry.relative) !== entry)
      await (await entry.opened.catch(() => undefined))?.close();
    await this.closeIdle();
  }

  /** The folders held, least recently used first, past MOST_FOLDERS_HELD: closed once no object uses them. */
  private async closeIdle(): Promise<void> {
    if (this.held.size <= MOST_FOLDERS_HELD) return;
    for (const [relative, entry] of this.held) {
      if (this.held.size <= MOST_FOLDERS_HELD) return;
      if (entry.users > 0) continue;
      this.held.delete(relative);
      await (await entry.opened.catch(() => undefined))?.close();
    }
  }

  /** The folder `relative` below the open target, each folder on the way made if missing and checked. */
  private async openPath(
    relative: string,
    shown: string,
    what: string,
    target: FileHandle,
  ): Promise<FileHandle | undefined> {
    // Past the longest path the system names, no folder is made: none could be checked.
    const deepest = path.join(await whereIs(target, this.shown), relative);
    if (Buffer.byteLength(deepest) > LONGEST_PATH_BYTES) throw tooLong(shown, deepest, `${what} was not downloaded`);
    let current: FileHandle | undefined;
    let base = `/proc/self/fd/${target.fd}`;
    let walked = this.shown;
    try {
      for (const segment of relative === '' ? [] : relative.split(path.sep)) {
        walked = path.join(walked, segment);
        const next = await this.openBelow(`${base}/${segment}`, walked, what, target);
        await current?.close();
        current = next;
        base = `/proc/self/fd/${next.fd}`;
      }
    } catch (error) {
      await current?.close();
      throw error;
    }
    return current;
  }

  async close(): Promise<void> {
    for (const entry of this.held.values()) await (await entry.opened.catch(() => undefined))?.close();
    this.held.clear();
    const made = await this.made?.catch(() => undefined);
    if (made !== this.anchor) await made?.close();
    await this.anchor?.close();
  }

  /**
   * The target, open; made first if missing, each folder from its open parent (never through a
   * path), and each checked to be really where the target was found to lead: a folder swapped for
   * a link meanwhile is refused before anything is made through it. Once, for every caller.
   */
  private target(): Promise<FileHandle | undefined> {
    this.made ??= (async () => {
      let current = this.anchor!;
      let real = await whereIs(current, path.join(this.shown, ...this.missing.map(() => '..')));
      let walked = path.join(this.shown, ...this.missing.map(() => '..'));
      try {
        for (const segment of this.missing) {
          walked = path.join(walked, segment);
          real = path.join(real, segment);
          const anchored = `/proc/self/fd/${current.fd}/${segment}`;
          await mkdir(anchored, this.mode === undefined ? undefined : { mode: this.mode }).catch(
            (error: NodeJS.ErrnoException) => {
              if (error.code === 'ENOENT') throw fileError('ENOFOLDERHERE', walked);
              // Made meanwhile by another download into the same folder: checked as it is opened.
              if (error.code !== 'EEXIST') throw shownPath(error, anchored, walked);
            },
          );
          const next = await openFolder(anchored).catch((error: unknown) => {
            throw shownPath(error, anchored, walked);
          });
          if (!next)
            throw fileError(
              (await lstat(anchored).catch(() => undefined))?.isSymbolicLink() ? 'EBROKENLINK' : 'ENOENT',
              walked,
            );
          if (current !== this.anchor) await current.close();
          current = next;
          const now = await whereIs(next, walked);
          if (now !== real)
            throw new BargeError(
              'UnsafePath',
              `${walked} leads to ${now}, not to ${real} where the download was to go; nothing was downloaded.`,
            );
        }
      } catch (error) {
        if (current !== this.anchor) await current.close();
        throw toBargeError(error, `download into ${this.shown}`);
      }
      return current;
    })();
    return this.made;
  }

  /**
   * One folder, made if missing, opened, and refused unless it really lies inside the target: inside
   * where the open target is now (a target moved mid-job takes the download with it), never where a
   * symbolic link leads out of it.
   */
  private async openBelow(anchored: string, shown: string, what: string, target: FileHandle): Promise<FileHandle> {
    const opened = (): Promise<FileHandle | undefined> =>
      openFolder(anchored).catch((error: unknown) => {
        throw shownPath(error, anchored, shown);
      });
    let handle = await opened();
    if (!handle) {
      try {
        await mkdir(anchored);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') throw fileError('ENOFOLDERHERE', shown);
        if (code !== 'EEXIST') throw shownPath(error, anchored, shown);
      }
      handle = await opened();
      if (!handle)
        throw fileError(
          (await lstat(anchored).catch(() => undefined))?.isSymbolicLink() ? 'EBROKENLINK' : 'ENOENT',
          shown,
        );
    }
    try {
      await this.assertBelow(handle, shown, what, target);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Refused unless the open folder really lies inside where the open target is now. */
  private async assertBelow(handle: FileHandle, shown: string, what: string, target: FileHandle): Promise<void> {
    const real = await whereIs(handle, shown);
    if (!isInside(await whereIs(target, this.shown), real)) {
      throw new BargeError(
        'UnsafePath',
        `${what} would be written into ${shown}, which a symbolic link leads outside ${this.shown} (into ` +
          `${real}); it was not downloaded.`,
      );
    }
  }

  /** Without descriptors: the real path checked before the folder is made and after (the target's too). */
  private async checkedFolder(shown: string, what: string): Promise<OpenFolder> {
    this.made ??= (async () => {
      if ((await realPathOf(this.shown)) !== this.real)
        throw new BargeError(
          'UnsafePath',
          `${this.shown} no longer leads to ${this.real}, where the download was to go; nothing was downloaded.`,
        );
      await makeFolder(this.shown).catch((error: unknown) => {
        throw toBargeError(error, `download into ${this.shown}`);
      });
      return undefined;
    })();
    await this.made;
    await assertInside(this.shown, shown, what);
    await makeFolder(shown);
    await assertInside(this.shown, shown, what);
    return {
      shown,
      at: (file) => path.join(shown, path.basename(file)),
      explain: (error) => error,
      close: async () => undefined,
    };
  }
}

/**
 * The nearest folder of `shown` that exists, open (a link to a folder is followed: where it really
 * leads is read from the descriptor), and the names below it that do not exist yet.
 */
async function openNearest(shown: string): Promise<{ anchor: FileHandle; missing: string[] }> {
  const missing: string[] = [];
  for (let current = shown; ; current = path.dirname(current)) {
    const handle = await openFolder(current).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTDIR') throw error;
      // A file in the way: this very name (said, as making the folder would say it), or one above.
      if (await lstat(current).catch(() => undefined)) throw fileError('ENOTDIR', current);
      return undefined;
    });
    if (handle) return { anchor: handle, missing };
    if (path.dirname(current) === current) throw fileError('ENOENT', current);
    missing.unshift(path.basename(current));
  }
}

/** Where an open folder really is now; a failure names it as `shown`, never as /proc/self/fd/N. */
async function whereIs(folder: FileHandle, shown: string): Promise<string> {
  const anchored = `/proc/self/fd/${folder.fd}`;
  // Read on the loop: /proc answers from memory, never from a disk, and it is read twice an object. Through
  // the thread pool each cost ~60-100 µs of the loop on two busy cores (a tenth of a small download's CPU).
  try {
    return readlinkSync(anchored);
  } catch (error) {
    throw shownPath(error, anchored, abbreviated(shown));
  }
}

/** A folder past the longest path the system names: refused before anything is made. */
function tooLong(shown: string, real: string, outcome: string): BargeError {
  const bytes = Buffer.byteLength(real).toLocaleString('en-US');
  return new BargeError(
    'ENAMETOOLONG',
    `The folder ${abbreviated(shown)} would be ${bytes} bytes from /, past the longest path this system names ` +
      `(${LONGEST_PATH_BYTES.toLocaleString('en-US')} bytes): ${outcome}, and no folder was made for it. ` +
      `Choose a target folder with a shorter path.`,
  );
}

/** The longest path a message repeats whole; a longer one keeps its beginning and its end. */
const LONGEST_SHOWN_PATH = 200;

function abbreviated(shown: string): string {
  return shown.length <= LONGEST_SHOWN_PATH
    ? shown
    : `${shown.slice(0, 80)}…${shown.slice(-(LONGEST_SHOWN_PATH - 81))}`;
}

/** The folder open, or undefined if there is none by that name; a file in the way says so. */
async function openFolder(anchored: string): Promise<FileHandle | undefined> {
  try {
    return await open(anchored, FOLDER_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** `error` with its path shown as the user knows it, not as /proc/self/fd/N/... */
function shownPath(error: unknown, anchored: string, shown: string): unknown {
  const e = error as NodeJS.ErrnoException & { dest?: string };
  if (typeof e?.path === 'string' && e.path.startsWith(anchored)) e.path = shown + e.path.slice(anchored.length);
  if (typeof e?.dest === 'string' && e.dest.startsWith(anchored)) e.dest = shown + e.dest.slice(anchored.length);
  if (typeof e?.message === 'string') e.message = e.message.split(anchored).join(shown);
  return e;
}
