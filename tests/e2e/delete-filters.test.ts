// The delete dialog's filters and its list of exactly what will go: the command line's filters,
// the matching keys streamed into a list that renders only what is on screen, and a delete of
// exactly those (the folder and the filter sent, the engine listing them again).

import AxeBuilder from '@axe-core/playwright';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import { launchBrowser, openApp, screenshot } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
const bucket = uniqueBucket();

const put = (key: string, bytes: number) =>
  s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.alloc(bytes, 1) }));

async function keys(prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const o of listAllObjects(s3, { bucket, prefix })) found.push(o.key);
  return found.sort();
}

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  await put('logs/big-1.bin', 3000);
  await put('logs/big-2.bin', 5000);
  await put('logs/keep/big-3.bin', 4000);
  await put('logs/big.keep', 6000);
  await put('logs/small-1.bin', 100);
  await put('logs/small-2.txt', 1000);
  await put('other/big.bin', 9000);
  browser = await launchBrowser();
  page = await openApp(browser);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByRole('dialog', { name: 'Add connection' });
  await form.getByLabel('Name').fill('Deletes');
  await form.getByLabel('Endpoint URL').fill(serverConfig().endpoint!);
  await form.getByLabel('Region').fill(serverConfig().region!);
  await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
  await form.getByLabel('Secret access key').fill(serverConfig().secretAccessKey!);
  await form.getByRole('button', { name: 'Save' }).click();
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

/** Open the bucket's top and the delete dialog on one of its folders. */
async function openDeleteOn(folder: string) {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  const grid = page.getByRole('grid');
  const row = grid.getByRole('row', { name: new RegExp(`^${folder}`) });
  await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
  await row.click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Delete', exact: true }).click();
  return page.getByRole('dialog', { name: 'Delete objects' });
}

it('deletes exactly what the filters keep, listed first with their count and bytes', async () => {
  const dialog = await openDeleteOn('logs/');
  const status = dialog.getByRole('status');
  const confirm = dialog.getByRole('button', { name: /^Delete/ });
  const listed = () => dialog.getByRole('list', { name: 'Objects to delete' }).getByRole('listitem').allTextContents();
  await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/deletes 6 objects \(18\.7 KiB\)/);

  // A date in the future is refused with the rule, and nothing can be deleted until it is mended.
  await dialog.getByLabel('Older than').fill('2099-01-01');
  await expect
    .poll(() => dialog.getByRole('alert').textContent())
    .toBe(
      'Older than 2099-01-01 is in the future: every object is older than that. Give a past date or an age such ' +
        'as 90d.',
    );
  expect(await confirm.isDisabled()).toBe(true);
  await dialog.getByLabel('Older than').fill('');

  // A glob that matches nothing says so and changes nothing.
  await dialog.getByLabel('Include').fill('*.nothing');
  await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('Nothing matches: nothing would be deleted.');
  expect(await confirm.isDisabled()).toBe(true);
  await dialog.getByLabel('Include').fill('');

  await dialog.getByLabel('Larger than').fill('1KB');
  await dialog.getByLabel('Exclude').fill('keep/*, *.keep');
  await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/deletes 2 objects \(7\.81 KiB\)/);
  expect(await listed()).toEqual(['logs/big-1.bin2.93 KiB', 'logs/big-2.bin4.88 KiB']);
  expect(await confirm.textContent()).toBe('Delete 2');
  const { violations } = await new AxeBuilder({ page })
    .include('dialog')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await screenshot(page, 'delete-filters');
  await confirm.click();

  await expect.poll(() => keys('logs/big-'), { timeout: 30_000 }).toEqual([]);
  expect(await keys()).toEqual([
    'logs/big.keep',
    'logs/keep/big-3.bin',
    'logs/small-1.bin',
    'logs/small-2.txt',
    'other/big.bin',
  ]);
});

it('lists 2,000 matches rendering only the rows on screen, the last reached by scrolling', async () => {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-delete-list-'));
  const folder = path.join(parent, 'many');
  await mkdir(folder);
  for (let n = 0; n < 2_000; n++) await writeFile(path.join(folder, `k${String(n).padStart(6, '0')}.txt`), 'x');
  const seeded = await engine.upload(s3, { sources: [folder], bucket, destination: '' }, { name: 'seed' }).finished();
  expect(seeded.state.status).toBe('completed');
  await rm(parent, { recursive: true, force: true });

  const dialog = await openDeleteOn('many/');
  await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 60_000 }).toMatch(/2,000 objects/);
  const list = dialog.getByRole('list', { name: 'Objects to delete' });
  const rows = list.getByRole('listitem');
  expect(await rows.count()).toBeLessThan(60);
  expect(await rows.first().textContent()).toContain('k000000.txt');
  await list.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await expect.poll(() => rows.last().textContent()).toContain('k001999.txt');
  expect(await rows.count()).toBeLessThan(60);
  expect(await list.getByText(/k001999\.txt/).isVisible()).toBe(true);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await keys('many/')).length).toBe(2_000);
});
