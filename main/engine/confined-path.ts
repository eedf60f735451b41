// A folder a download writes into must really be inside the folder the user chose.
//
// Keys never name ".." (key-path.ts refuses them), but a folder inside the target can be a symlink
// that leads elsewhere (made by another program, or by someone who shares the machine): written
// through it, a download would land outside the target, even over ~/.ssh/authorized_keys. Checked on
// the real paths, after the folder exists.

import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { BargeError } from './errors.ts';

/** Whether `inner` is `outer` or below it (both real, absolute paths). */
export function isInside(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Throws UnsafePath when `folder` (made or not yet) is not really inside `root`: checked on the real
 * path of the part of it that exists, so nothing is made through a symlink that leads out.
 */
export async function assertInside(root: string, folder: string, what: string): Promise<void> {
  const [realRoot, realFolder] = await Promise.all([realPathOf(root), realPathOf(folder)]);
  if (!isInside(realRoot, realFolder)) {
    throw new BargeError('UnsafePath', `${what} would be written into ${folder}, which a symbolic link leads outside ${root} (into ${realFolder}); it was not downloaded.`);
  }
}

/** The real path of `target`, made or not yet: its nearest existing folder's real path, and the rest. */
async function realPathOf(target: string): Promise<string> {
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
