// The window's look and keys, end to end in Chromium: axe-core over each main view in light and
// dark, the layout at 1024x700 (names keep their room, Transfers is a drawer), panes that resize
// and are remembered, and the object table's keyboard (one tab stop, arrows, type-to-find, focus
// after navigation and after a dialog).

import AxeBuilder from '@axe-core/playwright';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const KEYS = [
  'photos/2024/beach.jpg',
  'photos/2024/city.png',
  'photos/readme.md',
  'reports/q1.csv',
  'reports/q2.csv',
  'two  spaces.txt',
  'archive.tar.gz',
  'notes.txt',
  'zeta.log',
];

async function openBucket(): Promise<void> {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  await expect.poll(() => page.getByRole('grid').getByRole('row').count()).toBe(1 + 6);
}

/** axe-core over the page as it is: the serious and critical violations, named for the failure message. */
async function seriousViolations(): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

const focusedKey = () =>
  page.evaluate(() => document.activeElement?.getAttribute('data-key') ?? document.activeElement?.tagName);
const selectedKeys = () =>
  page
    .getByRole('grid')
    .locator('[aria-selected="true"]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  for (const Key of KEYS)
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: `content of ${Key}` }));
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

describe("the window's look and keys", () => {
  it('has no serious or critical accessibility violations on its main views, in light and in dark', async () => {
    // A finished job of its own, so the Transfers rows are checked whatever ran before this file.
    await openBucket();
    await page
      .getByRole('grid')
      .getByRole('row', { name: /photos\// })
      .dblclick();
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Breadcrumbs' }).textContent())
      .toBe(`${bucket} / photos`);
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-window-')), 'uploaded by the window.txt');
    await writeFile(file, 'a finished job');
    await page.getByLabel('Choose files to upload').setInputFiles(file);
    await expect
      .poll(
        () =>
          page
            .getByRole('list', { name: 'Transfers' })
            .getByRole('listitem')
            .filter({ hasText: 'uploaded by the window.txt' })
            .filter({ hasText: 'completed' })
            .count(),
        { timeout: 30_000 },
      )
      .toBe(1);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await openBucket();
      // Dark mode follows the OS: the page's own colours change, not only the form controls'.
      const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      const [r, g, b] = /\d+/g[Symbol.match](background)!.map(Number);
      if (scheme === 'dark') expect(r! + g! + b!).toBeLessThan(3 * 64);
      else expect(r! + g! + b!).toBeGreaterThan(3 * 200);
      await page
        .getByRole('grid')
        .getByRole('row', { name: /notes\.txt/ })
        .click();
      expect(await seriousViolations()).toEqual([]);
      await screenshot(page, `main-${scheme}`);

      await page
        .getByRole('grid')
        .getByRole('row', { name: /notes\.txt/ })
        .dblclick();
      const details = page.getByRole('dialog');
      await expect.poll(() => details.textContent()).toContain('notes.txt');
      expect(await seriousViolations()).toEqual([]);
      await screenshot(page, `details-${scheme}`);
      await page.keyboard.press('Escape');

      await page.getByRole('toolbar', { name: 'Actions' }).getByRole('button', { name: 'Delete', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete objects' });
      await expect.poll(() => confirm.getByRole('status').textContent()).toMatch(/1 object/);
      expect(await seriousViolations()).toEqual([]);
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Add connection' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Add connection' }).count()).toBe(1);
      expect(await seriousViolations()).toEqual([]);
      await page.keyboard.press('Escape');
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows keys exactly: two spaces stay two', async () => {
    const cell = page.getByRole('grid').getByRole('row', { name: /two/ }).locator('.name-text');
    // innerText follows the CSS: collapsed white space would read as one space.
    expect(await cell.evaluate((element) => (element as HTMLElement).innerText)).toBe('two  spaces.txt');
  });

  it("keeps the names' room at 1024x700: Transfers becomes a drawer, opened from the top bar", async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    try {
      // The window lays itself out again after the resize, on its own time: a loaded machine saw the panel
      // still there at once.
      await expect.poll(() => page.getByRole('complementary', { name: 'Transfers panel' }).count()).toBe(0);
      const nameWidth = await page
        .getByRole('grid')
        .getByRole('row', { name: /notes\.txt/ })
        .locator('.cell.name')
        .evaluate((cell) => cell.getBoundingClientRect().width);
      expect(nameWidth).toBeGreaterThanOrEqual(160);
      const toggle = page.getByRole('button', { name: /^Transfers/ });
      await toggle.click();
      const drawer = page.getByRole('complementary', { name: 'Transfers panel' });
      await expect.poll(() => drawer.count()).toBe(1);
      // The drawer takes the focus; Escape closes it and gives the focus back to its button.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe('Close the transfers panel');
      expect(await seriousViolations()).toEqual([]);
      await screenshot(page, 'narrow-drawer');
      await page.keyboard.press('Escape');
      await expect.poll(() => drawer.count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.classList.contains('transfers-toggle'))).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1440, height: 860 });
    }
  });

  it('keeps the top bar usable in a narrow browser window: nothing in it is covered by its neighbour', async () => {
    try {
      for (const width of [800, 640]) {
        await page.setViewportSize({ width, height: 700 });
        // Each control is what a click at its centre reaches, inside the window.
        const covered = await page.locator('.connection-bar').evaluate((bar) =>
          [...bar.querySelectorAll('select, button')].flatMap((control) => {
            const box = control.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            const inside = box.left >= 0 && box.right <= window.innerWidth;
            return hit !== null && control.contains(hit) && inside
              ? []
              : [
                  `${control.getAttribute('aria-label') ?? control.textContent} at ${Math.round(box.left)}-${Math.round(box.right)}`,
                ];
          }),
        );
        expect(covered, `at ${width} px`).toEqual([]);
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 860 });
    }
  });

  it('resizes the panes by keyboard and by mouse, and remembers their sizes', async () => {
    const buckets = page.getByRole('navigation', { name: 'Buckets' });
    const width = () => buckets.evaluate((nav) => Math.round(nav.getBoundingClientRect().width));
    const before = await width();
    const splitter = page.getByRole('separator', { name: 'Resize the bucket list' });
    await splitter.focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(width).toBe(before + 50);
    const box = (await splitter.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 100);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + 100, { steps: 4 });
    await page.mouse.up();
    await expect.poll(width).toBe(before + 90);
    await page.reload();
    // The window loads again first (seconds on a busy machine; a poll gives up after one by default).
    await expect.poll(width, { timeout: 15_000 }).toBe(before + 90);
    // Collapsed to a rail, and back.
    await page.getByRole('button', { name: 'Hide the bucket list' }).click();
    await expect.poll(width).toBeLessThan(60);
    await page.getByRole('button', { name: 'Show the bucket list' }).click();
    await expect.poll(width).toBe(before + 90);
    await splitter.focus();
    await page.keyboard.press('Enter'); // back to the first width
    await expect.poll(width).toBe(before);
  });

  it('is one tab stop whose arrows move the focus and the selection; type-to-find; focus follows navigation', async () => {
    await openBucket();
    const grid = page.getByRole('grid');
    // Tab from the filter box lands on one row of the grid; the next Tab leaves the grid.
    await page.getByRole('searchbox', { name: 'Filter by name' }).focus();
    await page.keyboard.press('Tab');
    expect(await focusedKey()).toBe('photos/');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[role=grid]') === null)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await focusedKey()).toBe('photos/');

    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedKey).toBe('reports/');
    expect(await selectedKeys()).toEqual(['reports/']);
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(selectedKeys).toEqual(['reports/', 'archive.tar.gz']);
    await page.keyboard.press('Escape');
    await expect.poll(selectedKeys).toEqual([]);

    // Type-to-find: "n" goes to notes.txt; "tw" to the key with two spaces.
    await page.keyboard.type('n');
    await expect.poll(focusedKey).toBe('notes.txt');
    await page.waitForTimeout(900); // a pause: the next letters are a new search
    await page.keyboard.type('tw');
    await expect.poll(focusedKey).toBe('two  spaces.txt');

    // Enter on a folder opens it with the focus on its first row; Backspace goes back to the folder left.
    await page.keyboard.press('Home');
    await expect.poll(focusedKey).toBe('photos/');
    await page.keyboard.press('Enter');
    await expect.poll(focusedKey).toBe('photos/2024/');
    await page.keyboard.press('Backspace');
    await expect.poll(focusedKey).toBe('photos/');
    expect(await grid.locator('[tabindex="0"]').count()).toBe(1);

    // A dialog closed gives the focus back to the row it was opened from.
    await page.keyboard.press('End');
    await expect.poll(focusedKey).toBe('zeta.log');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(focusedKey).toBe('zeta.log');
  });
});
