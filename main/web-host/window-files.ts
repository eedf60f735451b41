// The window's files (index.html and its assets), read once at start and served from memory.
//
// They are few, small (about 4 MB built) and fixed while the host runs. Served from disk, every
// answer held a file open and a 64 KiB read buffer until it was taken: one stranger's connection of
// 10,000 pipelined requests, reading nothing, grew the host from 96 MB to over 1 GB, and 30,000 used
// up its file descriptors. From memory an answer holds no file, and its bytes are shared by every
// answer that sends them.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime';

/** The window's files, at most, in bytes: a --static-dir that holds more is not the built window. */
export const MAX_WINDOW_BYTES = 256 * 1024 * 1024;

export interface WindowFile {
  readonly body: Buffer;
  readonly contentType: string;
}

export interface WindowFiles {
  /**
   * The file a request's path names (decoded), or index.html for any other path (the window routes itself); undefined
   * if there is no index.html.
   */
  fileFor(pathname: string): WindowFile | undefined;
}

/** Reads every regular file below `folder` (links are not followed); a folder that is not there serves nothing. */
export async function readWindowFiles(folder: string): Promise<WindowFiles> {
  const root = path.resolve(folder);
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  const files = new Map<string, WindowFile>();
  let total = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const body = await readFile(file);
    total += body.length;
    if (total > MAX_WINDOW_BYTES)
      throw new Error(
        `${root} holds more than ${MAX_WINDOW_BYTES / 1024 / 1024} MiB: give --static-dir the built window ` +
          `(app/dist/renderer).`,
      );
    files.set(windowPath(path.relative(root, file)), {
      body,
      contentType: mime.getType(file) ?? 'application/octet-stream',
    });
  }
  const index = files.get('index.html');
  return {
    fileFor(pathname) {
      const relative = path.posix.normalize(`/${pathname}`).slice(1);
      return files.get(relative) ?? index;
    },
  };
}

/** A path below the folder as a URL names it (forward slashes on every system). */
function windowPath(relative: string): string {
  return relative.split(path.sep).join('/');
}
