// An upload onto objects already there, in the window (Chromium against `npm run serve`'s host and a
// real MinIO): it asks before it replaces, showing both sides' sizes and dates and what replacing
// does in this bucket (versions or not); each answer does what it says, "do the same for every file"
// answers the rest, and an answer chosen up front beside Upload asks nothing.

import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { formatBytes, formatDate } from '../../renderer/format.ts';
import { launchBrowser, openApp, screenshot } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
let dir: string;
const plain = uniqueBucket();
const versioned = uniqueBucket();
/** The object there: 257 bytes; the file dropped on it: 34 bytes, saved a while ago. */
const STORED = 'x'.repeat(257);
const LOCAL = 'a newer README, written on a train';
const LOCAL_MODIFIED = new Date('2025-03-01T12:00:05Z');

async function keys(bucket: string): Promise<string[]> {
  const found: string[] = [];
  for await (const o of listAllObjects(s3, { bucket })) found.push(o.key);
  return found.sort();
}

async function body(bucket: string, key: string): Promise<string> {
  const answer = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return answer.Body!.transformToString();
}

async function localFile(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  await utimes(file, LOCAL_MODIFIED, LOCAL_MODIFIED);
  return file;
}

async function openFolder(bucket: string, folder?: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  if (!folder) return;
  await page
    .getByRole('grid')
    .getByRole('row', { name: new RegExp(`${folder}/`) })
    .dblclick();
  await expect
    .poll(() => page.getByRole('navigation', { name: 'Breadcrumbs' }).textContent())
    .toBe(`${bucket} / ${folder}`);
}

const question = () => page.getByRole('dialog', { name: 'An object is already there' });
const upFront = () => page.getByRole('toolbar').getByLabel('If an object is already there');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-upload-conflict-'));
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, plain);
  await s3.client.send(new PutObjectCommand({ Bucket: plain, Key: 'projects/README.txt', Body: STORED }));
  await createBucket(s3, versioned);
  await s3.client.send(
    new PutBucketVersioningCommand({ Bucket: versioned, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  for (const Key of ['one.txt', 'two.txt'])
    await s3.client.send(new PutObjectCommand({ Bucket: versioned, Key, Body: `old ${Key}` }));
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('an upload onto an object already there', () => {
  it("asks first, with both sides' sizes and dates and that this bucket keeps no versions; Skip keeps the object", async () => {
    const file = await localFile('README.txt', LOCAL);
    const stored = await s3.client.send(new HeadObjectCommand({ Bucket: plain, Key: 'projects/README.txt' }));
    await openFolder(plain, 'projects');
    expect(await upFront().inputValue()).toBe('ask');
    await page.getByLabel('Choose files to upload').setInputFiles(file);

    await question().waitFor({ timeout: 30_000 });
    const text = await question().textContent();
    expect(text).toContain(`s3://${plain}/projects/README.txt`);
    // Both sides, and which is newer: the object, stored just now; the file's own date, as saved on
    // disk (not when the browser sent it to the host).
    expect(text).toContain(formatBytes(STORED.length));
    expect(text).toContain(formatBytes(LOCAL.length));
    expect(text).toContain(formatDate(stored.LastModified!.getTime(), { seconds: true }));
    expect(text).toContain(formatDate(LOCAL_MODIFIED.getTime(), { seconds: true }));
    expect(
      await question()
        .getByRole('row', { name: /In the bucket/ })
        .textContent(),
    ).toContain('(newer)');
    expect(text).toContain('This bucket keeps no versions: if you replace it, the object there now is gone for good.');
    await screenshot(page, 'upload-conflict');

    await question().getByRole('button', { name: 'Skip' }).click();
    await expect
      .poll(() => page.getByText('1 object was already there and kept').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect(await body(plain, 'projects/README.txt')).toBe(STORED);
    expect(await keys(plain)).toEqual(['projects/README.txt']);
  });

  it('Keep both uploads the file beside it as "README (1).txt"; Replace if newer keeps an object newer than the file', async () => {
    const file = await localFile('README.txt', LOCAL);
    await page.getByLabel('Choose files to upload').setInputFiles(file);
    await question().getByRole('button', { name: 'Keep both' }).click();
    await expect
      .poll(() => keys(plain), { timeout: 30_000 })
      .toEqual(['projects/README (1).txt', 'projects/README.txt']);
    expect(await body(plain, 'projects/README (1).txt')).toBe(LOCAL);
    expect(await body(plain, 'projects/README.txt')).toBe(STORED);
    await question().waitFor({ state: 'hidden', timeout: 10_000 });

    await page.getByLabel('Choose files to upload').setInputFiles(file);
    await question().getByRole('button', { name: 'Replace if newer' }).click();
    await expect
      .poll(() => page.getByText('1 object was already there and kept').count(), { timeout: 30_000 })
      .toBeGreaterThan(1);
    expect(await body(plain, 'projects/README.txt')).toBe(STORED);
  });

  it('an answer chosen up front beside Upload is used without a question', async () => {
    await upFront().selectOption('rename');
    try {
      await page.getByLabel('Choose files to upload').setInputFiles(await localFile('README.txt', LOCAL));
      await expect.poll(() => keys(plain), { timeout: 30_000 }).toContain('projects/README (2).txt');
      expect(await question().count()).toBe(0);
      expect(await body(plain, 'projects/README.txt')).toBe(STORED);
    } finally {
      await upFront().selectOption('ask');
    }
  });

  it('in a bucket that keeps versions, says the object there stays as a version; "do the same for every file" answers them all', async () => {
    const files = [await localFile('one.txt', 'new one'), await localFile('two.txt', 'new two')];
    await openFolder(versioned);
    await page.getByLabel('Choose files to upload').setInputFiles(files);
    await question().waitFor({ timeout: 30_000 });
    expect(await question().textContent()).toContain(
      'This bucket keeps versions: if you replace it, the object there now stays as an older version.',
    );
    await question()
      .getByLabel(/Do the same for every file of this upload/)
      .check();
    await question().getByRole('button', { name: 'Replace', exact: true }).click();
    await expect
      .poll(async () => [await body(versioned, 'one.txt'), await body(versioned, 'two.txt')], { timeout: 30_000 })
      .toEqual(['new one', 'new two']);
    await question().waitFor({ state: 'hidden', timeout: 10_000 });
    const versions = await s3.client.send(new ListObjectVersionsCommand({ Bucket: versioned }));
    expect(versions.Versions?.map((version) => version.Key).sort()).toEqual([
      'one.txt',
      'one.txt',
      'two.txt',
      'two.txt',
    ]);
  });
});
