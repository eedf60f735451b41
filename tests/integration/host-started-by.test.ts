// The web host tells its window which command started it (host.info's startedBy), so a window
// that loses it names the right one: `npm run demo` is not `npm run serve`.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startServe } from '../../main/web-host/serve-host.ts';
import type { ServeStart } from '../../main/web-host/serve-host.ts';
import { apiProtocols } from '../../src/contract/api.ts';

const TOKEN = 'started-by-token-abcdefghij';
let root: string;
let tokenBefore: string | undefined;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'barge-started-by-'));
  tokenBefore = process.env.BARGE_TOKEN;
  process.env.BARGE_TOKEN = TOKEN;
});

afterAll(async () => {
  if (tokenBefore === undefined) delete process.env.BARGE_TOKEN;
  else process.env.BARGE_TOKEN = tokenBefore;
  await rm(root, { recursive: true, force: true });
});

/** What a window's host.info says of a host started with `command` (left out: as `npm run serve` starts it). */
async function startedBy(command: ServeStart['command'], name: string): Promise<unknown> {
  const args = {
    port: '0',
    'data-dir': path.join(root, name),
    'download-root': path.join(root, `${name}-downloads`),
    'static-dir': root,
  };
  const host = await startServe({
    args,
    env: { AWS_ENDPOINT_URL: inject('s3').endpoint },
    demoStore: {
      start: async () => {
        throw new Error('no demo here');
      },
    },
    ...(command ? { command } : {}),
  });
  try {
    const { origin } = new URL(host.url);
    // Without the token, it is named too: the URL to open is the one that command printed.
    const refused = await fetch(`${origin}/api`);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      `Open the URL that "${command ?? 'npm run serve'}" printed: it carries the access token.`,
    );
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/api`, apiProtocols(TOKEN), { origin });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const answer = new Promise<{ result: { ok: boolean; value: { startedBy?: string } } }>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as {
          id?: number;
          result: { ok: boolean; value: { startedBy?: string } };
        };
        if (message.id === 1) resolve(message);
      });
    });
    ws.send(JSON.stringify({ id: 1, method: 'host.info', params: {} }));
    const { result } = await answer;
    ws.close();
    return result.value.startedBy;
  } finally {
    await host.stop();
  }
}

it('says `npm run serve` when that started it, and `npm run demo` when the demo did, to the window and to a request without the token', async () => {
  expect(await startedBy(undefined, 'serve')).toBe('npm run serve');
  expect(await startedBy('npm run demo', 'demo')).toBe('npm run demo');
});
