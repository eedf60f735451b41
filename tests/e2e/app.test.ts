// The window end to end: Debian's Chromium against `npm run serve`'s host and a real MinIO.

import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { launchBrowser, openApp, screenshot } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
let dir: string;
const bucket = uniqueBucket();

async function keys(prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const o of listAllObjects(s3, { bucket, prefix })) found.push(o.key);
  return found.sort();
}

/** Put `count` small objects in the folder `name`, fast, with the engine. */
async function seed(name: string, count: number): Promise<void> {
  const folder = path.join(await mkdtemp(path.join(dir, 'seed-')), name);
  await mkdir(folder);
  for (let i = 0; i < count; i++) await writeFile(path.join(folder, `k${String(i).padStart(6, '0')}.txt`), String(i));
  const end = await engine.upload(s3, { sources: [folder], bucket, destination: '' }, { name: 'seed' }).finished();
  expect(end.state.status).toBe('completed');
}

async function openBucket(): Promise<void> {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
}

async function readdirRecursive(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

function transferRow(name: string | RegExp) {
  return page.getByRole('list', { name: 'Transfers' }).getByRole('listitem').filter({ hasText: name });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-'));
  engine = new Engine({ settings: { threads: 128 } });
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Barge window', () => {
  it('picks the connection that comes from the environment, and lists the buckets', async () => {
    const picker = page.getByRole('combobox', { name: 'Connection' });
    await expect.poll(() => picker.locator('option:checked').textContent()).toContain('Environment (AWS_*)');
    await expect
      .poll(() =>
        page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).count(),
      )
      .toBe(1);
    // The token moved from the address bar into a cookie.
    expect(page.url()).not.toContain('token=');
  });

  it('says a wrong token was refused (not that the host is down): a browser is not told why a socket was refused, so the window asks', async () => {
    const context = await browser.newContext();
    try {
      const wrong = await context.newPage();
      await wrong.goto(inject('app').url.replace(/#token=.*/, '#token=wrong-token-0123456789'));
      await expect
        .poll(() => wrong.getByText('The host refused the access token.').count(), { timeout: 20_000 })
        .toBeGreaterThan(0);
      expect(await wrong.getByText('Cannot reach the Barge host').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('browses into a prefix, with breadcrumbs, sort and filter', async () => {
    for (const Key of ['docs/readme.md', 'docs/guide/intro.md', 'docs/guide/setup.md', 'top.txt']) {
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: `content of ${Key}` }));
    }
    await openBucket();
    const grid = page.getByRole('grid');
    await expect
      .poll(() => grid.getByRole('row').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringContaining('docs/'), expect.stringContaining('top.txt')]));
    await grid.getByRole('row', { name: /docs\// }).dblclick();
    await grid.getByRole('row', { name: /guide\// }).dblclick();
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Breadcrumbs' }).textContent())
      .toBe(`${bucket} / docs / guide`);
    await expect.poll(() => grid.getByRole('row').count()).toBe(3); // header + 2
    await page.getByRole('searchbox', { name: 'Filter by name' }).fill('setup');
    await expect.poll(() => grid.getByRole('row').count()).toBe(2);
    await page.getByRole('searchbox', { name: 'Filter by name' }).fill('');
    await page.getByRole('columnheader', { name: /Name/ }).getByRole('button').click();
    await expect.poll(() => grid.getByRole('row').nth(1).textContent()).toContain('setup.md');
    await screenshot(page, 'browser');
    await page.getByRole('columnheader', { name: /Name/ }).getByRole('button').click();
    await expect.poll(() => grid.getByRole('row').nth(1).textContent()).toContain('intro.md');
    // A click selects; Escape clears the selection.
    await grid.getByRole('row', { name: /intro\.md/ }).click();
    await expect.poll(() => grid.locator('[aria-selected="true"]').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => grid.locator('[aria-selected="true"]').count()).toBe(0);
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('button', { name: bucket }).click();
  });

  it('uploads files dropped on the browser, and through the Upload button', async () => {
    await openBucket();
    await page
      .getByRole('grid')
      .getByRole('row', { name: /docs\// })
      .dblclick();
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Breadcrumbs' }).textContent())
      .toBe(`${bucket} / docs`);
    const transfer = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
      data.items.add(new File([new Uint8Array(3 * 1024 * 1024)], 'zeros.bin'));
      return data;
    });
    const dropArea = page.getByRole('region', { name: 'Drop files to upload' });
    await dropArea.dispatchEvent('dragover', { dataTransfer: transfer });
    await dropArea.dispatchEvent('drop', { dataTransfer: transfer });
    // Named after what was dropped; once finished, its row tells its average, its time and its end.
    const dropped = transferRow(`2 files → s3://${bucket}/docs/`).filter({ hasText: 'completed' });
    await expect.poll(() => dropped.count(), { timeout: 30_000 }).toBe(1);
    expect(await keys('docs/')).toEqual(expect.arrayContaining(['docs/dropped.txt', 'docs/zeros.bin']));
    await expect
      .poll(() => dropped.getByTitle('Average throughput', { exact: true }).textContent())
      .toMatch(/^avg \d+(\.\d)? MiB\/s, \d+(\.\d)? objects?\/s$/);
    expect(await dropped.textContent()).toMatch(/took \d+(\.\d)?s, ended \d\d:\d\d/);
    expect(await dropped.textContent()).not.toContain('ETA');
    // Its receipt holds both files, named as dropped, each with what the store said of it (not its header alone).
    const [receiptFile] = await Promise.all([
      page.waitForEvent('download'),
      dropped.getByRole('button', { name: 'Receipt' }).click(),
    ]);
    const receipt = (await readFile(await receiptFile.path(), 'utf8')).trim().split('\n');
    expect(receipt[0]).toBe('key,path,size,etag,versionId,checksumAlgorithm,checksum,finishedAt,verified,status,error');
    expect(receipt.slice(1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
      'docs/dropped.txt,dropped.txt,13',
      `docs/zeros.bin,zeros.bin,${3 * 1024 * 1024}`,
    ]);
    // The folder on screen was listed again by itself, without Refresh.
    await expect
      .poll(() => page.getByRole('grid').getByRole('row').allTextContents(), { timeout: 10_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining('dropped.txt'), expect.stringContaining('zeros.bin')]));

    const picked = path.join(dir, 'picked.csv');
    await writeFile(picked, 'a,b\n1,2\n');
    await page.getByLabel('Choose files to upload').setInputFiles(picked);
    await expect.poll(() => keys('docs/'), { timeout: 30_000 }).toContain('docs/picked.csv');
    await screenshot(page, 'uploads');
  });

  const FILES = 1500;

  it("shows a job's throughput while it runs and its completion, and Threads acts on the running engine", async () => {
    // A store 40 ms away (through a delaying proxy), added as a connection through the form.
    const proxy: FaultProxy = await startFaultProxy(serverConfig().endpoint!);
    proxy.setRule(() => ({ kind: 'delay', ms: 40 }));
    try {
      await page.getByRole('button', { name: 'Add connection' }).click();
      const form = page.getByRole('dialog', { name: 'Add connection' });
      await form.getByLabel('Name').fill('Far away MinIO');
      await form.getByLabel('Endpoint URL').fill(proxy.endpoint);
      await form.getByLabel('Region').fill('us-east-1');
      await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
      await form.getByLabel('Secret access key').fill(serverConfig().secretAccessKey!);
      await form.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => page.getByRole('combobox', { name: 'Connection' }).locator('option:checked').textContent())
        .toContain('Far away MinIO');
      await screenshot(page, 'connection-added');
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'load/', Body: new Uint8Array(0) }));
      await openBucket();
      await page
        .getByRole('grid')
        .getByRole('row', { name: /load\// })
        .dblclick();
      await expect
        .poll(() => page.getByRole('navigation', { name: 'Breadcrumbs' }).textContent())
        .toBe(`${bucket} / load`);

      await page.getByRole('slider', { name: 'Threads' }).fill('2');
      const files = [];
      await mkdir(path.join(dir, 'many'), { recursive: true });
      for (let i = 0; i < FILES; i++) {
        const file = path.join(dir, 'many', `f${i}.txt`);
        await writeFile(file, Buffer.alloc(32 * 1024, i % 251));
        files.push(file);
      }
      proxy.inFlight.peak = 0;
      await page.getByLabel('Choose files to upload').setInputFiles(files);
      const row = transferRow(`${FILES.toLocaleString('en-US')} files`);
      await expect.poll(() => row.filter({ hasText: 'running' }).count(), { timeout: 30_000 }).toBe(1);
      // Its files reach the host first (its first phase, "sending to the host"); then the store's rate shows:
      // bytes a second (in B/s, KiB/s or MiB/s, never "0.0 MiB/s"), objects a second beside them.
      await expect
        .poll(() => row.getByTitle('Throughput', { exact: true }).textContent(), { timeout: 120_000 })
        .toMatch(/^(?:[1-9][\d,.]*|0\.\d*[1-9]\d*) (?:B|KiB|MiB)\/s, [\d,.]+ objects?\/s$/);
      const atTwo = proxy.inFlight.peak;
      // At 24 threads and 40 ms the rest would finish in about two seconds, too soon for a loaded machine to
      // see the readout change; a slower store keeps the job running while the window is read.
      proxy.setRule(() => ({ kind: 'delay', ms: 250 }));
      await page.getByRole('slider', { name: 'Threads' }).fill('24');
      proxy.inFlight.peak = 0;
      await expect.poll(() => proxy.inFlight.peak, { timeout: 10_000 }).toBeGreaterThan(12);
      await expect
        .poll(() => page.getByRole('region', { name: 'Overall throughput' }).textContent(), { timeout: 10_000 })
        .toMatch(/\b(1[3-9]|2[0-4]) requests in flight/);
      await screenshot(page, 'transfers');
      await expect.poll(() => row.filter({ hasText: 'completed' }).count(), { timeout: 60_000 }).toBe(1);
      expect(atTwo).toBeLessThanOrEqual(2);
      expect(proxy.inFlight.peak).toBeLessThanOrEqual(24);
      expect(await keys('load/f')).toHaveLength(FILES);
    } finally {
      await page.getByRole('slider', { name: 'Threads' }).fill('64');
      await page
        .getByRole('combobox', { name: 'Connection' })
        .selectOption({ label: `Environment (AWS_*) (${serverConfig().endpoint})` });
      await proxy.close();
    }
  });

  it('removes a saved connection only once asked again, with Cancel the first choice', async () => {
    const picker = page.getByRole('combobox', { name: 'Connection' });
    const farAway = () => picker.locator('option', { hasText: 'Far away MinIO' }).count();
    expect(await farAway()).toBe(1);
    await picker.selectOption({
      index: await picker
        .locator('option')
        .evaluateAll((options) => options.findIndex((option) => option.textContent?.includes('Far away MinIO'))),
    });
    await page.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove connection' });
    await expect.poll(() => dialog.textContent()).toContain('Remove Far away MinIO');
    // Enter on the focused button is Cancel: nothing goes.
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await farAway()).toBe(1);
    await page.getByRole('button', { name: 'Remove' }).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(farAway).toBe(0);
    await picker.selectOption({ label: `Environment (AWS_*) (${serverConfig().endpoint})` });
  });

  it('downloads the selection into a chosen folder', async () => {
    await openBucket();
    const grid = page.getByRole('grid');
    await grid.getByRole('row', { name: /top\.txt/ }).click();
    await grid.getByRole('row', { name: /docs\// }).click({ modifiers: ['Control'] });
    await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download' });
    // Through the web host, only below its download root: anywhere else is refused, in words.
    await dialog.getByLabel('Download folder').fill(path.join(dir, 'elsewhere'));
    await dialog.getByRole('button', { name: 'Download' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toContain(`Downloads through this host go only below ${inject('app').downloadRoot}`);
    const target = path.join(inject('app').downloadRoot, 'e2e');
    await dialog.getByLabel('Download folder').fill(target);
    await dialog.getByRole('button', { name: 'Download' }).click();
    await expect.poll(() => readdir(target).catch(() => []), { timeout: 30_000 }).toEqual(['docs', 'top.txt']);
    await expect
      .poll(() => readFile(path.join(target, 'docs', 'guide', 'setup.md'), 'utf8').catch(() => ''), { timeout: 30_000 })
      .toBe('content of docs/guide/setup.md');
    expect(await readFile(path.join(target, 'top.txt'), 'utf8')).toBe('content of top.txt');

    // The finished job's receipt: every object saved, with its ETag and the checksum it was verified against.
    const row = transferRow(/1 file and 1 folder in s3:/).filter({ hasText: 'completed' });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Receipt' }).click(),
    ]);
    const receipt = (await readFile(await download.path(), 'utf8')).trim().split('\n');
    expect(receipt[0]).toBe('key,path,size,etag,versionId,checksumAlgorithm,checksum,finishedAt,verified,status,error');
    expect(receipt.find((line) => line.startsWith('docs/guide/setup.md,'))).toContain(
      `,${path.join(target, 'docs', 'guide', 'setup.md')},${'content of docs/guide/setup.md'.length},`,
    );
    expect(receipt).toHaveLength(1 + (await readdirRecursive(target)).length);

    // The same selection again: every file is already there, and the window asks what to do.
    await grid.getByRole('row', { name: /top\.txt/ }).click();
    await grid.getByRole('row', { name: /docs\// }).click({ modifiers: ['Control'] });
    await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
    const again = page.getByRole('dialog', { name: 'Download' });
    await again.getByLabel('Download folder').fill(target);
    expect(await again.getByLabel('If a file is already there').inputValue()).toBe('ask');
    await again.getByRole('button', { name: 'Download' }).click();
    const asked = page.getByRole('dialog', { name: 'A file is already there' });
    await asked.waitFor({ timeout: 30_000 });
    await asked.getByLabel(/Do the same for every file/).check();
    await asked.getByRole('button', { name: 'Keep both' }).click();
    await expect
      .poll(() => readFile(path.join(target, 'top (1).txt'), 'utf8').catch(() => ''), { timeout: 30_000 })
      .toBe('content of top.txt');
    await expect
      .poll(() => readFile(path.join(target, 'docs', 'guide', 'setup (1).md'), 'utf8').catch(() => ''), {
        timeout: 30_000,
      })
      .toBe('content of docs/guide/setup.md');
    expect(await readFile(path.join(target, 'top.txt'), 'utf8')).toBe('content of top.txt');
    await asked.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('creates and deletes a bucket, and copies a presigned link that works without credentials', async () => {
    const name = uniqueBucket();
    await page.getByRole('button', { name: 'New bucket' }).click();
    const create = page.getByRole('dialog', { name: 'New bucket' });
    await create.getByLabel('Bucket name').fill('Not Valid');
    await create.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => create.getByRole('alert').textContent()).toContain('may contain only lowercase letters');
    await create.getByLabel('Bucket name').fill(name);
    await create.getByRole('button', { name: 'Create' }).click();
    const buckets = page.getByRole('navigation', { name: 'Buckets' });
    await expect.poll(() => buckets.getByRole('button', { name, exact: true }).count()).toBe(1);
    await buckets.getByRole('button', { name: `Delete bucket ${name}` }).click();
    await page
      .getByRole('dialog', { name: `Delete bucket ${name}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(() => buckets.getByRole('button', { name, exact: true }).count()).toBe(0);

    await openBucket();
    await page.getByRole('searchbox', { name: 'Filter by name' }).fill('top.txt');
    await page
      .getByRole('grid')
      .getByRole('row', { name: /top\.txt/ })
      .click();
    await page.getByRole('toolbar').getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => page.getByRole('main').getByRole('status').textContent()).toContain('Link copied');
    const link = /(http:\/\/\S+)/.exec((await page.getByRole('main').getByRole('status').textContent())!)![1]!;
    expect(link).toContain('X-Amz-Signature=');
    expect(await (await fetch(link)).text()).toBe('content of top.txt');
    // A name cut short by its column is whole in its tooltip.
    expect(
      await page
        .getByRole('grid')
        .getByRole('row', { name: /top\.txt/ })
        .getByRole('gridcell')
        .first()
        .getAttribute('title'),
    ).toBe('top.txt');
    // Its details: Cache-Control among them, and a link for as long as chosen (up to seven days).
    await page
      .getByRole('grid')
      .getByRole('row', { name: /top\.txt/ })
      .dblclick();
    const details = page.getByRole('dialog', { name: 'top.txt' });
    await expect.poll(() => details.textContent()).toContain('Cache-Control');
    await details.getByLabel('Link valid for').selectOption({ label: '7 days' });
    await details.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => details.getByLabel('Presigned link').inputValue()).toContain('X-Amz-Expires=604800');
    await details.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('searchbox', { name: 'Filter by name' }).fill('');
  });

  it('bulk deletes 2,000 objects through the confirmation, typing the name above 1,000', async () => {
    await seed('bulk/', 2_000);
    await openBucket();
    const grid = page.getByRole('grid');
    await grid.getByRole('row', { name: /bulk\// }).click();
    await page.getByRole('toolbar').getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete objects' });
    // Focus starts on Cancel, never on "Delete all versions".
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await expect
      .poll(() => dialog.getByRole('status').textContent(), { timeout: 30_000 })
      .toContain('This permanently deletes 2,000 objects');
    const confirm = dialog.getByRole('button', { name: /^Delete/ });
    expect(await confirm.isDisabled()).toBe(true);
    await screenshot(page, 'delete-confirmation');
    await dialog.getByLabel('Type the name to confirm').fill('bulk');
    await confirm.click();
    await expect.poll(() => keys('bulk/'), { timeout: 60_000 }).toEqual([]);
    await expect
      .poll(
        () =>
          transferRow(/Delete .*bulk/)
            .filter({ hasText: 'completed' })
            .count(),
        { timeout: 30_000 },
      )
      .toBe(1);
    // The count the dialog ran first is a preview, not a transfer: no row of its own.
    expect(
      await page
        .getByRole('complementary', { name: 'Transfers panel' })
        .getByText(/Count .*bulk/)
        .count(),
    ).toBe(0);
    expect((await keys()).length).toBeGreaterThan(0); // only the folder went
  });

  it('scrolls a prefix of 100,000 keys, rendering only what is on screen', async () => {
    await seed('huge/', 100_000);
    await openBucket();
    await page
      .getByRole('grid')
      .getByRole('row', { name: /huge\// })
      .dblclick();
    await expect
      .poll(() => page.getByRole('main').getByRole('status').textContent(), { timeout: 120_000 })
      .toMatch(/^100,000 items(?! \(loading)/);
    const rows = page.getByRole('grid').getByRole('row');
    expect(await rows.count()).toBeLessThan(100);
    expect(await rows.nth(1).textContent()).toContain('k000000.txt');
    await page.locator('.rows').evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await expect
      .poll(() =>
        page
          .getByRole('grid')
          .getByRole('row', { name: /k099999\.txt/ })
          .count(),
      )
      .toBe(1);
    expect(await rows.count()).toBeLessThan(100);
    await screenshot(page, 'huge-prefix');
    // Seeding 100,000 objects (files written, then uploaded) takes most of it: on a machine shared
    // with other work that alone has come near the suite's 300 s.
  }, 600_000);
});
