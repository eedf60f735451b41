// A window that knows when it is alone: its host stopped, it says so at once (no click), naming
// the command that started the host, knocks on the port further and further apart while it is
// down, and connects again by itself, with the same token, once the host runs again; a job that
// had failed is shown failed again, with its counts, as the host brought it back.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { Socket } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { SERVE_BUNDLE } from '../../main/build/build.ts';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { launchBrowser } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';
import { hostUrl } from '../support/host-url.ts';
import { apiProtocols } from '../../src/contract/api.ts';
import type { JobSummary } from '../../src/jobs.ts';

const TOKEN = 'host-link-token-0123456789';
/** How long the window is left alone with its host down, its knocks counted. */
const DOWN_MS = 6_000;

let home: string;
let host: ChildProcess | undefined;
let browser: Browser;
let page: Page;
const bucket = uniqueBucket();

/** `npm run serve`'s host over the same data folder each time, on `port` (0: any). */
async function startHost(port: number): Promise<string> {
  const s3 = inject('s3');
  const child = spawn(
    process.execPath,
    [
      SERVE_BUNDLE,
      '--port',
      String(port),
      '--data-dir',
      path.join(home, 'data'),
      '--download-root',
      path.join(home, 'downloads'),
    ],
    {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        AWS_ENDPOINT_URL: s3.endpoint,
        AWS_REGION: s3.region,
        BARGE_TOKEN: TOKEN,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  host = child;
  return hostUrl(child);
}

async function stopHost(): Promise<void> {
  const child = host;
  host = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const notice = () => page.getByRole('alert').filter({ hasText: /Barge host|access token/ });

/** One call to the host over its API, as the window makes it (a job started from elsewhere shows in every window). */
async function hostCall<T>(origin: string, method: string, params: unknown): Promise<T> {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/api`, apiProtocols(TOKEN), { origin });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const answer = new Promise<{ ok: boolean; value?: T; error?: { message: string } }>((resolve) => {
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as {
        id?: number;
        result: { ok: boolean; value?: T; error?: { message: string } };
      };
      if (message.id === 1) resolve(message.result);
    });
  });
  ws.send(JSON.stringify({ id: 1, method, params }));
  const result = await answer;
  ws.close();
  if (!result.ok) throw new Error(result.error?.message);
  return result.value as T;
}

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-host-link-'));
  const engine = new Engine();
  const s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  for (const key of ['a.txt', 'b.txt', 'c.txt'])
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: `content of ${key}` }));
  await engine.close();
  // A file already where a download goes: the web host fails that item rather than replace it.
  await mkdir(path.join(home, 'downloads'));
  await writeFile(path.join(home, 'downloads', 'b.txt'), 'mine');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stopHost();
  if (home) await rm(home, { recursive: true, force: true });
});

it('says at once that the host stopped, with `npm run serve`, knocks ever further apart, and connects again by itself when it is back', async () => {
  const url = await startHost(0);
  const port = Number(new URL(url).port);
  page = await (await browser.newContext()).newPage();
  // The window's answers to jobs.snapshot, counted: once back, it takes the host's jobs afresh.
  let snapshotsTaken = 0;
  page.on('websocket', (socket) => {
    const asked = new Set<number>();
    socket.on('framesent', ({ payload }) => {
      const sent = JSON.parse(String(payload)) as { id?: number; method?: string };
      if (sent.method === 'jobs.snapshot' && sent.id !== undefined) asked.add(sent.id);
    });
    socket.on('framereceived', ({ payload }) => {
      const got = JSON.parse(String(payload)) as { id?: number };
      if (got.id !== undefined && asked.has(got.id)) snapshotsTaken += 1;
    });
  });
  await page.goto(url);
  const buckets = page.getByRole('navigation', { name: 'Buckets' });
  await expect
    .poll(() => buckets.getByRole('button', { name: bucket, exact: true }).count(), { timeout: 30_000 })
    .toBe(1);
  expect(await notice().count()).toBe(0);
  // A download that fails one of its three files, before the host stops.
  const { origin } = new URL(url);
  const download = await hostCall<JobSummary>(origin, 'jobs.download', {
    connectionId: 'env',
    bucket,
    keys: ['a.txt', 'b.txt', 'c.txt'],
    targetFolder: path.join(home, 'downloads'),
  });
  const row = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem').filter({ hasText: download.name });
  await expect.poll(() => row.filter({ hasText: 'failed' }).count(), { timeout: 30_000 }).toBe(1);
  const failedCounts = await row.locator('.objects').textContent();
  expect(failedCounts).toBe('2 of 3 objects, 1 failed');

  await stopHost();
  // No click: the window says it by itself.
  await expect
    .poll(() => notice().textContent(), { timeout: 10_000 })
    .toMatch(
      /^The Barge host has stopped, or cannot be reached\. Start it again with `npm run serve`: this window connects again by itself \(next try (now|in \d+ s)\)\.$/,
    );

  // While it is down, something else answers on its port (refusing): the window's tries are counted.
  let tries = 0;
  const stand = http.createServer((_request, response) => {
    response.writeHead(503).end();
  });
  stand.on('request', (request: http.IncomingMessage) => {
    if (request.url === '/api') tries += 1;
  });
  stand.on('upgrade', (_request, socket: Socket) => {
    tries += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => stand.listen(port, '127.0.0.1', resolve));
  await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
  await new Promise<void>((resolve) => stand.close(() => resolve()));
  stand.closeAllConnections();
  // Tries a second apart, then 2, 4 s...: in 6 s at most 3 tries, each a socket and a question why.
  expect(tries).toBeGreaterThan(0);
  expect(tries).toBeLessThanOrEqual(2 * 3);
  expect(await notice().textContent()).toContain('`npm run serve`');

  // Back, with the same token: the window connects again by itself, and works.
  const snapshotsBefore = snapshotsTaken;
  await startHost(port);
  await expect.poll(() => notice().count(), { timeout: 60_000 }).toBe(0);
  await expect.poll(() => snapshotsTaken, { timeout: 10_000 }).toBeGreaterThan(snapshotsBefore);
  await buckets.getByRole('button', { name: bucket, exact: true }).click();
  await expect
    .poll(() => page.getByRole('navigation', { name: 'Breadcrumbs' }).textContent(), { timeout: 30_000 })
    .toBe(bucket);
  // The job the host brought back is shown as it stood: failed, with its counts (not "paused").
  expect(await row.locator('.state').textContent()).toBe('failed');
  expect(await row.locator('.objects').textContent()).toBe(failedCounts);
});

it('says so too when the host goes silent without closing (a tunnel that dropped, a machine asleep), and connects again once it speaks', async () => {
  const child = host!;
  await expect.poll(() => notice().count(), { timeout: 30_000 }).toBe(0);
  // Frozen, the host keeps its sockets open and says nothing: only the silence tells.
  child.kill('SIGSTOP');
  try {
    await expect
      .poll(() => notice().textContent(), { timeout: 60_000 })
      .toContain('The Barge host has stopped, or cannot be reached. Start it again with `npm run serve`');
  } finally {
    child.kill('SIGCONT');
  }
  await expect.poll(() => notice().count(), { timeout: 60_000 }).toBe(0);
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  await expect
    .poll(
      () =>
        page
          .getByRole('grid')
          .getByRole('row', { name: /a\.txt/ })
          .count(),
      { timeout: 30_000 },
    )
    .toBe(1);
});
