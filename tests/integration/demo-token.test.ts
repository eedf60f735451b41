// npm run demo keeps its window's token across runs only where the window is found again: at the
// same port. A window left open knocks on its old port by itself, token in hand (host-link.ts); if
// another process (another user's) listened there meanwhile, that one has been handed the token,
// and a demo started elsewhere must not take that token again.

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { toolsDir } from '../../main/demo/demo-server.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** One run of npm run demo over `home`, stopped once it has printed its URL: that URL. */
async function demoUrl(home: string): Promise<URL> {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'main', 'demo', 'demo.ts'),
      '--data-dir',
      path.join(home, 'data'),
      '--download-root',
      path.join(home, 'downloads'),
    ],
    {
      env: { PATH: process.env.PATH, HOME: home, BARGE_DEMO_SMALL_KEYS: '20', BARGE_TOOLS_DIR: toolsDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await expect.poll(() => out, { timeout: 60_000 }).toContain('Press Ctrl-C');
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return new URL(/^ {2}(http\S+#token=\S+)$/m.exec(out)![1]!);
}

it("npm run demo started again while another process holds its window's last port starts with a new token, not the one an open tab may have handed that process", async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'barge-demo-token-'));
  const squatter = createServer((socket) => socket.destroy());
  try {
    const first = await demoUrl(home);
    // Another process takes the window's port while the demo is stopped.
    await new Promise<void>((resolve) => squatter.listen(Number(first.port), '127.0.0.1', resolve));
    const second = await demoUrl(home);
    expect(second.port).not.toBe(first.port);
    expect(second.hash).not.toBe(first.hash);
  } finally {
    squatter.close();
    await rm(home, { recursive: true, force: true });
  }
}, 150_000);
