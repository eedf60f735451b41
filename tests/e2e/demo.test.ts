// A first run, end to end: `npm run serve` on a machine with no AWS setup at all shows a window
// that offers both ways in; "Open the demo store" starts the local store (seeded once) and the
// window is on it, browsable, at once.

import AxeBuilder from '@axe-core/playwright';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SERVE_BUNDLE } from '../../main/build/build.ts';
import { toolsDir } from '../../main/demo/demo-server.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { hostUrl } from '../support/host-url.ts';

let home: string;
let host: ChildProcess;
let url: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-first-run-'));
  // No AWS variables, no ~/.aws: a fresh machine. The bundle the e2e set-up built.
  host = spawn(
    process.execPath,
    [
      SERVE_BUNDLE,
      '--port',
      '0',
      '--data-dir',
      path.join(home, 'data'),
      '--download-root',
      path.join(home, 'downloads'),
    ],
    {
      env: { PATH: process.env.PATH, HOME: home, BARGE_DEMO_SMALL_KEYS: '40', BARGE_TOOLS_DIR: toolsDir() },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  url = await hostUrl(host);
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto(url);
});

afterAll(async () => {
  await browser?.close();
  if (host && host.exitCode === null) {
    const exited = new Promise((resolve) => host.once('exit', resolve));
    host.kill('SIGTERM');
    await exited;
  }
  if (home) await rm(home, { recursive: true, force: true });
});

it('offers a connection or the demo store on a fresh machine, and opens the seeded demo store browsable', async () => {
  const main = page.getByRole('main', { name: 'Objects' });
  await expect.poll(() => main.getByRole('heading').textContent()).toBe('No connection yet');
  expect(await main.getByRole('button', { name: 'Add a connection' }).count()).toBe(1);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await screenshot(page, 'first-run');

  await main.getByRole('button', { name: 'Open the demo store' }).click();
  // The start says what it does while it runs (seeding, the first time).
  await expect
    .poll(() => main.getByRole('status').textContent(), { timeout: 10_000 })
    .toMatch(/demo store|Seeding|Generating|MinIO/);
  const picker = page.getByRole('combobox', { name: 'Connection' });
  await expect
    .poll(() => picker.locator('option:checked').textContent(), { timeout: 120_000 })
    .toContain('Demo store (local MinIO)');

  const buckets = page.getByRole('navigation', { name: 'Buckets' });
  await expect.poll(() => buckets.getByRole('button', { name: 'demo', exact: true }).count()).toBe(1);
  expect(await buckets.getByRole('button', { name: 'demo-versions', exact: true }).count()).toBe(1);
  await buckets.getByRole('button', { name: 'demo', exact: true }).click();
  const grid = page.getByRole('grid');
  await expect
    .poll(() => grid.getByRole('row').allTextContents())
    .toEqual(
      expect.arrayContaining([expect.stringContaining('photos/'), expect.stringContaining('many-small-files/')]),
    );
  await grid.getByRole('row', { name: /many-small-files\// }).dblclick();
  await expect.poll(() => page.getByRole('main').getByRole('status').first().textContent()).toMatch(/^40 items/);
  await screenshot(page, 'demo-store');
});
