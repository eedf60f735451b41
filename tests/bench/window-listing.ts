// npm run bench:window — the window in Chromium with a million keys in one prefix, 100,000 keys,
// and 1,000 jobs progressing at once. Figures, not assertions.
//
// The keys come from a synthetic store (listing-store.ts): seeding a million objects into MinIO
// takes far longer than the listing being measured. The jobs are real uploads to MinIO through a
// proxy that holds each request (window-jobs.ts). Everything goes through `npm run serve`'s host
// over its WebSocket, as a user's browser would; every figure is read in the page.
//
//   BENCH_KEYS=1000000   keys in the big prefix (0: skip the listing parts)
//   BENCH_JOBS=1000      jobs at once (0: skip that part)

import { spawn } from 'node:child_process';
import os from 'node:os';
import type { Page } from 'playwright-core';
import { folderEntries, LISTING_BUCKET, startListingStore } from './listing-store.ts';
import type { ListedEntry } from './listing-store.ts';
import { benchJobs } from './window-jobs.ts';
import {
  CLI_BUNDLE,
  formatFrames,
  frameStats,
  framesWhile,
  heapAfterGc,
  launchChromium,
  MIB,
  openWindow,
  percentile,
  startHost,
} from './window-kit.ts';

const KEYS = Number(process.env.BENCH_KEYS ?? 1_000_000);
const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const SCROLL_KEYS = 100_000;
const BIG = 'many/';
const HUNDRED = 'hundred/';
const credentials = { accessKeyId: 'bench', secretAccessKey: 'benchbench' };
const count = (n: number) => n.toLocaleString('en-US');
/** Frame times and latencies on a shared machine say little without how busy it was. */
const load = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`;

const folders = new Map<string, ListedEntry[]>([
  [BIG, folderEntries(BIG, KEYS)],
  [HUNDRED, folderEntries(HUNDRED, SCROLL_KEYS)],
]);
const store = await startListingStore(folders);
console.log(
  `Synthetic S3 store (listings only, no disk): s3://${LISTING_BUCKET}/${BIG} holds ${count(KEYS)} keys and 10 folders.`,
);

/** The command line's listing of the same prefix, for comparison: keys a second. */
async function cliListing(): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BUNDLE, 'ls', `s3://${LISTING_BUCKET}/${BIG}`], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        AWS_ACCESS_KEY_ID: credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        AWS_ENDPOINT_URL: store.endpoint,
        AWS_REGION: 'us-east-1',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`barge ls exited with ${code}`))));
  });
  return (KEYS + 10) / ((performance.now() - started) / 1000);
}

/** Open a folder of the bucket's top with a double-click; times until its first rows show and until it is whole. */
async function openFolder(
  page: Page,
  folder: string,
  total: number,
): Promise<{ firstRowsMs: number; listedMs: number; frames: number[] }> {
  await page
    .getByRole('navigation', { name: 'Breadcrumbs' })
    .getByRole('button', { name: LISTING_BUCKET })
    .click()
    .catch(() => undefined);
  await page.locator(`[role="row"][data-key="${folder}"]`).waitFor();
  return page.evaluate(
    async ({ folder, total }) => {
      const kit = (globalThis as unknown as { benchKit: BenchKit }).benchKit;
      const row = document.querySelector(`[role="row"][data-key="${folder}"]`)!;
      kit.startFrames();
      const started = performance.now();
      row.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
      const firstRows = await kit.whenTrue(
        () => document.querySelector(`.rows [role="row"][data-key^="${folder}"]:not([data-key="${folder}"])`),
        120_000,
      );
      const listed = await kit.whenTrue(
        () => kit.itemCount() === total && !kit.statusText().includes('loading'),
        600_000,
      );
      return { firstRowsMs: firstRows - started, listedMs: listed - started, frames: kit.stopFrames() };
    },
    { folder, total },
  );
}

interface BenchKit {
  startFrames(): void;
  stopFrames(): number[];
  whenTrue(check: () => unknown, timeoutMs: number): Promise<number>;
  statusText(): string;
  itemCount(): number;
  rowText(index: number): string;
}

/** Scroll the table by `pixels` a frame for `frames` frames, from the top. */
async function scrollFrames(page: Page, pixels: number, frames: number): Promise<number[]> {
  await page.evaluate(() => {
    document.querySelector('.rows')!.scrollTop = 0;
  });
  await page.waitForTimeout(300);
  return framesWhile(page, frames, `document.querySelector('.rows').scrollTop += ${pixels};`);
}

/** Click a column's header; the time until the first object's row (after the ten folders) is another one. */
async function sortBy(page: Page, column: string): Promise<number> {
  return page.evaluate(async (column) => {
    const kit = (globalThis as unknown as { benchKit: BenchKit }).benchKit;
    const before = kit.rowText(10);
    const button = document.querySelector<HTMLButtonElement>(`[role="columnheader"].${column} button`)!;
    const started = performance.now();
    button.click();
    return (await kit.whenTrue(() => kit.rowText(10) !== before, 60_000)) - started;
  }, column);
}

/**
 * Type `text` into the filter a character at a time, then delete it again; each keystroke's time until the count shown
 * is right.
 */
