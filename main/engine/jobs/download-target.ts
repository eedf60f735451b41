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
import { lstat, mkdir, open, readlink, realpath } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { assertInside, isInside } from './confined-path.ts';
import { BargeError } from '../errors.ts';
import { fileError, makeFolder } from './local-files.ts';

const ANCHORS = existsSync('/proc/self/fd');
/**
 * Folders are opened with O_PATH on Linux (Node does not name it): a handle to the folder itself,
 * needing no read permission, so a drop-box folder (write and search only) still takes downloads.
 */
const O_PATH = process.platform === 'linux' ? 0o10000000 : 0;
const FOLDER_FLAGS = (O_PATH || constants.O_RDONLY) | constants.O_DIRECTORY;

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

export class DownloadTarget {
  private readonly shown: string;
  private readonly real: string;
  private readonly handle: FileHandle | undefined;

  private constructor(shown: string, real: string, handle: FileHandle | undefined) {
    this.shown = shown;
    this.real = real;
    this.handle = handle;
  }

  /** Where the target really is (its real path, as opened). */
  get realPath(): string {
    return this.real;
  }

  /**
   * The target folder, made if missing and opened. `confinedTo` (a host's download root): the
   * target must really be below it, now. `wasAt`: where an earlier run of the job found it; a target
   * that now leads elsewhere (swapped for a symlink between runs) is refused.
   */
  static async open(folder: string, confinedTo?: string, wasAt?: string): Promise<DownloadTarget> {
    const shown = path.resolve(folder);
    await makeFolder(shown);
    const handle = ANCHORS ? await open(shown, FOLDER_FLAGS) : undefined;
    try {
      const real = handle ? await readlink(`/proc/self/fd/${handle.fd}`) : await realpath(shown);
      if (confinedTo !== undefined && !isInside(await realpath(confinedTo).catch(() => path.resolve(confinedTo)), real)) {
        throw new BargeError('OutsideDownloadRoot', `Downloads through this host go only below ${confinedTo}; ${shown} is not (really ${real}), so nothing was downloaded. Start the download again to a folder below ${confinedTo}.`);
      }
      if (wasAt !== undefined && real !== wasAt) {
        throw new BargeError('UnsafePath', `${shown} now leads to ${real}, not to ${wasAt} where this download began: it was not resumed there. If that is meant, start the download afresh (--no-resume).`);
      }
      return new DownloadTarget(shown, real, handle);
    } catch (error) {
      await handle?.close();
      throw error;
    }
  }

  /** `folder` (the target or a folder below it, as shown), made if missing, opened for `what` to be written in. */
  async folder(folder: string, what: string): Promise<OpenFolder> {
    const shown = path.resolve(folder);
    const relative = path.relative(this.shown, shown);
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) throw new BargeError('UnsafePath', `${what} would be written into ${shown}, outside ${this.shown}; it was not downloaded.`);
    if (!this.handle) return this.checkedFolder(shown, what);
    let current: FileHandle | undefined;
    let base = `/proc/self/fd/${this.handle.fd}`;
    let walked = this.shown;
    try {
      for (const segment of relative === '' ? [] : relative.split(path.sep)) {
        walked = path.join(walked, segment);
        const next = await this.openBelow(`${base}/${segment}`, walked, what);
        await current?.close();
        current = next;
        base = `/proc/self/fd/${next.fd}`;
      }
    } catch (error) {
      await current?.close();
      throw error;
    }
    const opened = current;
    return {
      shown,
      at: (file) => `${base}/${path.basename(file)}`,
      explain: (error) => shownPath(error, base, shown),
      close: async () => { await opened?.close(); },
    };
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }

  /** One folder, made if missing, opened, and refused unless it really lies inside the target. */
  private async openBelow(anchored: string, shown: string, what: string): Promise<FileHandle> {
    const opened = (): Promise<FileHandle | undefined> => openFolder(anchored).catch((error: unknown) => {
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
      if (!handle) throw fileError((await lstat(anchored).catch(() => undefined))?.isSymbolicLink() ? 'EBROKENLINK' : 'ENOENT', shown);
    }
    const real = await readlink(`/proc/self/fd/${handle.fd}`);
    if (!isInside(this.real, real)) {
      await handle.close();
      throw new BargeError('UnsafePath', `${what} would be written into ${shown}, which a symbolic link leads outside ${this.shown} (into ${real}); it was not downloaded.`);
    }
    return handle;
  }

  /** Without descriptors: the real path checked before the folder is made and after. */
  private async checkedFolder(shown: string, what: string): Promise<OpenFolder> {
    await assertInside(this.shown, shown, what);
    await makeFolder(shown);
    await assertInside(this.shown, shown, what);
    return { shown, at: (file) => path.join(shown, path.basename(file)), explain: (error) => error, close: async () => undefined };
  }
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
