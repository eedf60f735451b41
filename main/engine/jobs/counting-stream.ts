// A file range as a request body that reports bytes as they are sent.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { BargeError } from '../errors.ts';
import { sameVersion } from './local-files.ts';
import type { LocalFile } from './local-files.ts';
import { openSource } from './source-file.ts';

/** 256 KiB reads: few syscalls per part, and memory stays at threads x this, not threads x part size. */
export const READ_CHUNK_BYTES = 256 * 1024;

/**
 * Bytes [start, end) of `file`, calling `onBytes` for each chunk that passes through.
 *
 * The file is opened as it was listed, or not at all (source-file.ts), and read as the socket takes
 * it (back-pressure), so a 5 GiB part costs 256 KiB of memory.
 *
 * With `holdLast`, the last chunk is held back until the file is seen unchanged since it was listed
 * (size, times, inode): if it changed while it was read, the body fails before its end, so the
 * server, short of bytes, stores nothing.
 */
export async function fileRangeBody(file: LocalFile, start: number, end: number, onBytes: (bytes: number) => void, holdLast = false): Promise<Transform> {
  const { path } = file;
  const unchanged = holdLast ? file : undefined;
  const handle = await openSource(file);
  // The stream owns the handle from here, and closes it when it ends or is destroyed.
  const source = createReadStream(path, { fd: handle, start, end: end - 1, highWaterMark: READ_CHUNK_BYTES });
  let read = 0;
  let held: Buffer | undefined;
  const counter = new Transform({
    highWaterMark: READ_CHUNK_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      if (!unchanged) {
        onBytes(chunk.length);
        done(null, chunk);
        return;
      }
      const previous = held;
      held = chunk;
      if (previous) onBytes(previous.length);
      done(null, previous);
    },
    // A file that shrank since it was listed ends early: say so, instead of letting the request
    // wait for bytes that will never come.
    flush(done) {
      if (read !== end - start) {
        done(new BargeError('FileChanged', `${path} changed while it was being uploaded (it is shorter than when the upload began).`));
        return;
      }
      const last = held;
      if (!unchanged || !last) {
        done(null);
        return;
      }
      stat(path).then((now) => {
        if (!sameVersion(now, unchanged)) {
          done(new BargeError('FileChanged', `${path} changed while it was being uploaded: nothing was stored; retry when it no longer changes.`));
          return;
        }
        onBytes(last.length);
        done(null, last);
      }, (error: unknown) => done(error as Error));
    },
  });
  source.on('error', (error) => counter.destroy(error));
  counter.on('close', () => source.destroy());
  return source.pipe(counter);
}
