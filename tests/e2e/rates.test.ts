// A job of small files in the window: its live rate (bytes and objects a second) above zero while it
// runs, its ETA and total known while it runs, its average above zero when it ends, and the overall
// line the sum of what runs now, zero once nothing does. In Debian's Chromium against `npm run serve`'s host.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { launchBrowser, openApp } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

const FILES = 2000;

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
let dir: string;
const bucket = uniqueBucket();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-rates-'));
  engine = new Engine({ settings: { threads: 128 } });
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  // 2,000 files of a few bytes each, as the demo's small keys: a job that moves objects, not bytes.
  const folder = path.join(dir, 'small');
  await mkdir(folder);
  for (let i = 0; i < FILES; i++)
    await writeFile(path.join(folder, `k${String(i).padStart(6, '0')}.txt`), `small object ${i}`);
  const seeded = await engine.upload(s3, { sources: [folder], bucket, destination: '' }, { name: 'seed' }).finished();
  expect(seeded.state.status).toBe('completed');
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** "37.6 KiB/s, 770 objects/s" as its two numbers in bytes and objects a second. */
function rates(text: string | null): { bytes: number; objects: number } | undefined {
  const match = /^(?:avg )?([\d.,]+) (B|KiB|MiB)\/s, ([\d.,]+) objects?\/s$/.exec(text ?? '');
  if (!match) return undefined;
  const unit = { B: 1, KiB: 1024, MiB: 1024 ** 2 }[match[2] as 'B' | 'KiB' | 'MiB'];
  return { bytes: Number(match[1]!.replaceAll(',', '')) * unit, objects: Number(match[3]!.replaceAll(',', '')) };
}

it('a download of 2,000 small files shows its live rate above zero while it runs, and its average above zero when it ends', async () => {
  const threads = page.getByRole('slider', { name: 'Threads' });
  const overall = page.getByRole('region', { name: 'Overall throughput' });
  try {
    // Two requests at a time: the job runs long enough to be watched.
    await threads.fill('2');
    await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
    await page
      .getByRole('grid')
      .getByRole('row', { name: /small\// })
      .click();
    await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download' });
    await dialog.getByLabel('Download folder').fill(path.join(inject('app').downloadRoot, 'rates'));
    await dialog.getByRole('button', { name: 'Download' }).click();
    const row = page
      .getByRole('list', { name: 'Transfers' })
      .getByRole('listitem')
      .filter({ hasText: `small in s3://${bucket}/` });
    const running = row.filter({ hasText: 'running' });
    await expect.poll(() => running.count(), { timeout: 30_000 }).toBe(1);

    // While it runs: bytes and objects a second above zero, the total known, an ETA, and the overall
    // line summing it, with its requests counted in words.
    await expect
      .poll(
        async () => {
          const live = rates(await running.getByTitle('Throughput', { exact: true }).textContent());
          return live !== undefined && live.bytes > 0 && live.objects > 0;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect
      .poll(() => running.locator('.objects').textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`^[\\d,]+ of ${FILES.toLocaleString('en-US')} objects`));
    await expect.poll(() => running.locator('.eta').textContent(), { timeout: 30_000 }).toMatch(/^ETA \d/);
    await expect
      .poll(
        async () => {
          const line = /^All transfers: (.*), (\d+) requests? in flight$/.exec(
            (await overall.locator('span').first().textContent()) ?? '',
          );
          const sum = rates(line?.[1] ?? null);
          return sum !== undefined && sum.bytes > 0 && sum.objects > 0;
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    // Once it has ended: its average, above zero in both; and the overall line at zero, in words.
    const completed = row.filter({ hasText: 'completed' });
    await expect.poll(() => completed.count(), { timeout: 120_000 }).toBe(1);
    const average = rates(await completed.getByTitle('Average throughput', { exact: true }).textContent());
    expect(average?.bytes).toBeGreaterThan(0);
    expect(average?.objects).toBeGreaterThan(0);
    await expect
      .poll(() => overall.locator('span').first().textContent(), { timeout: 10_000 })
      .toBe('All transfers: 0 B/s, 0 requests in flight');
  } finally {
    await threads.fill('64');
  }
});
