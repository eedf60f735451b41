// Show versions end to end, in Debian's Chromium against `npm run serve`'s host and a real store: the
// toggle lists a folder's versions and delete markers, Undelete removes a key's marker, Restore copies
// an older version over the key, and Delete (confirmed) removes one version for good. A bucket that
// never had versioning says so on the toggle. Each step is checked on the store itself.

import {
  GetObjectCommand,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
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
const plain = uniqueBucket();
const suspended = uniqueBucket();
let keptBefore: string;

const put = async (key: string, body: string) =>
  (await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }))).VersionId!;

/** The latest body of a key, or undefined where a GET finds none (a delete marker on top). */
async function latest(key: string): Promise<string | undefined> {
  try {
    const answer = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return await answer.Body!.transformToString();
  } catch {
    return undefined;
  }
}

async function versionIds(key: string): Promise<string[]> {
  const answer = await s3.client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: key }));
  return [...(answer.Versions ?? []), ...(answer.DeleteMarkers ?? [])]
    .filter((v) => v.Key === key)
    .map((v) => v.VersionId!);
}

const buckets = () => page.getByRole('navigation', { name: 'Buckets' });
const versionsGrid = () => page.getByRole('grid', { name: /^Versions in / });
const toggle = () => page.getByRole('button', { name: /^Show versions/ });

async function seriousViolations(): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  await createBucket(s3, plain);
  await createBucket(s3, suspended);
  const versioning = (status: 'Enabled' | 'Suspended') =>
    s3.client.send(new PutBucketVersioningCommand({ Bucket: suspended, VersioningConfiguration: { Status: status } }));
  // doc.txt: a version kept from before the suspension, and a "null" one written during it.
  await versioning('Enabled');
  keptBefore = (await s3.client.send(new PutObjectCommand({ Bucket: suspended, Key: 'doc.txt', Body: 'before' })))
    .VersionId!;
  await versioning('Suspended');
  await s3.client.send(new PutObjectCommand({ Bucket: suspended, Key: 'doc.txt', Body: 'during' }));
  await s3.client.send(
    new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  browser = await launchBrowser();
  page = await openApp(browser);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByRole('dialog', { name: 'Add connection' });
  await form.getByLabel('Name').fill('Versions');
  await form.getByLabel('Endpoint URL').fill(serverConfig().endpoint!);
  await form.getByLabel('Region').fill(serverConfig().region!);
  await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
  await form.getByLabel('Secret access key').fill(serverConfig().secretAccessKey!);
  await form.getByRole('button', { name: 'Save' }).click();
  await buckets().getByRole('button', { name: bucket, exact: true }).waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

it('toggles versions, sees a delete marker and undeletes it, restores an older version, deletes one for good', async () => {
  const [first] = [await put('notes.txt', 'first draft'), await put('notes.txt', 'second draft')];
  await put('gone.txt', 'still here underneath');
  const deleted = await engine.delete(s3, { bucket, keys: ['gone.txt'] }).finished();
  expect(deleted.state.status).toBe('completed');

  await buckets().getByRole('button', { name: bucket, exact: true }).click();
  await expect.poll(() => toggle().getAttribute('aria-pressed'), { timeout: 30_000 }).toBe('false');
  expect(await toggle().textContent()).toBe('Show versions');
  await toggle().click();
  expect(await toggle().getAttribute('aria-pressed')).toBe('true');
  // gone.txt: its delete marker (latest) over its version; notes.txt: two versions.
  await expect.poll(() => versionsGrid().getByRole('row').count(), { timeout: 30_000 }).toBe(1 + 4);
  const marker = versionsGrid().getByRole('row').filter({ hasText: 'Delete marker' });
  expect(await marker.count()).toBe(1);
  expect(await marker.textContent()).toContain('gone.txt');
  expect(await marker.textContent()).toContain('Latest');
  expect(await seriousViolations()).toEqual([]);
  await screenshot(page, 'versions');

  // Undelete, by the keyboard: the marker goes, the version under it is the key's again.
  await page.getByRole('button', { name: 'Undelete gone.txt' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => latest('gone.txt'), { timeout: 30_000 }).toBe('still here underneath');
  await expect.poll(() => versionsGrid().getByRole('row').filter({ hasText: 'Delete marker' }).count()).toBe(0);
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Undeleted gone.txt' }).count()).toBe(1);

  // Restore the first draft: copied over notes.txt as its latest, a third version.
  await page.getByRole('button', { name: `Restore version ${first} of notes.txt` }).click();
  await expect.poll(() => latest('notes.txt'), { timeout: 30_000 }).toBe('first draft');
  expect(await versionIds('notes.txt')).toHaveLength(3);
  await expect
    .poll(() => versionsGrid().getByRole('row').filter({ hasText: 'notes.txt' }).count(), { timeout: 30_000 })
    .toBe(3);

  // Download the first draft: saved beside the current one's name, never over it, in the host's download folder.
  await page.getByRole('button', { name: `Download version ${first} of notes.txt` }).click();
  const saved = path.join(inject('app').downloadRoot, `notes (version ${first.slice(0, 12)}).txt`);
  await expect.poll(() => readFile(saved, 'utf8').catch(() => undefined), { timeout: 30_000 }).toBe('first draft');

  // Delete the original first draft for good: confirmed, Cancel first.
  await page.getByRole('button', { name: `Delete version ${first} of notes.txt` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this version for good?' });
  await expect.poll(() => confirm.isVisible()).toBe(true);
  expect(await confirm.textContent()).toContain('This is permanent');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
  await confirm.getByRole('button', { name: 'Delete for good' }).click();
  await expect.poll(() => versionIds('notes.txt'), { timeout: 30_000 }).not.toContain(first);
  expect(await versionIds('notes.txt')).toHaveLength(2);
  expect(await latest('notes.txt')).toBe('first draft');
});

it('says plainly on the toggle that a bucket never had versioning (and offers none), or has it suspended (and restore there asks)', async () => {
  await buckets().getByRole('button', { name: plain, exact: true }).click();
  await expect.poll(() => toggle().textContent(), { timeout: 30_000 }).toBe('Show versions (versioning never enabled)');
  expect(await toggle().isDisabled()).toBe(true);
  expect(await toggle().getAttribute('title')).toContain('Versioning was never enabled on this bucket');
  expect(await page.getByRole('grid', { name: `Objects in ${plain}/` }).count()).toBe(1);

  await buckets().getByRole('button', { name: suspended, exact: true }).click();
  await expect.poll(() => toggle().textContent(), { timeout: 30_000 }).toBe('Show versions (versioning suspended)');
  expect(await toggle().isDisabled()).toBe(false);
  expect(await toggle().getAttribute('title')).toContain('Versioning is suspended on this bucket');

  // Restore there asks first, naming the state: the "null" version written meanwhile is replaced for good.
  await toggle().click();
  await page.getByRole('button', { name: `Restore version ${keptBefore} of doc.txt` }).click();
  const asked = page.getByRole('dialog', { name: 'Restore in a bucket whose versioning is suspended?' });
  await expect.poll(() => asked.isVisible()).toBe(true);
  expect(await asked.textContent()).toContain('replaces for good');
  await asked.getByRole('button', { name: 'Restore' }).click();
  const latestThere = async () => {
    const answer = await s3.client.send(new GetObjectCommand({ Bucket: suspended, Key: 'doc.txt' }));
    return answer.Body!.transformToString();
  };
  await expect.poll(latestThere, { timeout: 30_000 }).toBe('before');
  await toggle().click();
});
