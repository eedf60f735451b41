// Calculate size in the window: a folder's objects and bytes per storage class, counted in a dialog.

import { GetObjectCommand, GetObjectTaggingCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { StorageClass } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

const put = (key: string, bytes: number, storageClass?: StorageClass) =>
  s3.client.send(
    new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.alloc(bytes, 1), StorageClass: storageClass }),
  );

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  await put('logs/a.log', 1000);
  await put('logs/2024/b.log', 2000);
  await put('logs/2024/c.log', 500, 'REDUCED_REDUNDANCY');
  await put('logs.txt', 99);
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

it('counts the selected folder per storage class, nothing beside it', async () => {
  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByRole('dialog', { name: 'Add connection' });
  await form.getByLabel('Name').fill('Sizes');
  await form.getByLabel('Endpoint URL').fill(serverConfig().endpoint!);
  await form.getByLabel('Region').fill(serverConfig().region!);
  await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
  await form.getByLabel('Secret access key').fill(serverConfig().secretAccessKey!);
  await form.getByRole('button', { name: 'Save' }).click();
  const buckets = page.getByRole('navigation', { name: 'Buckets' });
  await buckets.getByRole('button', { name: bucket, exact: true }).click();
  const grid = page.getByRole('grid');
  await expect.poll(() => grid.getByRole('row', { name: /logs\// }).count(), { timeout: 30_000 }).toBe(1);
  await grid.getByRole('row', { name: /logs\// }).click();
  await page.getByRole('button', { name: 'Calculate size' }).click();

  const dialog = page.getByRole('dialog', { name: 'Size of logs/' });
  await expect.poll(() => dialog.getByRole('status').textContent()).toBe('Counted.');
  const table = dialog.getByRole('table', { name: 'Size by storage class' });
  const row = (name: string) =>
    table
      .getByRole('row', { name: new RegExp(`^${name}\\b`) })
      .locator('td')
      .allTextContents();
  expect(await row('STANDARD')).toEqual(['2', '2.93 KiB']);
  expect(await row('REDUCED_REDUNDANCY')).toEqual(['1', '500 B']);
  expect(await row('Total')).toEqual(['3', '3.42 KiB']);
  await screenshot(page, 'folder-size');
  await dialog.getByRole('button', { name: 'Close' }).click();
  expect(await page.getByRole('dialog').count()).toBe(0);
});

it("edits an object's metadata and tags in its details: a copy onto itself, bytes kept", async () => {
  await s3.client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: 'logs/a.log',
      Body: 'the log',
      ContentType: 'text/plain',
      Metadata: { owner: 'ana' },
      Tagging: 'keep=yes',
    }),
  );
  const grid = page.getByRole('grid');
  await grid.getByRole('row', { name: /logs\// }).dblclick();
  await expect.poll(() => grid.getByRole('row', { name: /a\.log/ }).count(), { timeout: 30_000 }).toBe(1);
  await grid.getByRole('row', { name: /a\.log/ }).dblclick();
  const details = page.getByRole('dialog', { name: 'logs/a.log' });
  await expect.poll(() => details.getByRole('table', { name: 'Tags' }).textContent()).toContain('keepyes');
  await details.getByRole('button', { name: 'Edit metadata and tags' }).click();
  await details.getByLabel('Metadata (one name=value a line)').fill('owner=bo\nteam=ops');
  await details.getByLabel('Tags (one name=value a line, 10 at most)').fill('keep=no\nstage=test');
  await details.getByRole('button', { name: 'Save metadata and tags' }).click();
  await expect.poll(() => details.getByRole('table', { name: 'Metadata' }).textContent()).toContain('teamops');
  expect(await details.getByRole('table', { name: 'Tags' }).textContent()).toContain('stagetest');
  await screenshot(page, 'metadata-edit');

  const head = await s3.client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'logs/a.log' }));
  expect(head.Metadata).toEqual({ owner: 'bo', team: 'ops' });
  expect(head.ContentType).toBe('text/plain');
  const tagging = await s3.client.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: 'logs/a.log' }));
  expect(Object.fromEntries((tagging.TagSet ?? []).map((tag) => [tag.Key, tag.Value]))).toEqual({
    keep: 'no',
    stage: 'test',
  });
  const body = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: 'logs/a.log' }));
  expect(await body.Body!.transformToString()).toBe('the log');
});
