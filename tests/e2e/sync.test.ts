// Sync… end to end, in Debian's Chromium against `npm run serve`'s host and a real MinIO: the
// comparison is shown first (new, changed, extra, with bytes and the keys), then the sync runs as
// one job, deleting the extra only when asked.

import { randomBytes } from 'node:crypto';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
const bucket = uniqueBucket();
/** A folder of this run's own below the host's download root (other suites share the root). */
const folder = path.join(inject('app').downloadRoot, `sync-${randomBytes(4).toString('hex')}`);

async function exists(key: string): Promise<boolean> {
  return s3.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    () => true,
    () => false,
  );
}

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'same.txt', Body: 'same\n' }));
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'grows.txt', Body: 'short\n' }));
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'stray.bin', Body: 'xyz' }));
  await mkdir(folder, { recursive: true });
  // Older than the objects: unchanged unless the size differs.
  await writeFile(path.join(folder, 'same.txt'), 'same\n');
  await writeFile(path.join(folder, 'grows.txt'), 'much longer now\n');
  await writeFile(path.join(folder, 'added.txt'), 'added\n');
  const past = new Date(Date.now() - 3_600_000);
  for (const name of ['same.txt', 'grows.txt', 'added.txt']) await utimes(path.join(folder, name), past, past);
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 860 } });
  page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto(inject('app').url);
  await page
    .getByRole('navigation', { name: 'Buckets' })
    .getByRole('button', { name: bucket, exact: true })
    .waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

it('Sync… shows the comparison first, then runs it as one job, deleting the extra only when asked', async () => {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Sync…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sync' });
  await dialog.getByLabel('Sync folder').fill(folder);
  // Nothing runs before the comparison is shown.
  expect(await dialog.getByRole('button', { name: 'Sync', exact: true }).isDisabled()).toBe(true);
  await dialog.getByRole('button', { name: 'Compare' }).click();
  const comparison = dialog.getByRole('region', { name: 'Comparison' });
  await comparison.waitFor({ timeout: 30_000 });
  expect(await comparison.getByRole('listitem').allTextContents()).toEqual([
    'New: 1 (6 B)',
    'Changed: 1 (16 B)',
    'Extra: 1 (3 B)',
  ]);
  const keys = dialog.getByRole('region', { name: 'Keys to sync' });
  expect(await keys.textContent()).toContain('added.txt');
  expect(await keys.textContent()).toContain('grows.txt');
  expect(await keys.textContent()).not.toContain('same.txt');
  // The comparison sent nothing.
  expect(await exists('added.txt')).toBe(false);
  await dialog.getByRole('checkbox', { name: /Delete extra \(1\)/ }).check();
  expect(await keys.textContent()).toContain('stray.bin');
  await screenshot(page, 'sync-comparison');
  await dialog.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  // One job in the transfers panel, named after where it goes.
  await expect
    .poll(
      () =>
        page
          .getByRole('list', { name: 'Transfers' })
          .getByRole('listitem')
          .filter({ hasText: `s3://${bucket}/` })
          .count(),
      { timeout: 30_000 },
    )
    .toBe(1);
  await expect.poll(() => exists('added.txt'), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => exists('stray.bin'), { timeout: 30_000 }).toBe(false);
  const grown = await s3.client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'grows.txt' }));
  expect(grown.ContentLength).toBe(16);
});

it('Sync… from an empty folder keeps the extras and says why, rather than offer to delete them', async () => {
  const empty = path.join(inject('app').downloadRoot, `sync-empty-${randomBytes(4).toString('hex')}`);
  await mkdir(empty, { recursive: true });
  await page.getByRole('toolbar').getByRole('button', { name: 'Sync…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sync' });
  await dialog.getByLabel('Sync folder').fill(empty);
  await dialog.getByRole('button', { name: 'Compare' }).click();
  const comparison = dialog.getByRole('region', { name: 'Comparison' });
  await comparison.waitFor({ timeout: 30_000 });
  expect(await comparison.getByRole('listitem').allTextContents()).toContain('Extra: 3 (27 B)');
  const deleteExtra = dialog.getByRole('checkbox', { name: /Delete extra \(3\)/ });
  expect(await deleteExtra.isDisabled()).toBe(true);
  expect(await dialog.getByRole('note').textContent()).toContain(`${empty} holds nothing`);
  // Nothing to send and nothing it would delete: there is nothing to run.
  expect(await dialog.getByRole('button', { name: 'Sync', exact: true }).isDisabled()).toBe(true);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await exists('same.txt')).toBe(true);
});
