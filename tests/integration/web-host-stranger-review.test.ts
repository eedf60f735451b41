// Review of issue 25 section 2: what a stranger (no token) can still do to the web host.
//
// Each test here reproduces a problem found by attacking `npm run serve` with clients of our own;
// it fails on the code as reviewed and should pass once the problem is fixed.

import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UNVOUCHED_CONNECTIONS } from '../../main/web-host/connection-limits.ts';
import { openRaw } from '../support/raw-connection.ts';
import type { RawConnection } from '../support/raw-connection.ts';
import { startServedHost } from '../support/served-host.ts';
import type { ServedHost } from '../support/served-host.ts';

const MiB = 1024 * 1024;
/** A file of the window large enough that its answer cannot sit whole in the sockets' buffers. */
const LARGE_FILE_BYTES = 64 * MiB;

let host: ServedHost;

beforeAll(async () => {
  // startServedHost makes the static folder beside the download root: a large file of the window there.
  host = await startServedHost(async (downloadRoot) => {
    await writeFile(path.join(downloadRoot, '..', 'static', 'large.js'), Buffer.alloc(LARGE_FILE_BYTES, 0x20));
  });
});

afterAll(async () => {
  await host?.stop();
});

/** Waits until `done`, checked every `everyMs`, for at most `limitMs` (a bound on the test's length, not on what it asserts). */
async function until(done: () => boolean, limitMs = 60_000, everyMs = 20): Promise<void> {
  for (let waited = 0; !done() && waited < limitMs; waited += everyMs) await new Promise((resolve) => setTimeout(resolve, everyMs));
}

const getPage = (target: string) => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`;

describe('review: a stranger\'s flood of connections and the user\'s own', () => {
  it('a user fetching a large file of the window, and reading it, is not cut because strangers made newer requests', async () => {
    // The user's fetch moves bytes throughout; the strangers each make one request and sit idle.
    const user = net.connect(host.port, '127.0.0.1');
    let userBytes = 0;
    let userClosed = false;
    user.on('data', (chunk: Buffer) => { userBytes += chunk.length; });
    user.on('error', () => undefined);
    user.once('close', () => { userClosed = true; });
    await new Promise((resolve) => user.once('connect', resolve));
    user.write(`GET /large.js HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nConnection: close\r\n\r\n`);
    const strangers: RawConnection[] = [];
    const STRANGERS_PER_ROUND = 20;
    const ROUNDS = Math.ceil((MAX_UNVOUCHED_CONNECTIONS * 1.5) / STRANGERS_PER_ROUND);
    try {
      for (let round = 1; round <= ROUNDS && !userClosed; round++) {
        // The user reads another MiB...
        user.resume();
        await until(() => userBytes >= round * MiB || userClosed);
        user.pause();
        // ...and meanwhile strangers each fetch the page once and keep their connection.
        for (let i = 0; i < STRANGERS_PER_ROUND; i++) {
          const stranger = await openRaw(host.port);
          stranger.socket.write(getPage('/'));
          await until(() => stranger.received().includes('</title>') || stranger.socket.destroyed, 10_000);
          strangers.push(stranger);
        }
      }
      user.resume();
      await until(() => userBytes >= LARGE_FILE_BYTES || userClosed, 60_000);
      expect(userBytes).toBeGreaterThanOrEqual(LARGE_FILE_BYTES);
    } finally {
      user.destroy();
      for (const stranger of strangers) stranger.socket.destroy();
    }
  });
});
