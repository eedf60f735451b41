// A job's details in the window: its items one by one, the one that failed with why, the failed
// items saved as CSV, and Retry failed items, in Debian's Chromium against `npm run serve`'s host.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
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
let dir: string;
const bucket = uniqueBucket();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-details-'));
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  for (const Key of ['details/here.txt', 'details/gone.txt'])
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: `content of ${Key}` }));
  browser = await launchBrowser();
  // A context of its own: axe-core's checks open a page of theirs in it.
  page = await (await browser.newContext({ viewport: { width: 1440, height: 860 } })).newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto(inject('app').url);
});

/** axe-core over the open dialog: its serious and critical violations, named for the failure message. */
async function seriousViolations(): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .include('dialog[open]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("lists a job's items, shows the one that failed and why, saves the failures as CSV, and retries exactly that one", async () => {
  // Two objects listed and selected; one of them is deleted from the store before the download starts.
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  const grid = page.getByRole('grid');
  await grid.getByRole('row', { name: /details\// }).dblclick();
  await grid.getByRole('row', { name: /here\.txt/ }).click();
  await grid.getByRole('row', { name: /gone\.txt/ }).click({ modifiers: ['Control'] });
  await s3.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'details/gone.txt' }));
  await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
  const target = path.join(inject('app').downloadRoot, 'job-details');
  const download = page.getByRole('dialog', { name: 'Download' });
  await download.getByLabel('Download folder').fill(target);
  await download.getByRole('button', { name: 'Download' }).click();
  const row = page
    .getByRole('list', { name: 'Transfers' })
    .getByRole('listitem')
    .filter({ hasText: `2 files in s3://${bucket}/details/` });
  await expect.poll(() => row.filter({ hasText: 'failed' }).count(), { timeout: 30_000 }).toBe(1);

  // Details, from the keyboard: its items, source to destination, each with what became of it.
  await row.getByRole('button', { name: /^Details/ }).focus();
  await page.keyboard.press('Enter');
  const details = page.getByRole('dialog', { name: /^Details of 2 files in s3:/ });
  const items = details.getByRole('table', { name: 'Items' });
  const itemRow = (name: string) => items.getByRole('row').filter({ hasText: name });
  await expect.poll(() => items.getByRole('row').count()).toBe(3); // header + 2
  expect(await itemRow('here.txt').textContent()).toMatch(
    new RegExp(`done.*s3://${bucket}/details/here\\.txt.*${path.join(target, 'here.txt').replaceAll('/', '\\/')}`),
  );
  expect(await itemRow('gone.txt').textContent()).toMatch(/failed.*gone\.txt.*does not exist/);
  await screenshot(page, 'job-details');
  expect(await seriousViolations()).toEqual([]);

  // The errors view: the failed item alone, and as CSV (the browser's own download).
  await details.getByLabel(/Failed items/).check();
  const failed = details.getByRole('table', { name: 'Failed items' });
  await expect.poll(() => failed.getByRole('row').count()).toBe(2);
  expect(await failed.getByRole('row').nth(1).textContent()).toContain(`s3://${bucket}/details/gone.txt`);
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    details.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(saved.suggestedFilename()).toMatch(/^barge-errors-download-[0-9a-f]{8}\.csv$/);
  const csv = (await readFile(await saved.path(), 'utf8')).trim().split('\n');
  expect(csv[0]).toBe('source,destination,size,state,code,message');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toMatch(
    new RegExp(
      `^s3://${bucket}/details/gone\\.txt,${path.join(target, 'gone.txt').replaceAll('/', '\\/')},[0-9]*,failed,NoSuchKey,`,
    ),
  );

  // Back in the store, the failed item alone is tried again, in the same job.
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'details/gone.txt', Body: 'back again' }));
  await details.getByRole('button', { name: 'Retry failed items' }).click();
  await expect.poll(() => row.filter({ hasText: 'completed' }).count(), { timeout: 30_000 }).toBe(1);
  expect(await readFile(path.join(target, 'gone.txt'), 'utf8')).toBe('back again');
  await expect.poll(() => details.textContent()).toContain('No items failed.');
  expect(await details.getByRole('button', { name: 'Retry failed items' }).count()).toBe(0);
  await details.getByLabel('All items').check();
  await expect.poll(() => items.getByRole('row').filter({ hasText: 'done' }).count()).toBe(2);
  await page.keyboard.press('Escape');
  await expect.poll(() => details.count()).toBe(0);
});

