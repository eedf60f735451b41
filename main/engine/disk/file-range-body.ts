// A file range as a request body that writes itself to the socket: read into two reusable buffers,
// each read into again only once the socket has taken the bytes written from it.
//
// Why not a read stream: fs streams allocate a fresh 256 KiB buffer per read, held by the request
// until the socket has sent it; on a 1 GiB upload those allocations, and the collections they caused,
// took about 1.4 s of the main thread's 3.5 (measured with --cpu-prof). Here a part costs two buffers
// for its whole life, whatever its size, and reading the next one overlaps sending the last.

import { stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { BargeError } from '../errors.ts';
import { currentRequest } from '../queue/request-signals.ts';
import { timedDisk } from './disk-time.ts';
import { sameVersion } from './local-files.ts';
import type { LocalFile } from './local-files.ts';
import { openSource } from './source-file.ts';
import type { StreamedBody } from './streamed-body.ts';

/** 256 KiB reads: few syscalls per part, and memory stays at threads x 2 x this, not threads x part size. */
export const READ_CHUNK_BYTES = 256 * 1024;

/**
 * Bytes [start, end) of `file`, calling `onBytes` as the socket takes each chunk.
 *
 * The file is opened as it was listed, or not at all (source-file.ts), before the request is sent.
 * With `holdLast`, the last chunk goes only once the file is seen unchanged since it was listed
 * (size, times, inode): if it changed while it was read, the body fails before its end, so the
 * server, short of bytes, stores nothing.
 */
export async function fileRangeBody(
  file: LocalFile,
  start: number,
  end: number,
  onBytes: (bytes: number) => void,
  holdLast = false,
): Promise<StreamedBody> {
  let handle: FileHandle | undefined = await openSource(file);
  const release = async () => {
    const open = handle;
    handle = undefined;
    await open?.close();
  };
  return {
    async pipeTo(write) {
      const reading = handle;
      if (!reading) throw new Error('A file body is sent once.');
      const request = currentRequest();
      try {
        const size = Math.min(READ_CHUNK_BYTES, Math.max(1, end - start));
        const buffers = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
        // The write of the other buffer, under way while this one is read into.
        let sending: Promise<void> | undefined;
        for (let position = start, turn = 0; position < end; turn ^= 1) {
          const buffer = buffers[turn]!;
          const length = Math.min(buffer.length, end - position);
          const { bytesRead } = await timedDisk(request, 'read', () => reading.read(buffer, 0, length, position));
          // A file that shrank since it was listed ends early: said so, rather than the request
          // waiting for bytes that will never come.
          if (bytesRead === 0)
            throw new BargeError(
              'FileChanged',
              `${file.path} changed while it was being uploaded (it is shorter than when the upload began).`,
            );
          position += bytesRead;
          await sending;
          if (position >= end && holdLast && !sameVersion(await stat(file.path), file)) {
            throw new BargeError(
              'FileChanged',
              `${file.path} changed while it was being uploaded: nothing was stored; retry when it no longer changes.`,
            );
          }
          const chunk = buffer.subarray(0, bytesRead);
          sending = write(chunk).then(() => onBytes(chunk.length));
          // Awaited at the next turn; until then, a failure must not count as unhandled.
          sending.catch(() => undefined);
        }
        await sending;
      } finally {
        await release();
      }
    },
    release,
  };
}
