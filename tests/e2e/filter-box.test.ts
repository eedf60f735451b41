// The browser's filter box takes globs as the command line's wildcards: "*.tmp" keeps the names that
// end in .tmp, whole-name, and a glob that keeps nothing says "No names match".

import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { launchBrowser, openApp } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
const bucket = uniqueBucket();
const KEYS = ['a.tmp', 'b.tmp', 'keep.txt', 'tmp-notes.txt', 'img_01.jpg'];

beforeAll(async () => {
  engine = new Engine();
  const s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  for (const Key of KEYS) await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: Key }));
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

const shownNames = async () =>
  (await page.getByRole('grid').getByRole('row').locator('.name-text').allTextContents()).sort();

it('keeps the names a glob matches whole, and says when none do', async () => {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  await expect.poll(() => page.getByRole('grid').getByRole('row').count()).toBe(1 + KEYS.length);
  const filter = page.getByRole('searchbox', { name: 'Filter by name' });
  await filter.fill('*.tmp');
  await expect.poll(shownNames).toEqual(['a.tmp', 'b.tmp']);
  await filter.fill('img_??.jpg');
  await expect.poll(shownNames).toEqual(['img_01.jpg']);
  // Plain text still matches anywhere in a name.
  await filter.fill('tmp');
  await expect.poll(shownNames).toEqual(['a.tmp', 'b.tmp', 'tmp-notes.txt']);
  await filter.fill('*.zip');
  await expect.poll(shownNames).toEqual([]);
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'No names match' }).textContent())
    .toBe('No names match *.zip.');
});
