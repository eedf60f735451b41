// Deletes you can audit and undo, driven in Chromium through the web host against MinIO: a folder
// deleted in a versioned bucket and undone from Transfers; the History view after a reload, its
// Deletes filter and its export of what a delete removed; the delete dialog in a bucket that keeps
// no versions, and Turn on versioning first; Restore to… listing its changes, then restoring.

import AxeBuilder from '@axe-core/playwright';
import {
  DeleteObjectCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
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
const versioned = uniqueBucket();
const unversioned = uniqueBucket();

const put = (bucket: string, key: string, body: string) =>
  s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));

async function keys(bucket: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const o of listAllObjects(s3, { bucket, prefix })) found.push(o.key);
  return found.sort();
}

async function body(bucket: string, key: string): Promise<string> {
  const answer = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return answer.Body!.transformToString();
}

/** axe-core's serious and critical violations inside the open dialog. */
async function seriousViolations(): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .include('dialog')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

const grid = () => page.getByRole('grid');
const folderRow = (name: string) => grid().getByRole('row', { name: new RegExp(`^${name}`) });

/** The bucket's top on screen, with the folder's row selected. */
async function selectFolder(bucket: string, folder: string) {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect.poll(() => folderRow(folder).count(), { timeout: 30_000 }).toBe(1);
  await folderRow(folder).click();
}

async function openDeleteOn(bucket: string, folder: string) {
  await selectFolder(bucket, folder);
  await page.getByRole('toolbar').getByRole('button', { name: 'Delete', exact: true }).click();
  return page.getByRole('dialog', { name: 'Delete objects' });
}

/** "2026-11-26T09:30:05": a moment as a datetime-local input takes it, in this computer's time. */
function localInputValue(ms: number): string {
  const at = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T` +
    `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`
  );
}

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, versioned);
  await s3.client.send(
    new PutBucketVersioningCommand({ Bucket: versioned, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  await createBucket(s3, unversioned);
  for (const key of ['docs/a.txt', 'docs/b.txt', 'docs/sub/c.txt']) await put(versioned, key, `body of ${key}`);
  await put(unversioned, 'plain/one.txt', 'one');
  browser = await launchBrowser();
  page = await openApp(browser);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByRole('dialog', { name: 'Add connection' });
  await form.getByLabel('Name').fill('Audit');
  await form.getByLabel('Endpoint URL').fill(serverConfig().endpoint!);
  await form.getByLabel('Region').fill(serverConfig().region!);
  await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
  await form.getByLabel('Secret access key').fill(serverConfig().secretAccessKey!);
  await form.getByRole('button', { name: 'Save' }).click();
});

// A test that failed with a dialog open leaves the next one a window it can use.
afterEach(async () => {
  for (let open = 0; open < 3 && (await page.locator('dialog[open]').count()) > 0; open++)
    await page.keyboard.press('Escape');
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

it('deletes a folder in a versioned bucket, and its Undo in Transfers brings every object back', async () => {
  const dialog = await openDeleteOn(versioned, 'docs/');
  await expect
    .poll(() => dialog.locator('.undo-note').textContent(), { timeout: 30_000 })
    .toContain('this delete can be undone from History');
  await expect
    .poll(() => dialog.getByRole('button', { name: /^Delete \d/ }).textContent(), { timeout: 30_000 })
    .toBe('Delete 3');
  await dialog.getByRole('button', { name: 'Delete 3' }).click();
  await expect.poll(() => keys(versioned, 'docs/'), { timeout: 30_000 }).toEqual([]);

  const transfers = page.getByRole('complementary', { name: 'Transfers panel' });
  const undo = transfers.getByRole('button', { name: new RegExp(`^Undo Delete .*${versioned}`) });
  await expect.poll(() => undo.count(), { timeout: 30_000 }).toBe(1);
  await undo.click();
  await expect
    .poll(() => keys(versioned, 'docs/'), { timeout: 30_000 })
    .toEqual(['docs/a.txt', 'docs/b.txt', 'docs/sub/c.txt']);
  expect(await body(versioned, 'docs/sub/c.txt')).toBe('body of docs/sub/c.txt');
  // Undone once: the delete offers no second undo.
  await expect.poll(() => undo.count(), { timeout: 30_000 }).toBe(0);
});

it('lists the delete and its undo in History after a reload; Deletes filters; Export saves the keys removed', async () => {
  await page.reload();
  await page.getByRole('banner').getByRole('button', { name: 'History', exact: true }).click();
  const history = page.getByRole('dialog', { name: 'History' });
  const table = history.getByRole('table', { name: 'Finished jobs' });
  const kindCell = (kind: string) => page.getByRole('cell', { name: kind, exact: true });
  const deleteRow = table
    .getByRole('row')
    .filter({ has: kindCell('Delete') })
    .filter({ hasText: `docs in s3://${versioned}/` });
  const undoRow = table
    .getByRole('row')
    .filter({ has: kindCell('Undo') })
    .filter({ hasText: `docs in s3://${versioned}/` });
  await expect.poll(() => deleteRow.count(), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => undoRow.count(), { timeout: 30_000 }).toBe(1);
  expect(await deleteRow.getByRole('cell').nth(3).textContent()).toBe('undone');
  expect(await deleteRow.getByRole('cell').nth(5).textContent()).toContain('Audit');

  await history.getByRole('radio', { name: 'Deletes' }).check();
  await expect.poll(() => undoRow.count()).toBe(0);
  expect(await deleteRow.count()).toBe(1);
  const kinds = await table.locator('tbody tr td:nth-child(2)').allTextContents();
  expect(new Set(kinds)).toEqual(new Set(['Delete']));

  await deleteRow.getByRole('button').click();
  const details = history.getByRole('region', { name: /^Job / });
  await expect.poll(() => details.textContent(), { timeout: 30_000 }).toContain('Undone by');
  expect(await details.textContent()).toContain(`bucket ${versioned}; 1 folder (docs/)`);
  expect(await details.textContent()).toContain('versioning enabled (when it ran)');
  expect(await details.getByRole('button', { name: 'Undo' }).isDisabled()).toBe(true);
  expect(await details.textContent()).toMatch(/Undo is not possible: .*undone already/);
  expect(await seriousViolations()).toEqual([]);
  await screenshot(page, 'history');

  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    details.getByRole('button', { name: 'Export' }).click(),
  ]);
  expect(saved.suggestedFilename()).toMatch(/^barge-removed-delete-[0-9a-f]{8}\.csv$/);
  const csv = await readFile((await saved.path())!, 'utf8');
  const rows = csv.trim().split('\n');
  expect(rows[0]).toBe('key,version_id,delete_marker_version_id,size');
  expect(
    rows
      .slice(1)
      .map((line) => line.split(',')[0])
      .sort(),
  ).toEqual(['docs/a.txt', 'docs/b.txt', 'docs/sub/c.txt']);
  await history.getByRole('button', { name: 'Close' }).click();
});

