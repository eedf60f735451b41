// Staging folders a host left behind when it stopped without closing (killed, or crashed), removed
// when the next one starts.
//
// Each host makes its folder in the system's temporary folder, named after its process:
// barge-web-uploads-<pid>-XXXXXX. A folder is left only while a process with that id runs: another
// host on the same machine keeps its files, and an id reused by an unrelated process only delays
// the cleaning (a folder is never removed while its host might run). Folders of the older naming
// (no pid: barge-web-uploads-XXXXXX) cannot say whose they are: they go once nothing in them has
// changed for LEGACY_IDLE_MS. Only this user's real folders are looked at, never through a link.

import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

export const STAGING_FOLDER_PREFIX = 'barge-web-uploads-';
/** A folder of the older naming goes once it and its batches have been untouched this long. */
export const LEGACY_IDLE_MS = 24 * 60 * 60 * 1000;

export interface LeftoverOptions {
  /** Whether a process with this id runs (default: asked of the system). */
  readonly isRunning?: (pid: number) => boolean;
  readonly now?: () => number;
}

/** The prefix of this process's own staging folder (mkdtemp adds six characters). */
export function ownStagingPrefix(): string {
  return `${STAGING_FOLDER_PREFIX}${process.pid}-`;
}

/** Removes the staging folders below `temporaryDir` no running host owns; the names removed. */
export async function removeLeftoverStaging(temporaryDir: string, options: LeftoverOptions = {}): Promise<string[]> {
  const isRunning = options.isRunning ?? processRuns;
  const now = options.now ?? Date.now;
  const names = await readdir(temporaryDir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(STAGING_FOLDER_PREFIX)) continue;
    const folder = path.join(temporaryDir, name);
    if (!(await isOwnFolder(folder))) continue;
    const owner = /^barge-web-uploads-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    const legacy = /^barge-web-uploads-[A-Za-z0-9]{6}$/.test(name);
    const stale = owner
      ? Number(owner[1]) !== process.pid && !isRunning(Number(owner[1]))
      : legacy && now() - (await lastChange(folder)) > LEGACY_IDLE_MS;
    if (!stale) continue;
    await rm(folder, { recursive: true, force: true }).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

/** A folder (not a link to one) of this user. */
async function isOwnFolder(folder: string): Promise<boolean> {
  const info = await lstat(folder).catch(() => undefined);
  if (!info?.isDirectory()) return false;
  return process.getuid === undefined || info.uid === process.getuid();
}

/** When the folder or one of its batches last changed (a batch's files are written below it). */
async function lastChange(folder: string): Promise<number> {
  let latest = (await lstat(folder)).mtimeMs;
  for (const batch of await readdir(folder).catch(() => [] as string[])) {
    const info = await lstat(path.join(folder, batch)).catch(() => undefined);
    if (info) latest = Math.max(latest, info.mtimeMs);
  }
  return latest;
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
