// What the window benchmarks share: the web host as `npm run serve` runs it, Debian's Chromium, and
// figures read in the page (frame times from requestAnimationFrame, the JS heap through CDP).

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, CDPSession, Page } from 'playwright-core';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const SERVE_BUNDLE = path.join(root, 'app', 'dist', 'serve.mjs');
export const CLI_BUNDLE = path.join(root, 'app', 'dist', 'barge.mjs');
export const BENCH_TOKEN = 'bench-token-0123456789abcdef';

export interface Host {
  readonly url: string;
  stop(): Promise<void>;
}

/** `npm run serve` over `endpoint` (its environment connection), with a home and data folder of its own. */
export async function startHost(
  endpoint: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
): Promise<Host> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'barge-bench-window-'));
  const host = spawn(
    process.execPath,
    [
      SERVE_BUNDLE,
      '--port',
      '0',
      '--data-dir',
      path.join(home, 'data'),
      '--download-root',
      path.join(home, 'downloads'),
    ],
    {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        BARGE_TOKEN: BENCH_TOKEN,
        AWS_ACCESS_KEY_ID: credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        AWS_ENDPOINT_URL: endpoint,
        AWS_REGION: 'us-east-1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    host.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    host.once('exit', (code) => reject(new Error(`the web host exited with ${code}: ${out}`)));
  });
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => host.once('exit', resolve));
      host.kill('SIGTERM');
      await exited;
      await rm(home, { recursive: true, force: true });
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // As the end-to-end tests run it; frames come at 60 Hz.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-precise-memory-info',
    ],
  });
}

// In the page: frame intervals from requestAnimationFrame, and waits that end on the DOM mutation
// that shows the change (not on the next poll, which would add up to a frame to every figure).
const PAGE_KIT = `
globalThis.benchKit = {
  recording: undefined,
  startFrames() {
    const intervals = [];
    let last;
    const tick = (now) => {
      if (last !== undefined) intervals.push(now - last);
      last = now;
      if (this.recording === intervals) requestAnimationFrame(tick);
    };
    this.recording = intervals;
    requestAnimationFrame(tick);
  },
  stopFrames() {
    const intervals = this.recording ?? [];
    this.recording = undefined;
    return intervals;
  },
  whenTrue(check, timeoutMs) {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const done = () => { observer.disconnect(); clearInterval(poll); };
      const test = () => {
        let value;
        try { value = check(); } catch { value = undefined; }
        if (value) { done(); resolve(performance.now()); }
        else if (performance.now() - started > timeoutMs) { done(); reject(new Error('timed out waiting in the page')); }
      };
      const observer = new MutationObserver(test);
      observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
      const poll = setInterval(test, 50);
      test();
    });
  },
  statusText() {
    return document.querySelector('main [role="status"]')?.textContent ?? '';
  },
  itemCount() {
    const match = /^([\\d,]+) items/.exec(this.statusText());
    return match ? Number(match[1].replace(/,/g, '')) : -1;
  },
  rowText(index) {
    return document.querySelector(\`.rows [role="row"][aria-rowindex="\${index + 2}"]\`)?.textContent ?? '';
  },
};
`;

export async function openWindow(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.addInitScript(PAGE_KIT);
  await page.goto(url);
  return page;
}

export interface FrameStats {
  readonly frames: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  /** Frames that took longer than 1.5 frames of 60 Hz: a frame was skipped. */
  readonly late: number;
}

export function frameStats(intervals: readonly number[]): FrameStats {
  const sorted = [...intervals].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    frames: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    max: sorted.at(-1) ?? NaN,
    late: sorted.filter((ms) => ms > 25).length,
  };
}

export function formatFrames(stats: FrameStats): string {
  return `p50 ${stats.p50.toFixed(1)} ms  p95 ${stats.p95.toFixed(1)} ms  max ${stats.max.toFixed(1)} ms  (${stats.frames} frames, ${stats.late} over 25 ms)`;
}

export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Frame intervals while `act` runs in the page for `frames` frames (it is given the frame's number). */
export async function framesWhile(page: Page, frames: number, act: string): Promise<number[]> {
  return page.evaluate(
    ({ frames, act }) =>
      new Promise<number[]>((resolve) => {
        const step = new Function('frame', act) as (frame: number) => void;
        const intervals: number[] = [];
        let last: number | undefined;
        let frame = 0;
        const tick = (now: number) => {
          if (last !== undefined) intervals.push(now - last);
          last = now;
          if (frame === frames) {
            resolve(intervals);
            return;
          }
          step(frame++);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    { frames, act },
  );
}

export const MIB = 1024 * 1024;

/**
 * The JS heap in use after a full collection: the page's, and each of its workers' (a worker has a
 * heap of its own; leaving it out would flatter a design that moves data there).
 */
export async function heapAfterGc(page: Page): Promise<{ page: number; workers: number }> {
  const session: CDPSession = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.enable');
  await session.send('HeapProfiler.collectGarbage');
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = await session.send('Runtime.getHeapUsage');
  const workers = await workerHeaps(session);
  await session.detach();
  return { page: usedSize, workers };
}

/** The workers' heaps, each attached to in turn through the page's session (after a collection). */
async function workerHeaps(session: CDPSession): Promise<number> {
  const { targetInfos } = await session.send('Target.getTargets');
  let total = 0;
  for (const target of targetInfos.filter((t) => t.type === 'worker')) {
    const { sessionId } = await session.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
    let nextId = 1;
    const ask = (method: string) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const id = nextId++;
        const listener = (event: { sessionId?: string; message: string }) => {
          if (event.sessionId !== sessionId) return;
          const message = JSON.parse(event.message) as { id?: number; result?: Record<string, unknown> };
          if (message.id !== id) return;
          session.off('Target.receivedMessageFromTarget', listener);
          resolve(message.result ?? {});
        };
        session.on('Target.receivedMessageFromTarget', listener);
        void session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
      });
    await ask('HeapProfiler.collectGarbage');
    total += Number((await ask('Runtime.getHeapUsage')).usedSize ?? 0);
    await session.send('Target.detachFromTarget', { sessionId });
  }
  return total;
}
