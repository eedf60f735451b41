// A folder a download writes into must really be inside the folder the user chose.
//
// Keys never name ".." (key-path.ts refuses them), but a folder inside the target can be a symlink
// that leads elsewhere (made by another program, or by someone who shares the machine): written
// through it, a download would land outside the target, even over ~/.ssh/authorized_keys. Checked on
// the real paths, after the folder exists.

import { lstat, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { BargeError } from '../errors.ts';

/** Whether `inner` is `outer` or below it (both real, absolute paths). */
export function isInside(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  // "..hidden" is a name inside; only ".." itself, or a path through it, leads out.
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * Throws UnsafePath when `folder` (made or not yet) is not really inside `root`: checked on the real
 * path of the part of it that exists, so nothing is made through a symlink that leads out.
 */
export async function assertInside(root: string, folder: string, what: string): Promise<void> {
  const [realRoot, realFolder] = await Promise.all([realPathOf(root), realPathOf(folder)]);
  if (!isInside(realRoot, realFolder)) {
    throw new BargeError(
      'UnsafePath',
      `${what} would be written into ${folder}, which a symbolic link leads outside ${root} (into ` +
        `${realFolder}); it was not downloaded.`,
    );
  }
}

/** The real path of `target`, made or not yet: its nearest existing folder's real path, and the rest. */
export async function realPathOf(target: string): Promise<string> {
  let existing = path.resolve(target);
  const rest: string[] = [];
  while (!(await lstat(existing).catch(() => undefined))) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  return path.join(await realpath(existing), ...rest);
}

/** Which file a path names: the same device and inode mean the same file, wherever the path now leads. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/**
 * Throws UnsafePath unless `file` still names the file it named when it was made. Between the
 * checks on the folder and the last write, someone who can write inside the target could move a
 * folder away and put a symlink (and a file of the same name) in its place: the download would then
 * be renamed into wherever the link leads. The file Barge wrote keeps its inode, so a path that now
 * leads elsewhere names another inode, or none. (Node has no renameat, so what is left is the
 * moment between this check and the rename itself.)
 */
export async function assertSameFile(file: string, identity: FileIdentity, what: string): Promise<void> {
  const now = await lstat(file).catch(() => undefined);
  if (!now || !now.isFile() || now.dev !== identity.dev || now.ino !== identity.ino) {
    throw new BargeError(
      'UnsafePath',
      `${what} was not saved: the folder it was being written in (${path.dirname(file)}) was moved or replaced ` +
        `while it downloaded.`,
    );
  }
}

/**
 * `target` (relative ones are taken below the root) if it lies below `root`, by the real path of
 * as much of it as exists; nothing is made (a download makes its folder once an object is on its
 * way, checked again on the descriptors: download-target.ts). Else a refusal.
 */
export async function confinedTarget(root: string, target: string): Promise<string> {
  const base = path.resolve(root);
  const folder = path.resolve(base, target);
  const [realBase, realFolder] = await Promise.all([realPathOf(base), realPathOf(folder)]);
  if (!isInside(base, folder) || !isInside(realBase, realFolder)) throw outsideRoot(base, target);
  return folder;
}

function outsideRoot(base: string, target: string): BargeError {
  return new BargeError(
    'OutsideDownloadRoot',
    `Downloads through this host go only below ${base}; ${target} is not (start it with --download-root to ` +
      `choose another folder).`,
  );
}

/** `target` (relative ones are taken below the root) if it lies below `root`, made if missing; else a refusal. */
export async function confinedFolder(root: string, target: string): Promise<string> {
  const base = path.resolve(root);
  const folder = path.resolve(base, target);
  const refuse = () => outsideRoot(base, target);
  if (!isInside(base, folder)) throw refuse();
  // Nothing is made through a symlink that leads out: the existing part is checked first.
  await mkdir(base, { recursive: true, mode: 0o700 });
  await assertInside(base, folder, target).catch(() => {
    throw refuse();
  });
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // A symlinked folder below the root may lead elsewhere: the real paths decide.
  const [realBase, realFolder] = await Promise.all([realpath(base), realpath(folder)]);
  if (!isInside(realBase, realFolder)) throw refuse();
  return folder;
}