async function typeFilter(page: Page, text: string, expected: (needle: string) => number): Promise<number[]> {
  const steps: { value: string; count: number }[] = [];
  for (let i = 1; i <= text.length; i++) steps.push({ value: text.slice(0, i), count: expected(text.slice(0, i)) });
  for (let i = text.length - 1; i >= 0; i--) steps.push({ value: text.slice(0, i), count: expected(text.slice(0, i)) });
  const times: number[] = [];
  for (const step of steps) {
    times.push(
      await page.evaluate(async ({ value, count }) => {
        const kit = (globalThis as unknown as { benchKit: BenchKit }).benchKit;
        const input = document.querySelector<HTMLInputElement>('input[aria-label="Filter by name"]')!;
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        const started = performance.now();
        // As a keystroke does it: the value changes, then an input event (what React listens to).
        setValue.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        return (
          (await kit.whenTrue(() => kit.itemCount() === count && !kit.statusText().includes('loading'), 30_000)) -
          started
        );
      }, step),
    );
    await page.waitForTimeout(120);
  }
  return times;
}

const browser = await launchChromium();
const host = await startHost(store.endpoint, credentials);
try {
  if (KEYS > 0) await benchListing();
} finally {
  await host.stop();
  await store.close();
}

try {
  if (JOBS > 0) await benchJobs(browser, JOBS);
} finally {
  await browser.close();
}

async function benchListing(): Promise<void> {
  console.log(`CLI (barge ls, same store): ${count(Math.round(await cliListing()))} keys a second`);
  const page = await openWindow(browser, host.url);
  await page
    .getByRole('navigation', { name: 'Buckets' })
    .getByRole('button', { name: LISTING_BUCKET, exact: true })
    .click();
  const idle = frameStats(await framesWhile(page, 300, ''));
  console.log(`Idle window, for reference (60 Hz, the clock's 0.1 ms steps):  ${formatFrames(idle)}`);

  const total = KEYS + 10;
  const names = folders.get(BIG)!.map((e) => e.key.slice(BIG.length).replace(/\/$/, '').toLowerCase());
  const opened = await openFolder(page, BIG, total);
  console.log(`\n${count(KEYS)} keys in one prefix (${load()})`);
  console.log(`  first rows shown        ${(opened.firstRowsMs / 1000).toFixed(2)} s`);
  console.log(
    `  whole prefix listed     ${(opened.listedMs / 1000).toFixed(1)} s  (${count(Math.round(total / (opened.listedMs / 1000)))} keys a second)`,
  );
  console.log(`  frames while listing    ${formatFrames(frameStats(opened.frames))}`);
  // Once listed, the worker sorts each number column ahead of a click (some 0.3 s of one core for a
  // million rows): the figures below are taken after it, its orders counted in its heap.
  await page.waitForTimeout(3000);
  const heap = await heapAfterGc(page);
  console.log(
    `  JS heap after GC        page ${(heap.page / MIB).toFixed(0)} MiB, workers ${(heap.workers / MIB).toFixed(0)} MiB, together ${((heap.page + heap.workers) / MIB).toFixed(0)} MiB`,
  );
  console.log(`  scroll, 10 rows a frame ${formatFrames(frameStats(await scrollFrames(page, 280, 600)))}`);
  console.log(`  scroll, a page a frame  ${formatFrames(frameStats(await scrollFrames(page, 2800, 300)))}`);
  const sorts: [string, string][] = [
    ['name', 'Name, descending'],
    ['name', 'Name, ascending'],
    ['size', 'Size'],
    ['size', 'Size, descending'],
    ['modified', 'Modified'],
    ['class', 'Storage class'],
    ['name', 'Name'],
  ];
  // Sorts and the filter are read from the first row: back to the top.
  await page.evaluate(() => {
    document.querySelector('.rows')!.scrollTop = 0;
  });
  await page.waitForTimeout(300);
  const sortTimes: number[] = [];
  for (const [column, label] of sorts) {
    const ms = await sortBy(page, column);
    sortTimes.push(ms);
    console.log(`  sort: ${label.padEnd(17)} ${ms.toFixed(0)} ms`);
    await page.waitForTimeout(300);
  }
  console.log(`  sort, slowest           ${Math.max(...sortTimes).toFixed(0)} ms`);
  const expected = (needle: string) => (needle === '' ? total : names.filter((n) => n.includes(needle)).length);
  const keystrokes = [...(await typeFilter(page, '4217', expected)), ...(await typeFilter(page, 'img_99', expected))];
  console.log(`  (${load()})`);
  console.log(
    `  filter, per keystroke   p50 ${percentile(keystrokes, 0.5).toFixed(0)} ms  p95 ${percentile(keystrokes, 0.95).toFixed(0)} ms  max ${Math.max(...keystrokes).toFixed(0)} ms  (${keystrokes.length} keystrokes)`,
  );

  const hundred = await openFolder(page, HUNDRED, SCROLL_KEYS + 10);
  console.log(`\n${count(SCROLL_KEYS)} keys in one prefix (listed in ${(hundred.listedMs / 1000).toFixed(1)} s)`);
  console.log(`  scroll, 10 rows a frame ${formatFrames(frameStats(await scrollFrames(page, 280, 600)))}`);
  console.log(`  scroll, a page a frame  ${formatFrames(frameStats(await scrollFrames(page, 2800, 300)))}`);
  await page.close();
}
