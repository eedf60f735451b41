// Small things a daily user of the window notices, in Debian's Chromium against `npm run serve`'s
// host: a column header sorts from anywhere in its cell, a long name keeps its file icon whole, a
// paused job's buttons stay inside the Transfers panel at its narrowest, a job's destination is
// shortened in the middle (whole in its tooltip), the font stack reaches for CJK faces, and the
// host's folder picker makes a New folder.

import { mkdir, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { launchBrowser, openApp, screenshot } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
const bucket = uniqueBucket();
const LONG_NAME = `${'a name long enough to fill the whole column of names '.repeat(4)}.txt`;

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  for (const Key of [LONG_NAME, 'b.txt', 'paused/kept.txt'])
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: `content of ${Key}` }));
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

async function openBucket(): Promise<void> {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  await expect.poll(() => page.getByRole('grid').getByRole('row').count()).toBe(1 + 3);
}

const box = async (locator: Locator) => (await locator.boundingBox())!;

it('sorts by a column from anywhere in its header cell, by click and by keyboard', async () => {
  await openBucket();
  const header = (name: string) => page.getByRole('grid').getByRole('columnheader', { name });
  // The Size header's word is at its right: its left end is the cell, not the word.
  const size = await box(header('Size'));
  await page.mouse.click(size.x + 4, size.y + size.height / 2);
  await expect.poll(() => header('Size').getAttribute('aria-sort')).toBe('ascending');
  const name = await box(header('Name'));
  await page.mouse.click(name.x + name.width - 4, name.y + name.height / 2);
  await expect.poll(() => header('Name').getAttribute('aria-sort')).toBe('ascending');
  await header('Modified').getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => header('Modified').getAttribute('aria-sort')).toBe('ascending');
});

it("keeps a long name's file icon whole (15 px)", async () => {
  await openBucket();
  const icon = page
    .getByRole('grid')
    .getByRole('row', { name: /a name long enough/ })
    .locator('.file-icon');
  expect(await icon.evaluate((element) => element.getBoundingClientRect().width)).toBe(15);
});

it("keeps a paused job's buttons inside the Transfers panel at its narrowest, and shortens its destination in the middle", async () => {
  // The panel at its narrowest (320 px), as a user who dragged it there finds it again.
  await page.evaluate(() => localStorage.setItem('barge.layout.v1', JSON.stringify({ transfers: 320 })));
  await page.reload();
  await openBucket();
  // A download that waits on a file already there ("ask"), paused meanwhile: it stays paused.
  const target = path.join(
    inject('app').downloadRoot,
    'a folder with a rather long name for downloads',
    'the last folder',
  );
  await mkdir(path.join(target, 'paused'), { recursive: true });
  await writeFile(path.join(target, 'paused', 'kept.txt'), 'mine');
  await page
    .getByRole('grid')
    .getByRole('row', { name: /paused\// })
    .click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
  const download = page.getByRole('dialog', { name: 'Download' });
  await download.getByLabel('Download folder').fill(target);
  await download.getByLabel('If a file is already there').selectOption('ask');
  await download.getByRole('button', { name: 'Download' }).click();
  await expect
    .poll(() => page.getByRole('dialog', { name: 'A file is already there' }).count(), { timeout: 30_000 })
    .toBe(1);
  // The question is modal: the row's buttons are reached behind it as a script would.
  const row = page.locator('.transfers-panel article.job').filter({ hasText: `paused in s3://${bucket}/` });
  await row.locator('.actions button', { hasText: 'Pause' }).dispatchEvent('click');
  await expect.poll(() => row.locator('.state').textContent()).toBe('paused');

  const panel = await box(page.locator('.transfers-panel'));
  expect(panel.width).toBe(320);
  for (const label of ['Resume', 'Cancel']) {
    const button = await box(row.locator('.actions button', { hasText: label }));
    expect(button.x + button.width, label).toBeLessThanOrEqual(panel.x + panel.width);
  }
  const clear = await box(page.locator('.transfers-panel [role="toolbar"] button', { hasText: 'Clear finished' }));
  expect(clear.x + clear.width).toBeLessThanOrEqual(panel.x + panel.width);
  const name = `paused in s3://${bucket}/ → ${target}`;
  const shown = row.locator('.job-name');
  expect(await shown.getAttribute('title')).toBe(name);
  const seen = (await shown.locator('bdi[aria-hidden="true"]').textContent())!;
  expect(seen).toContain('…');
  expect(seen.endsWith('/the last folder')).toBe(true);
  expect(seen.startsWith('paused')).toBe(true);
  await screenshot(page, 'transfers-paused-narrow');

  await row.locator('.actions button', { hasText: 'Cancel' }).dispatchEvent('click');
  await expect.poll(() => row.locator('.state').textContent(), { timeout: 30_000 }).toBe('cancelled');
  await page.evaluate(() => localStorage.removeItem('barge.layout.v1'));
});

it('reaches for faces that carry Japanese, Chinese and Korean names, and other scripts, where the system has them', async () => {
  const family = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  for (const face of [
    'Hiragino Sans',
    'Yu Gothic UI',
    'Noto Sans CJK JP',
    'Microsoft YaHei UI',
    'Malgun Gothic',
    'Noto Sans Arabic',
    'Noto Sans Devanagari',
  ]) {
    expect(family).toContain(face);
  }
  expect(family.trim().endsWith('sans-serif')).toBe(true);
});

it("makes a New folder in the host's folder picker and opens it; a name that cannot be is refused in words, and Escape puts the name away only", async () => {
  await page
    .getByRole('grid')
    .getByRole('row', { name: /b\.txt/ })
    .click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
  const download = page.getByRole('dialog', { name: 'Download' });
  await download.getByRole('button', { name: 'Browse…' }).click();
  const picker = page.getByRole('dialog', { name: `Choose a folder on ${os.hostname()}` });
  const root = inject('app').downloadRoot;
  await expect.poll(() => picker.getByRole('listbox', { name: `Folders in ${root}`, exact: true }).count()).toBe(1);

  await picker.getByRole('button', { name: 'New folder' }).click();
  const name = picker.getByRole('textbox', { name: `Name of the new folder in ${root}` });
  await name.fill('a/b');
  await name.press('Enter');
  await expect
    .poll(() => picker.getByRole('alert').textContent())
    .toBe('"a/b" cannot name a folder: a name has no / or \\ in it (make one folder at a time).');
  await name.press('Escape');
  expect(await picker.count()).toBe(1);
  expect(await name.count()).toBe(0);

  await picker.getByRole('button', { name: 'New folder' }).click();
  await name.fill('Made in the picker');
  await name.press('Enter');
  const made = path.join(root, 'Made in the picker');
  await expect.poll(() => picker.getByRole('listbox', { name: `Folders in ${made}`, exact: true }).count()).toBe(1);
  expect((await stat(made)).isDirectory()).toBe(true);
  expect(await picker.getByRole('alert').count()).toBe(0);
  await screenshot(page, 'folder-picker-new-folder');
  await picker.getByRole('button', { name: 'Choose this folder' }).click();
  expect(await download.getByLabel('Download folder').inputValue()).toBe(made);
  await download.getByRole('button', { name: 'Cancel' }).click();
});
