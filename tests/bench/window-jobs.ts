// The window's frames while 1,000 jobs progress at once (part of npm run bench:window).
//
// Real jobs: each uploads a folder of small files to MinIO through `npm run serve`'s host, staged
// over its HTTP channel as a browser stages them, and started with jobs.upload. A proxy holds every
// PUT for a while, so the jobs stay running; with 256 requests in flight (the most Threads allows)
// and the scheduler taking jobs in turn, every job finishes a file every few seconds. Each job is
// paused as soon as it is made and all are resumed together, so all of them run during the
// measurement; the figure says how many reported progress while it was taken.

import type { Browser } from 'playwright-core';
import WebSocket from 'ws';
import { apiProtocols, stagedFileUrl } from '../../src/contract/api.ts';
import type { ApiEvent } from '../../src/contract/api.ts';
import type { Result } from '../../src/contract/result.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { startS3Server } from '../support/s3-server.ts';
import { BENCH_TOKEN, formatFrames, frameStats, framesWhile, openWindow, startHost } from './window-kit.ts';

const FILES_PER_JOB = 24;
const FILE_BYTES = 16 * 1024;
/**
 * How long the proxy holds each PUT: with 256 in flight, about 250 files a second in all, so each
 * job finishes a file every four seconds or so and none is done before the measurement ends.
 */
const PUT_DELAY_MS = 1000;
const BUCKET = 'bench-jobs';

/** The host's API over its WebSocket, as the window's web client speaks it. */
async function connectApi(url: string): Promise<{
  call<T>(method: string, params: unknown): Promise<T>;
  onEvent(listener: (event: ApiEvent) => void): void;
  close(): void;
}> {
  const origin = new URL(url).origin;
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/api`, apiProtocols(BENCH_TOKEN), { headers: { origin } });
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners: ((event: ApiEvent) => void)[] = [];
  let nextId = 1;
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: Result<unknown>; event?: ApiEvent };
      if (message.event) for (const listener of listeners) listener(message.event);
      else if (typeof message.id === 'number') {
        pending.get(message.id)?.(message.result!);
        pending.delete(message.id);
      }
    });
  });
  return {
    call<T>(method: string, params: unknown) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, (result) =>
          result.ok ? resolve(result.value as T) : reject(new Error(`${method}: ${result.error.message}`)),
        );
        ws.send(JSON.stringify({ id, method, params }));
      });
    },
    onEvent: (listener) => listeners.push(listener),
    close: () => ws.close(),
  };
}

export async function benchJobs(browser: Browser, jobs: number): Promise<void> {
  const minio = await startS3Server('minio');
  const proxy = await startFaultProxy(minio.endpoint);
  proxy.setRule((request) => (request.method === 'PUT' ? { kind: 'delay', ms: PUT_DELAY_MS } : undefined));
  const host = await startHost(proxy.endpoint, minio);
  const api = await connectApi(host.url);
  try {
    const [connection] = await api.call<{ id: string }[]>('connections.list', {});
    const connectionId = connection!.id;
    await api.call('buckets.create', { connectionId, name: BUCKET });
    // One request in flight while the jobs are made (a job paused at once may still finish what it
    // had in flight), and no request given up for being held.
    await api.call('settings.update', { threads: 1, stallTimeoutMs: 600_000 });
    const body = Buffer.alloc(FILE_BYTES, 7);
    const origin = new URL(host.url).origin;
    const makeJob = async (j: number) => {
      const { stagingId } = await api.call<{ stagingId: string }>('uploads.stage', {});
      const folder = `job-${j}`;
      for (let f = 0; f < FILES_PER_JOB; f++) {
        const response = await fetch(`${origin}${stagedFileUrl(stagingId, `${folder}/f${f}.bin`)}`, {
          method: 'PUT',
          body,
          headers: { authorization: `Bearer ${BENCH_TOKEN}` },
        });
        if (!response.ok) throw new Error(`staging a file answered ${response.status}`);
      }
      const job = await api.call<{ id: string }>('jobs.upload', {
        connectionId,
        bucket: BUCKET,
        prefix: '',
        staged: { stagingId, entries: [folder] },
      });
      await api.call('jobs.pause', { id: job.id });
    };
    const started = performance.now();
    for (let j = 0; j < jobs; j += 16)
      await Promise.all(Array.from({ length: Math.min(16, jobs - j) }, (_, k) => makeJob(j + k)));
    console.log(
      `\n${jobs.toLocaleString('en-US')} upload jobs of ${FILES_PER_JOB} files each, made and paused in ${((performance.now() - started) / 1000).toFixed(0)} s; PUTs held ${PUT_DELAY_MS} ms by a proxy in front of MinIO`,
    );

    const page = await openWindow(browser, host.url);
    await page.getByRole('list', { name: 'Transfers' }).getByRole('listitem').first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(2000);
    const progressed = new Set<string>();
    let measuring = false;
    api.onEvent((event) => {
      if (measuring && event.type === 'jobs') for (const job of event.jobs) progressed.add(job.id);
    });
    // As many requests in flight as allowed.
    await api.call('settings.update', { threads: 256 });
    await api.call('jobs.resume', {});
    // Until every job has had its turn at the requests.
    await page.waitForTimeout(8000);
    const running = async () => {
      const states = new Map<string, number>();
      for (const job of await api.call<{ state: { status: string } }[]>('jobs.snapshot', {}))
        states.set(job.state.status, (states.get(job.state.status) ?? 0) + 1);
      return [...states].map(([status, n]) => `${n.toLocaleString('en-US')} ${status}`).join(', ');
    };
    const before = await running();
    measuring = true;
    const frames = frameStats(await framesWhile(page, 600, ''));
    measuring = false;
    const after = await running();
    console.log(
      `  jobs at the start: ${before}; at the end: ${after}; ${progressed.size.toLocaleString('en-US')} reported progress during the 600 frames`,
    );
    console.log(`  frames                  ${formatFrames(frames)}`);
    await api.call('jobs.cancel', {});
    await page.close();
  } finally {
    api.close();
    await host.stop();
    await proxy.close();
    await minio.stop();
  }
}
