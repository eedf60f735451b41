// Max speed in the window: set beside Threads and Part size, it holds a running download to it, and
// a new value moves the job's rate while it runs. In Debian's Chromium against `npm run serve`'s host.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MIB } from '../../src/byte-units.ts';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { MAX_SPEED_STEPS } from '../../renderer/max-speed-steps.ts';
import { launchBrowser, openApp } from '../support/browser.ts';
import { randomFile, serverConfig, uniqueBucket } from '../support/fixtures.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
let dir: string;
const bucket = uniqueBucket();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-max-speed-'));
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  const file = await randomFile(dir, 'capped.bin', 96 * MIB);
  const seeded = await engine.upload(s3, { sources: [file.path], bucket, destination: 'capped.bin' }).finished();
  expect(seeded.state.status).toBe('completed');
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A row's live rate ("1.0 MiB/s", "1.0 MiB/s, 0 objects/s") in bytes a second. */
function bytesPerSecond(text: string | null): number | undefined {
  const match = /^([\d.,]+) (B|KiB|MiB|GiB)\/s/.exec(text ?? '');
  if (!match) return undefined;
  const unit = { B: 1, KiB: 1024, MiB: MIB, GiB: 1024 * MIB }[match[2] as 'B' | 'KiB' | 'MiB' | 'GiB'];
  return Number(match[1]!.replaceAll(',', '')) * unit;
}

it("Max speed holds a running download to it, and a new one moves the job's rate while it runs", async () => {
  const maxSpeed = page.getByRole('slider', { name: 'Max speed' });
  const step = (bytes: number) => String(MAX_SPEED_STEPS.indexOf(bytes));
  try {
    // Keyboard first: the slider is reached and moved as any range is.
    await maxSpeed.focus();
    await page.keyboard.press('End');
    await expect.poll(() => maxSpeed.getAttribute('aria-valuetext')).toBe('No limit');
    await maxSpeed.fill(step(1 * MIB));
    await expect.poll(() => maxSpeed.getAttribute('aria-valuetext')).toBe('1.0 MiB/s');

    await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
    await page
      .getByRole('grid')
      .getByRole('row', { name: /capped\.bin/ })
      .click();
    await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download' });
    await dialog.getByLabel('Download folder').fill(path.join(inject('app').downloadRoot, 'max-speed'));
    await dialog.getByRole('button', { name: 'Download' }).click();
    const running = page
      .getByRole('list', { name: 'Transfers' })
      .getByRole('listitem')
      .filter({ hasText: 'capped.bin' })
      .filter({ hasText: 'running' });
    await expect.poll(() => running.count(), { timeout: 30_000 }).toBe(1);
    const rate = async () => bytesPerSecond(await running.getByTitle('Throughput', { exact: true }).textContent());

    // The job's rate (over its last 5 s) settles at the cap and stays there; a new cap moves it.
    const within = (low: number, high: number) => async () => {
      const now = await rate();
      return now !== undefined && now > low && now < high;
    };
    const settlesBetween = async (low: number, high: number) => {
      await expect.poll(within(low, high), { timeout: 20_000 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await within(low, high)()).toBe(true);
    };
    await settlesBetween(0.8 * MIB, 1.25 * MIB);
    await maxSpeed.fill(step(5 * MIB));
    await settlesBetween(4 * MIB, 6 * MIB);
  } finally {
    await maxSpeed.fill(String(MAX_SPEED_STEPS.length - 1));
  }
  await expect
    .poll(
      () =>
        page
          .getByRole('list', { name: 'Transfers' })
          .getByRole('listitem')
          .filter({ hasText: 'capped.bin' })
          .filter({ hasText: 'completed' })
          .count(),
      {
        timeout: 60_000,
      },
    )
    .toBe(1);
});
