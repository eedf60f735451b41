// A big file from the browser, end to end: its job is on screen from the first byte, with sending
// to the host as its first phase (bytes, rate, Cancel), and its time includes that phase. The
// browser's upload is slowed to a few MiB/s (Chromium's own network throttling), as over a tunnel.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { launchBrowser, openApp } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

/** How fast the browser may send (bytes a second): slow enough to see the first phase. */
const UPLOAD_BYTES_PER_SECOND = 2 * 1024 * 1024;
const MIB = 1024 * 1024;

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
let dir: string;
const bucket = uniqueBucket();
const otherBucket = uniqueBucket();

function transferRow(name: string) {
  return page.getByRole('list', { name: 'Transfers' }).getByRole('listitem').filter({ hasText: name });
}

async function keys(): Promise<string[]> {
  const found: string[] = [];
  for await (const o of listAllObjects(s3, { bucket, prefix: '' })) found.push(o.key);
  return found;
}

/** The file, picked with the Upload button, into the bucket's top. */
async function pick(name: string, bytes: number): Promise<void> {
  const buckets = page.getByRole('navigation', { name: 'Buckets' });
  await expect
    .poll(() => buckets.getByRole('button', { name: bucket, exact: true }).count(), { timeout: 30_000 })
    .toBe(1);
  await buckets.getByRole('button', { name: bucket, exact: true }).click();
  await expect.poll(() => page.getByRole('navigation', { name: 'Breadcrumbs' }).textContent()).toBe(bucket);
  const file = path.join(dir, name);
  await writeFile(file, Buffer.alloc(bytes, 7));
  await page.getByLabel('Choose files to upload').setInputFiles(file);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-big-'));
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  await createBucket(s3, otherBucket);
  browser = await launchBrowser();
  page = await openApp(browser);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: UPLOAD_BYTES_PER_SECOND,
  });
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('a file on its way to the host is a job at once, sending to the host as its first phase, and Cancel stops it: nothing is stored', async () => {
  await pick('stopped.bin', 64 * MIB);
  const row = transferRow(`stopped.bin → s3://${bucket}/`);
  await expect.poll(() => row.getByText(/^sending to the host, 0 of 1 file/).count(), { timeout: 30_000 }).toBe(1);
  expect(
    await row.getByRole('progressbar', { name: 'Sending stopped.bin → s3://' + bucket + '/ to the host' }).count(),
  ).toBe(1);
  // Bytes arrive, with a rate.
  await expect
    .poll(() => row.getByTitle('Throughput to the host').textContent(), { timeout: 30_000 })
    .toMatch(/^[1-9][\d.]* (KiB|MiB)\/s$/);
  expect(await row.getByRole('button', { name: 'Pause', exact: true }).count()).toBe(0);
  await row.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect.poll(() => row.filter({ hasText: 'cancelled' }).count(), { timeout: 30_000 }).toBe(1);
  expect(await row.getByText(/sending to the host/).count()).toBe(0);
  expect(await keys()).not.toContain('stopped.bin');
});

it("a file that arrives is uploaded, and the job's time includes its sending", async () => {
  const bytes = 8 * MIB;
  await pick('arrived.bin', bytes);
  const row = transferRow(`arrived.bin → s3://${bucket}/`);
  await expect.poll(() => row.getByText(/^sending to the host/).count(), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => row.filter({ hasText: 'completed' }).count(), { timeout: 60_000 }).toBe(1);
  expect(await keys()).toContain('arrived.bin');
  // Sent at 2 MiB/s, 8 MiB take 4 s at least: the job counts them.
  const took = /took (\d+(?:\.\d)?)s/.exec((await row.textContent()) ?? '')?.[1];
  expect(Number(took)).toBeGreaterThanOrEqual(bytes / UPLOAD_BYTES_PER_SECOND - 0.5);

  // The status line's notice speaks of this bucket: another one does not show it, nor does coming back.
  const statusLine = page.locator('p.status[role="status"]');
  expect(await statusLine.textContent()).toContain(`Upload started: arrived.bin → s3://${bucket}/`);
  const buckets = page.getByRole('navigation', { name: 'Buckets' });
  await buckets.getByRole('button', { name: otherBucket, exact: true }).click();
  await expect.poll(() => page.getByRole('navigation', { name: 'Breadcrumbs' }).textContent()).toBe(otherBucket);
  expect(await statusLine.textContent()).not.toContain('Upload started');
  await buckets.getByRole('button', { name: bucket, exact: true }).click();
  await expect.poll(() => page.getByRole('navigation', { name: 'Breadcrumbs' }).textContent()).toBe(bucket);
  expect(await statusLine.textContent()).not.toContain('Upload started');
});