it('says a delete in a bucket keeping no versions cannot be undone, and turns versioning on first', async () => {
  const dialog = await openDeleteOn(unversioned, 'plain/');
  await expect
    .poll(() => dialog.locator('.undo-note').textContent(), { timeout: 30_000 })
    .toContain('This delete cannot be undone: versioning never enabled in this bucket.');
  await dialog.getByRole('button', { name: 'Turn on versioning first' }).click();
  await expect
    .poll(() => dialog.locator('.undo-note').textContent(), { timeout: 30_000 })
    .toContain('this delete can be undone from History');
  // The dialog's own words follow: the delete now hides, and keeps the versions.
  await expect
    .poll(() => dialog.locator('p.preview').textContent(), { timeout: 30_000 })
    .toMatch(/^This hides 1 object/);
  const state = await s3.client.send(new GetBucketVersioningCommand({ Bucket: unversioned }));
  expect(state.Status).toBe('Enabled');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await keys(unversioned)).toEqual(['plain/one.txt']);
});

it('Restore to… refuses a moment to come, lists every change of a dry run, then restores the folder', async () => {
  await put(versioned, 'site/index.html', 'first');
  await put(versioned, 'site/old.txt', 'old');
  // A whole second between the two rounds: the moment is picked to the second.
  await sleep(1100);
  const moment = Math.ceil(Date.now() / 1000) * 1000;
  await sleep(Math.max(0, moment - Date.now()) + 1100);
  await put(versioned, 'site/index.html', 'second');
  await put(versioned, 'site/new.txt', 'new');
  await s3.client.send(new DeleteObjectCommand({ Bucket: versioned, Key: 'site/old.txt' }));
  expect(await keys(versioned, 'site/')).toEqual(['site/index.html', 'site/new.txt']);

  await selectFolder(versioned, 'site/');
  await folderRow('site/').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Restore to…' }).click();
  const dialog = page.getByRole('dialog', { name: `Restore s3://${versioned}/site/ to…` });
  const when = dialog.getByLabel('As it was at (local time)');

  await when.fill('2099-01-01T00:00:00');
  await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/is in the future: /);
  expect(await dialog.getByRole('button', { name: 'List changes' }).isDisabled()).toBe(true);

  await when.fill(localInputValue(moment));
  await dialog.getByRole('button', { name: 'List changes' }).click();
  await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 30_000 }).toMatch(/^3 changes to bring/);
  const changes = await dialog.getByRole('list', { name: 'Changes to make' }).getByRole('listitem').allTextContents();
  expect(changes).toHaveLength(3);
  expect(changes.find((c) => c.startsWith('site/index.html'))).toMatch(/would copy version/);
  expect(changes.find((c) => c.startsWith('site/old.txt'))).toMatch(/would remove its delete marker/);
  expect(changes.find((c) => c.startsWith('site/new.txt'))).toMatch(/would delete it/);
  // Nothing changed yet: it was a dry run.
  expect(await keys(versioned, 'site/')).toEqual(['site/index.html', 'site/new.txt']);
  await screenshot(page, 'restore-to');

  await dialog.getByRole('button', { name: 'Restore 3 changes' }).click();
  await expect.poll(() => keys(versioned, 'site/'), { timeout: 30_000 }).toEqual(['site/index.html', 'site/old.txt']);
  await expect.poll(() => body(versioned, 'site/index.html'), { timeout: 30_000 }).toBe('first');
  expect(await body(versioned, 'site/old.txt')).toBe('old');
});
