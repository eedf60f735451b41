// Calculate size in the window: a folder's objects and bytes per storage class, counted in a dialog.

import { GetObjectCommand, GetObjectTaggingCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { StorageClass } from '@aws-sdk/client-s3';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
  await details.getByRole('button', { name: 'Close' }).click();
});

it("stores the window's uploads with the bucket's upload options, remembered for the bucket", async () => {
  await page.getByRole('button', { name: /^Upload options/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload options' });
  await dialog.getByLabel('Storage class').selectOption('REDUCED_REDUNDANCY');
  await dialog.getByLabel('Cache-Control').fill('max-age=60');
  await dialog.getByLabel('Metadata (one name=value a line)').fill('from=window');
  await dialog.getByLabel('Tags (one name=value a line)').fill('bad tag!=x');
  await dialog.getByRole('button', { name: 'Save upload options' }).click();
  await expect
    .poll(() => dialog.getByRole('alert').textContent())
    .toContain('The tag key "bad tag!" is not one S3 takes');
  await dialog.getByLabel('Tags (one name=value a line)').fill('origin=window');
  await dialog.getByRole('button', { name: 'Save upload options' }).click();
  expect(await page.getByRole('button', { name: 'Upload options (set)' }).count()).toBe(1);

  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-options-'));
  const file = path.join(dir, 'styled.css');
  await writeFile(file, 'body {}');
  await page.getByLabel('Choose files to upload').setInputFiles(file);
  const head = async () =>
    s3.client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'logs/styled.css' })).catch(() => undefined);
  await expect.poll(async () => (await head())?.CacheControl, { timeout: 30_000 }).toBe('max-age=60');
  expect(await head()).toMatchObject({
    StorageClass: 'REDUCED_REDUNDANCY',
    ContentType: 'text/css',
    Metadata: { from: 'window' },
  });
  const tagging = await s3.client.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: 'logs/styled.css' }));
  expect(tagging.TagSet).toEqual([{ Key: 'origin', Value: 'window' }]);
  await rm(dir, { recursive: true, force: true });
});
