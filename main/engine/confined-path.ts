// A folder a download writes into must really be inside the folder the user chose.
//
// Keys never name ".." (key-path.ts refuses them), but a folder inside the target can be a symlink
// that leads elsewhere (made by another program, or by someone who shares the machine): written
// through it, a download would land outside the target, even over ~/.ssh/authorized_keys. Checked on
// the real paths, after the folder exists.

import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { BargeError } from './errors.ts';

/** Whether `inner` is `outer` or below it (both real, absolute paths). */
export function isInside(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Throws UnsafePath when the real path of `folder` is not inside the real path of `root`. */
export async function assertInside(root: string, folder: string, what: string): Promise<void> {
  const [realRoot, realFolder] = await Promise.all([realpath(root), realpath(folder)]);
  if (!isInside(realRoot, realFolder)) {
    throw new BargeError('UnsafePath', `${what} would be written through ${folder}, which leads outside ${root} (to ${realFolder}, a symbolic link); it was not downloaded.`);
  }
}
