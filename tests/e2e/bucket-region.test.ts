// A bucket in another region, in the window: a connection in us-east-1, through a proxy that answers
// as AWS does for a bucket in eu-west-1 (region-proxy.ts). The bucket browses, takes an upload and
// a delete, and its details say it is in eu-west-1, as the store named it.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { launchBrowser, openApp, screenshot } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';
import { startRegionProxy } from '../support/region-proxy.ts';
import type { RegionProxy } from '../support/region-proxy.ts';

const NAME = 'Ireland from us-east-1';
let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
let proxy: RegionProxy;
let dir: string;
const bucket = uniqueBucket();

async function keys(): Promise<string[]> {
  const found: string[] = [];
  for await (const o of listAllObjects(s3, { bucket })) found.push(o.key);
  return found.sort();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-region-'));
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'docs/a.txt', Body: 'already there' }));
  const server = inject('s3');
  proxy = await startRegionProxy(
    server.endpoint,
    { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    server.region,
    { [bucket]: 'eu-west-1' },
  );
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  await proxy?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('browses, uploads to, deletes from and tells the region of a bucket in eu-west-1, from a connection in us-east-1', async () => {
  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByRole('dialog', { name: 'Add connection' });
  await form.getByLabel('Name').fill(NAME);
  await form.getByLabel('Endpoint URL').fill(proxy.endpoint);
  await form.getByLabel('Region').fill('us-east-1');
  await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
  await form.getByLabel('Secret access key').fill(serverConfig().secretAccessKey!);
  await form.getByRole('button', { name: 'Save' }).click();
  const picker = page.getByRole('combobox', { name: 'Connection' });
  await expect.poll(() => picker.locator('option:checked').textContent()).toContain(NAME);

  const buckets = page.getByRole('navigation', { name: 'Buckets' });
  await buckets.getByRole('button', { name: bucket, exact: true }).click();
  const grid = page.getByRole('grid');
  await expect.poll(() => grid.getByRole('row', { name: /docs\// }).count(), { timeout: 30_000 }).toBe(1);

  await buckets.getByRole('button', { name: `Details of bucket ${bucket}` }).click();
  const details = page.getByRole('dialog', { name: `Bucket ${bucket}` });
  await expect.poll(() => details.textContent()).toContain('eu-west-1 (as the store says)');
  await screenshot(page, 'bucket-region');
  await details.getByRole('button', { name: 'Close' }).click();

  const file = path.join(dir, 'from-the-window.txt');
  await writeFile(file, 'sent to Ireland');
  await page.getByLabel('Choose files to upload').setInputFiles([file]);
  await expect.poll(keys, { timeout: 30_000 }).toEqual(['docs/a.txt', 'from-the-window.txt']);

  await expect.poll(() => grid.getByRole('row', { name: /from-the-window\.txt/ }).count(), { timeout: 30_000 }).toBe(1);
  await grid.getByRole('row', { name: /from-the-window\.txt/ }).click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete objects' });
  await expect.poll(() => confirm.getByRole('status').textContent(), { timeout: 30_000 }).toContain('1 object');
  await confirm.getByRole('button', { name: /^Delete/ }).click();
  await expect.poll(keys, { timeout: 30_000 }).toEqual(['docs/a.txt']);

  // Refused for its region at first, then every request for the bucket went to eu-west-1.
  expect(proxy.refusedFor(bucket)).toBeGreaterThan(0);
  const passed = new Set(
    proxy.seen
      .filter((request) => request.bucket === bucket && !request.refused)
      .map((request) => request.signedRegion),
  );
  expect(passed).toEqual(new Set(['eu-west-1']));

  // The saved connection goes, so the other stories start as they expect.
  await page.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: 'Remove connection' }).getByRole('button', { name: 'Remove' }).click();
  await expect.poll(() => picker.locator('option', { hasText: NAME }).count()).toBe(0);
});
