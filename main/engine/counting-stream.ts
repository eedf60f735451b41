// A file range as a request body that reports bytes as they are sent.

import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { BargeError } from './errors.ts';

/** 256 KiB reads: few syscalls per part, and memory stays at threads x this, not threads x part size. */
export const READ_CHUNK_BYTES = 256 * 1024;

/**
 * Bytes [start, end) of `path`, calling `onBytes` for each chunk that passes through.
 *
 * The file is read as the socket takes it (back-pressure), so a 5 GiB part costs 256 KiB of memory.
 */
export function fileRangeBody(path: string, start: number, end: number, onBytes: (bytes: number) => void): Transform {
  const source = createReadStream(path, { start, end: end - 1, highWaterMark: READ_CHUNK_BYTES });
  let read = 0;
  const counter = new Transform({
    highWaterMark: READ_CHUNK_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      onBytes(chunk.length);
      done(null, chunk);
    },
    // A file that shrank since it was listed ends early: say so, instead of letting the request
    // wait for bytes that will never come.
    flush(done) {
      done(read === end - start ? null : new BargeError('FileChanged', `${path} changed while it was being uploaded (it is shorter than when the upload began).`));
    },
  });
  source.on('error', (error) => counter.destroy(error));
  counter.on('close', () => source.destroy());
  return source.pipe(counter);
}
