// How long the data path waits on the local disk, told to the request it serves.
//
// A transfer the disk holds back looks, from the store's side, like one whose bodies move slowly:
// only the time inside the file reads (an upload's body) and writes (a download's answer) tells the
// two apart. Each is added to its request's sample (queue/request-signals.ts), so the readout of
// what limits a transfer sets it against the same requests' time.

import type { RequestTimer } from '../queue/request-signals.ts';

/** Run one file read or write, adding its time to `request` (none when it runs outside a request). */
export async function timedDisk<T>(
  request: RequestTimer | undefined,
  direction: 'read' | 'write',
  io: () => Promise<T>,
): Promise<T> {
  if (!request) return io();
  const started = performance.now();
  try {
    return await io();
  } finally {
    request.disk(performance.now() - started, direction);
  }
}
