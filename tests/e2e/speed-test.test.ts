// Test this endpoint in the window, in Debian's Chromium against `npm run serve`'s host: a connection to
// MinIO through toxiproxy with a few ms of latency each way, the speed test run with a short budget, its
// two heatmaps drawn with every cell of the grid and the best of each row marked, the same figures in
// tables, the bucket empty afterwards; opened again, the dialog shows the saved result with its date.

import { ListMultipartUploadsCommand, ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { launchBrowser, openApp, screenshot } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';
import { startToxiproxy } from '../support/toxiproxy.ts';
import type { ToxiproxyServer } from '../support/toxiproxy.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
let toxiproxy: ToxiproxyServer;
let endpoint: string;
const bucket = uniqueBucket();

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  toxiproxy = await startToxiproxy();
  const proxy = await toxiproxy.createProxy('speed-test', serverConfig().endpoint!);
  for (const stream of ['upstream', 'downstream'] as const)
    await proxy.addToxic(`latency-${stream}`, { type: 'latency', attributes: { latency: 3 } }, { stream });
  endpoint = proxy.endpoint;
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  await toxiproxy?.stop();
});

it('runs the speed test from the window: two heatmaps of every cell, the best marked, the bucket empty after', async () => {
  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByRole('dialog', { name: 'Add connection' });
  await form.getByLabel('Name').fill('Through latency');
  await form.getByLabel('Endpoint URL').fill(endpoint);
  await form.getByLabel('Region').fill(serverConfig().region!);
  await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
  await form.getByLabel('Secret access key').fill(serverConfig().secretAccessKey!);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();

  await page.getByRole('button', { name: 'Test this endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Test this endpoint' });
  await expect.poll(() => dialog.getByRole('status').first().textContent()).toBe('No speed test of this endpoint yet.');
  await dialog.getByLabel('Time budget').selectOption({ label: '15 seconds' });
  await dialog.getByRole('button', { name: 'Run test' }).click();
  // The progress bar moves, and says which cell it measures.
  const progress = dialog.getByRole('progressbar', { name: 'Speed test progress' });
  await expect.poll(() => progress.count()).toBe(1);
  await expect.poll(() => dialog.getByRole('status').first().textContent()).toMatch(/cells\)$/);

  const result = dialog.getByRole('region', { name: 'Speed test result' });
  await expect.poll(() => result.count(), { timeout: 240_000, interval: 1_000 }).toBe(1);
  const objects = result.locator('figure[data-grid="objects"]');
  const parts = result.locator('figure[data-grid="parts"]');
  // 5 thread counts x 3 sizes x up and down; 4 concurrencies x 5 part sizes x up and down.
  expect(await objects.getAttribute('data-cells')).toBe('30');
  expect(await parts.getAttribute('data-cells')).toBe('40');
  await expect.poll(() => objects.getAttribute('data-drawn')).toBe('30');
  await expect.poll(() => parts.getAttribute('data-drawn')).toBe('40');
  expect(await objects.locator('canvas').count()).toBe(1);
  // The best of each row marked, in the chart and in its table alike.
  const bestMarked = Number(await objects.getAttribute('data-best'));
  expect(bestMarked).toBeGreaterThan(0);
  const table = objects.getByRole('table', { name: 'Small objects: objects a second, by threads' });
  expect(await table.locator('td.best').count()).toBe(bestMarked);
  expect(await table.getByRole('row').count()).toBe(1 + 6);
  expect(await table.locator('td.best').first().textContent()).toMatch(/^Best: .* requests?$/);
  expect(await result.getByRole('listitem').first().textContent()).toMatch(/^Best overall: \d+ threads/);
  expect(await result.getByRole('status').textContent()).toMatch(/^Measured .*, and saved for this endpoint\.$/);
  await screenshot(page, 'speed-test');

  // Nothing of the test is left in the bucket: no object, version or unfinished upload.
  const versions = await s3.client.send(new ListObjectVersionsCommand({ Bucket: bucket }));
  expect([...(versions.Versions ?? []), ...(versions.DeleteMarkers ?? [])]).toEqual([]);
  const uploads = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  expect(uploads.Uploads ?? []).toEqual([]);

  // Opened again, the saved result is there with its date, and Run again.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Test this endpoint' }).click();
  const again = page.getByRole('dialog', { name: 'Test this endpoint' });
  await expect
    .poll(() => again.getByRole('region', { name: 'Speed test result' }).getByRole('status').textContent())
    .toMatch(/^Last measured \d{4}-\d\d-\d\d \d\d:\d\d in s3:\/\//);
  expect(await again.getByRole('button', { name: 'Run again' }).count()).toBe(1);
  await again.getByRole('button', { name: 'Close' }).click();
});
