// A browser upload's body written to the staging disk, never filling it.
//
// The Content-Length check before the body is read cannot see a chunked body, nor the other
// uploads arriving at the same time, so the disk's free space is looked at again every few MiB as
// the body is written: once it falls below the margin, the upload stops as if the disk were full.

import { createWriteStream } from 'node:fs';
import { statfs } from 'node:fs/promises';
import type http from 'node:http';
import { Transform } from 'node:stream';

/**
 * How often, in bytes written, the free space is looked at again: uploads arriving together can go
 * past the margin by at most this much each (a statfs costs microseconds).
 */
const CHECK_EVERY_BYTES = 1024 * 1024;

export interface FreeSpaceGuard {
  /** A folder on the staging disk. */
  readonly root: string;
  /** What must stay free there. */
  readonly marginBytes: number;
}

/** Bytes free for this user on the disk holding `folder` (unknown: no limit). */
export function freeBytes(folder: string): Promise<number> {
  return statfs(folder).then(
    (s) => s.bavail * s.bsize,
    () => Number.POSITIVE_INFINITY,
  );
}

/**
 * A request's body into a file; the failure, if any (ENOSPC when the disk is full or its margin is
 * reached). A file that cannot be written does not cut the connection: the rest of the body is
 * read and dropped, so the browser gets the answer that says why. `written` hears of each chunk
 * on its way to the file.
 */
export function receiveInto(
  request: http.IncomingMessage,
  file: string,
  guard: FreeSpaceGuard,
  written: (bytes: number) => void = () => undefined,
): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const checked = spaceChecked(guard, written);
    const out = createWriteStream(file);
    let failure: NodeJS.ErrnoException | undefined;
    let ended = false;
    const fail = (error: NodeJS.ErrnoException) => {
      if (failure) return;
      failure = error;
      request.unpipe(checked);
      checked.unpipe(out);
      out.destroy();
      if (ended) resolve(failure);
      else request.resume();
    };
    out.once('error', fail);
    checked.once('error', fail);
    out.once('finish', () => resolve(undefined));
    request.once('end', () => {
      ended = true;
      if (failure) resolve(failure);
    });
    request.once('error', (error) => {
      out.destroy();
      resolve(error);
    });
    request.pipe(checked).pipe(out);
  });
}

function spaceChecked(guard: FreeSpaceGuard, written: (bytes: number) => void): Transform {
  let sinceCheck = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sinceCheck += chunk.length;
      if (sinceCheck < CHECK_EVERY_BYTES) {
        written(chunk.length);
        return callback(null, chunk);
      }
      sinceCheck = 0;
      void freeBytes(guard.root).then((free) => {
        if (free >= guard.marginBytes) {
          written(chunk.length);
          return callback(null, chunk);
        }
        callback(Object.assign(new Error('The staging disk has reached its free-space margin.'), { code: 'ENOSPC' }));
      });
    },
  });
}
