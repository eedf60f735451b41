// Auto in the window: Threads and Part size are on Auto by default, their sliders show the value the
// engine chose and a line says why; moving a slider pins it (its Auto button no longer pressed), and
// the Auto button, a toggle reached by the keyboard, gives it back. In Debian's Chromium against
// `npm run serve`'s host.

import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/settings.ts';
import { nearestStep, PART_SIZE_STEPS } from '../../renderer/part-size-steps.ts';
import { formatBytes } from '../../src/byte-units.ts';
import { MIB } from '../../src/byte-units.ts';
import { launchBrowser, openApp } from '../support/browser.ts';
import { hostCall } from '../support/host-call.ts';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  // Files run before this one in the same run move the sliders (pinning them): back to the defaults,
  // by way of 64 (Auto turned on again goes on from the value pinned, and 64 is where it starts afresh).
  await hostCall('settings.update', { threads: 64, partSizeBytes: 16 * MIB });
  await hostCall('settings.update', {
    threads: DEFAULT_SETTINGS.threads,
    partSizeBytes: DEFAULT_SETTINGS.partSizeBytes,
  });
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await hostCall('settings.update', {
    threads: DEFAULT_SETTINGS.threads,
    partSizeBytes: DEFAULT_SETTINGS.partSizeBytes,
  });
  await browser?.close();
});

it('Threads and Part size are on Auto by default, a slider moved pins its knob, and its Auto button gives it back', async () => {
  expect(DEFAULT_SETTINGS).toMatchObject({ threads: 'auto', partSizeBytes: 'auto' });
  const settings = page.getByRole('region', { name: 'Transfer settings' });
  const threads = settings.getByRole('slider', { name: 'Threads' });
  const partSize = settings.getByRole('slider', { name: 'Part size' });
  const autoThreads = settings.getByRole('button', { name: 'Auto Threads' });
  const autoPartSize = settings.getByRole('button', { name: 'Auto Part size' });
  const why = settings.getByLabel('Why Auto chose these');

  // On Auto: both buttons pressed, the sliders at Auto's choice (its starting point, nothing running), the reason said.
  await expect.poll(() => autoThreads.getAttribute('aria-pressed')).toBe('true');
  await expect.poll(() => autoPartSize.getAttribute('aria-pressed')).toBe('true');
  await expect.poll(() => threads.inputValue()).toBe('64');
  await expect.poll(() => threads.getAttribute('aria-valuetext')).toBe('64, chosen by Auto');
  await expect.poll(() => why.textContent()).toMatch(/^64 threads: the starting point, measuring/);
  expect((await new AxeBuilder({ page }).include('.settings').analyze()).violations).toEqual([]);

  // Moved, Threads is pinned: its Auto button is no longer pressed, the engine runs with the number.
  await threads.fill('24');
  await expect.poll(() => autoThreads.getAttribute('aria-pressed')).toBe('false');
  await expect.poll(async () => (await hostCall('settings.get', {})).threads).toBe(24);
  await expect.poll(() => why.textContent()).not.toMatch(/threads:/);

  // Auto again, from the keyboard: Auto goes on from the value that was pinned, and the slider shows
  // the engine's choice (the setting itself now says only "auto").
  await autoThreads.focus();
  await page.keyboard.press('Space');
  await expect.poll(() => autoThreads.getAttribute('aria-pressed')).toBe('true');
  await expect.poll(async () => (await hostCall('settings.get', {})).threads).toBe('auto');
  // Both follow the engine's next stats, which a loaded machine may take seconds to send.
  await expect.poll(() => threads.inputValue(), { timeout: 10_000 }).toBe('24');
  await expect.poll(() => why.textContent(), { timeout: 10_000 }).toMatch(/^24 threads: the starting point, measuring/);

  // Part size alike: moved, pinned to the step shown; Auto again, the engine's.
  const step = PART_SIZE_STEPS.indexOf(64 * MIB);
  await partSize.fill(String(step));
  await expect.poll(() => autoPartSize.getAttribute('aria-pressed')).toBe('false');
  await expect.poll(async () => (await hostCall('settings.get', {})).partSizeBytes).toBe(64 * MIB);
  await autoPartSize.click();
  await expect.poll(() => autoPartSize.getAttribute('aria-pressed')).toBe('true');
  await expect.poll(async () => (await hostCall('settings.get', {})).partSizeBytes).toBe('auto');
  // The engine's choice: 16 MiB afresh, or a saved speed test's best part size for this endpoint (the speed
  // test's own e2e file may have run first against the same host), which may be 64 MiB too.
  const chosen = (await hostCall('engine.stats', {})).auto?.partSizeBytes;
  expect(chosen).toBeDefined();
  await expect
    .poll(() => partSize.getAttribute('aria-valuetext'))
    .toBe(`${formatBytes(PART_SIZE_STEPS[nearestStep(chosen!)]!)}, chosen by Auto`);

  // Pressing a pressed Auto pins the value shown.
  await autoThreads.click();
  await expect.poll(() => autoThreads.getAttribute('aria-pressed')).toBe('false');
  await expect.poll(async () => (await hostCall('settings.get', {})).threads).toBe(24);
});