it("shortens long paths in the middle, keeping each file's name whole with the whole path in a tooltip, and shows a failed row's error whole", async () => {
  const folder = `a-folder-with-a-rather-long-name-${'0123456789'.repeat(5)}`;
  const kept = 'IMG_20240815_final-version.jpg';
  const gone = 'gone-from-the-store-before-it-was-fetched.txt';
  for (const name of [kept, gone])
    await s3.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: `long/${folder}/${name}`, Body: `content of ${name}` }),
    );
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  const grid = page.getByRole('grid');
  await grid.getByRole('row', { name: /long\// }).dblclick();
  await grid.getByRole('row', { name: new RegExp(folder) }).dblclick();
  await grid.getByRole('row', { name: new RegExp(kept) }).click();
  await grid.getByRole('row', { name: new RegExp(gone) }).click({ modifiers: ['Control'] });
  await s3.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `long/${folder}/${gone}` }));
  await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
  const target = path.join(inject('app').downloadRoot, 'job-details-long', folder);
  const download = page.getByRole('dialog', { name: 'Download' });
  await download.getByLabel('Download folder').fill(target);
  await download.getByRole('button', { name: 'Download' }).click();
  const row = page
    .getByRole('list', { name: 'Transfers' })
    .getByRole('listitem')
    .filter({ hasText: `2 files in s3://${bucket}/long/` });
  await expect.poll(() => row.filter({ hasText: 'failed' }).count(), { timeout: 30_000 }).toBe(1);
  await row.getByRole('button', { name: /^Details/ }).click();
  const details = page.getByRole('dialog', { name: /^Details of 2 files in s3:.*long/ });
  const items = details.getByRole('table', { name: 'Items' });
  await expect.poll(() => items.getByRole('row').count()).toBe(3);

  // Each path's end, the file's name, shows whole; the folders before it give way, with "…".
  const done = items.getByRole('row').filter({ hasText: kept });
  for (const [cell, whole] of [
    ['.item-source', `s3://${bucket}/long/${folder}/${kept}`],
    ['.item-destination', path.join(target, kept)],
  ] as const) {
    const shown = done.locator(`${cell} .middle-path`);
    expect(await shown.getAttribute('title')).toBe(whole);
    expect(await shown.locator('.middle-path-tail').textContent()).toBe(kept);
    const fit = await done.locator(cell).evaluate((element) => {
      const box = element.getBoundingClientRect();
      const head = element.querySelector('.middle-path-head')!;
      const tail = element.querySelector('.middle-path-tail')!.getBoundingClientRect();
      return {
        tailInside: tail.left >= box.left && tail.right <= box.right + 0.5,
        headShortened: head.scrollWidth > head.clientWidth,
      };
    });
    expect(fit, cell).toEqual({ tailInside: true, headShortened: true });
  }

  // The failed row's error is long: it wraps onto more lines, and its row is tall enough for all of them.
  const failedRow = items.getByRole('row').filter({ hasText: gone });
  const message = failedRow.locator('.item-message');
  expect(await message.textContent()).toMatch(/does not exist/);
  const lines = await message.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const row = element.closest('[role="row"]')!.getBoundingClientRect();
    return {
      clipped: element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1,
      inside: box.top >= row.top && box.bottom <= row.bottom + 0.5,
      height: box.height,
    };
  });
  expect(lines.clipped).toBe(false);
  expect(lines.inside).toBe(true);
  expect(lines.height).toBeGreaterThan(30);
  // The row below it starts below it.
  const below = await items.locator('[aria-rowindex="3"]').boundingBox();
  const above = await items.locator('[aria-rowindex="2"]').boundingBox();
  expect(below!.y).toBeGreaterThanOrEqual(above!.y + above!.height - 1);
  await page.keyboard.press('Escape');
  await expect.poll(() => details.count()).toBe(0);
});

it('opens the details of a job of 12,000 items at once, rendering only the rows on screen, and scrolls to the last', async () => {
  // Seeded with the engine, then deleted through the window (typing the folder's name, above 1,000).
  const folder = path.join(dir, 'many');
  await mkdir(folder);
  for (let n = 0; n < 12_000; n++) await writeFile(path.join(folder, `k${String(n).padStart(6, '0')}.txt`), String(n));
  const seeded = await engine.upload(s3, { sources: [folder], bucket, destination: '' }, { name: 'seed' }).finished();
  expect(seeded.state.status).toBe('completed');
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  await page
    .getByRole('grid')
    .getByRole('row', { name: /many\// })
    .click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete objects' });
  await expect.poll(() => confirm.getByRole('status').textContent(), { timeout: 60_000 }).toContain('12,000 objects');
  await confirm.getByLabel('Type the name to confirm').fill('many');
  await confirm.getByRole('button', { name: /^Delete/ }).click();
  const row = page
    .getByRole('list', { name: 'Transfers' })
    .getByRole('listitem')
    .filter({ hasText: /Delete .*many/ });
  await expect.poll(() => row.filter({ hasText: 'completed' }).count(), { timeout: 120_000 }).toBe(1);

  await row.getByRole('button', { name: /^Details/ }).click();
  const details = page.getByRole('dialog', { name: /^Details of Delete .*many/ });
  const items = details.getByRole('table', { name: 'Items' });
  // The count comes with the first page, asked for as the dialog opens.
  await expect.poll(() => items.getAttribute('aria-rowcount')).toBe('12001');
  await expect.poll(() => items.getByRole('row').filter({ hasText: 'done' }).count()).toBeGreaterThan(5);
  expect(await items.getByRole('row').count()).toBeLessThan(60);
  // To the end: the last row comes into view and its page is fetched.
  await details.getByRole('region', { name: 'Items, scrollable' }).evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  const last = items.locator('[aria-rowindex="12001"]');
  await expect.poll(() => last.textContent()).toMatch(new RegExp(`done.*s3://${bucket}/many/k\\d{6}\\.txt`));
  expect(await items.getByRole('row').count()).toBeLessThan(60);
  await screenshot(page, 'job-details-12000');
  await details.getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => details.count()).toBe(0);
});

it('Retry on files that were already there asks what to do instead, keeps both, and says when the retry has ended', async () => {
  for (const Key of ['twice/a.txt', 'twice/b.txt'])
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: `new ${Key}` }));
  const target = path.join(inject('app').downloadRoot, 'job-details-twice');
  // A folder downloads with its name: its files land in target/twice/.
  const landed = path.join(target, 'twice');
  await mkdir(landed, { recursive: true });
  for (const name of ['a.txt', 'b.txt']) await writeFile(path.join(landed, name), `mine ${name}`);
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  const grid = page.getByRole('grid');
  await grid.getByRole('row', { name: /twice\// }).click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
  const download = page.getByRole('dialog', { name: 'Download' });
  await download.getByLabel('Download folder').fill(target);
  await download.getByLabel('If a file is already there').selectOption('fail');
  await download.getByRole('button', { name: 'Download' }).click();
  const row = page
    .getByRole('list', { name: 'Transfers' })
    .getByRole('listitem')
    .filter({ hasText: `twice in s3://${bucket}/` });
  await expect.poll(() => row.filter({ hasText: 'failed' }).count(), { timeout: 30_000 }).toBe(1);

  // The row's Retry, like the details' Retry failed items, does not retry them the same way (it
  // would fail them again): the details open and ask, with the answers that can pass.
  await row.getByRole('button', { name: 'Retry' }).click();
  const details = page.getByRole('dialog', { name: /^Details of twice/ });
  const choice = details.getByRole('group', { name: 'Retry the items already there' });
  await expect.poll(() => choice.textContent()).toContain('2 items failed because their files were already there');
  expect(await choice.getByRole('button').allTextContents()).toEqual(['Replace', 'Keep both', 'Skip', 'Not now']);
  expect(await details.getByRole('alert').count()).toBe(0);
  // Nothing ran yet: no retry has ended.
  expect(await details.getByText('The retry ended').count()).toBe(0);
  await screenshot(page, 'job-details-retry-choice');
  expect(await seriousViolations()).toEqual([]);
  await choice.getByRole('button', { name: 'Keep both' }).click();
  await expect.poll(() => row.filter({ hasText: 'completed' }).count(), { timeout: 30_000 }).toBe(1);
  expect(await readFile(path.join(landed, 'a.txt'), 'utf8')).toBe('mine a.txt');
  expect(await readFile(path.join(landed, 'a (1).txt'), 'utf8')).toBe('new twice/a.txt');
  // "Retrying…" does not stay once the retry is over.
  await expect.poll(() => details.getByRole('status').textContent()).toBe('The retry ended: every item is done.');
  await details.getByRole('button', { name: 'Close' }).click();
});
