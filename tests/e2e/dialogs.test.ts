// The window's dialogs end to end, in Debian's Chromium against `npm run serve`'s host and a real
// MinIO: the download dialog in a browser (where files go, the host's folder picker, a relative
// folder refused, Save to this computer), Test in the connection form, and Empty and delete.

import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  CreateMultipartUploadCommand,
  HeadBucketCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { formatBytes } from '../../src/byte-units.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
const bucket = uniqueBucket();
/** A folder of this run's own below the host's download root (other suites share the root). */
const mine = `dialogs-${randomBytes(4).toString('hex')}`;
const report = randomBytes(64 * 1024 + 3);

async function openBucket(name = bucket): Promise<void> {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name, exact: true }).click();
}

/** Select the object `name` in the bucket on screen and open the Download dialog. */
async function downloadDialog(name: string): Promise<Locator> {
  await openBucket();
  await page
    .getByRole('grid')
    .getByRole('row', { name: new RegExp(name.replace('.', '\\.')) })
    .click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
  return page.getByRole('dialog', { name: 'Download' });
}

/** Accessibility rules of WCAG 2 A (names, roles, states) for the dialog open on top. */
async function expectAccessible(dialog: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .include(`dialog[aria-label="${dialog}"]`)
    .withTags(['wcag2a'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
}

async function bucketExists(name: string): Promise<boolean> {
  try {
    await s3.client.send(new HeadBucketCommand({ Bucket: name }));
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'report.bin', Body: report }));
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'docs/notes.txt', Body: 'notes' }));
  // Folders on the host's disk to pick from (the host runs on this machine).
  await mkdir(path.join(inject('app').downloadRoot, mine, 'inner'), { recursive: true });
  browser = await launchBrowser();
  // A context of its own (not browser.newPage's): the accessibility checks open a page beside it.
  const context = await browser.newContext({ viewport: { width: 1440, height: 860 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto(inject('app').url);
  await page
    .getByRole('navigation', { name: 'Buckets' })
    .getByRole('button', { name: bucket, exact: true })
    .waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

describe('the download dialog in a browser', () => {
  it("says the files go to the machine running Barge, and chooses a folder there with the host's folder picker", async () => {
    const dialog = await downloadDialog('report.bin');
    const root = inject('app').downloadRoot;
    expect(await dialog.textContent()).toContain(
      `Files are saved on the machine running Barge (${os.hostname()}), below ${root}, not on this computer.`,
    );
    await dialog.getByRole('button', { name: 'Browse…' }).click();
    const picker = page.getByRole('dialog', { name: `Choose a folder on ${os.hostname()}` });
    const folders = picker.getByRole('listbox');
    await expect.poll(() => folders.getByRole('option', { name: mine }).count()).toBe(1);
    // At the root: nothing above it is offered.
    expect(await picker.getByRole('button', { name: 'Up one level' }).isDisabled()).toBe(true);
    await expectAccessible(`Choose a folder on ${os.hostname()}`);
    // The keyboard: the list has focus; Enter opens the folder highlighted, Backspace goes up.
    const listing = (folder: string) => picker.getByRole('listbox', { name: `Folders in ${folder}`, exact: true });
    await folders.getByRole('option', { name: mine }).click();
    await page.keyboard.press('Enter');
    await expect.poll(() => listing(path.join(root, mine)).count()).toBe(1);
    await expect.poll(() => folders.getByRole('option', { name: 'inner', selected: true }).count()).toBe(1);
    await page.keyboard.press('Enter');
    await expect.poll(() => listing(path.join(root, mine, 'inner')).count()).toBe(1);
    expect(await picker.textContent()).toContain('No folders in here.');
    // Up one level, with the folder just left highlighted.
    await page.keyboard.press('Backspace');
    await expect.poll(() => listing(path.join(root, mine)).count()).toBe(1);
    await expect.poll(() => folders.getByRole('option', { name: 'inner', selected: true }).count()).toBe(1);
    await page.keyboard.press('Enter');
    await expect.poll(() => listing(path.join(root, mine, 'inner')).count()).toBe(1);
    expect(await picker.textContent()).toContain(`Folder: ${path.join(root, mine, 'inner')}`);
    await screenshot(page, 'folder-picker');
    await picker.getByRole('button', { name: 'Choose this folder' }).click();
    await expect.poll(() => picker.count()).toBe(0);
    // Only the picker closed; the download dialog has the folder chosen.
    expect(await dialog.getByLabel('Download folder').inputValue()).toBe(path.join(root, mine, 'inner'));
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    await expect
      .poll(
        () =>
          readFile(path.join(root, mine, 'inner', 'report.bin')).then(
            (b) => b.equals(report),
            () => false,
          ),
        { timeout: 30_000 },
      )
      .toBe(true);
  });

  it('refuses a relative folder, saying why', async () => {
    const dialog = await downloadDialog('report.bin');
    await dialog.getByLabel('Download folder').fill('exports');
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toContain('"exports" is a relative path: give the whole path');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it("saves the selection on this computer through the browser's own download, byte for byte", async () => {
    const dialog = await downloadDialog('report.bin');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Save to this computer' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report.bin');
    expect((await readFile((await download.path())!)).equals(report)).toBe(true);
    await expect.poll(() => dialog.count()).toBe(0);
    // A folder in the selection is saved on the host only: the button says so and is off.
    await openBucket();
    await page
      .getByRole('grid')
      .getByRole('row', { name: /docs\// })
      .click();
    await page.getByRole('toolbar').getByRole('button', { name: 'Download' }).click();
    const withFolder = page.getByRole('dialog', { name: 'Download' });
    expect(await withFolder.getByRole('button', { name: 'Save to this computer' }).isDisabled()).toBe(true);
    expect(await withFolder.textContent()).toContain('Folders are saved on the host only');
    await withFolder.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('the connection form', () => {
  it("Test says the keys were refused, by the secret key's field; Save checks first and offers Save anyway", async () => {
    await page.getByRole('button', { name: 'Add connection' }).click();
    const form = page.getByRole('dialog', { name: 'Add connection' });
    await form.getByLabel('Name').fill('Wrong keys');
    await form.getByLabel('Endpoint URL').fill(serverConfig().endpoint!);
    await form.getByLabel('Region').fill('us-east-1');
    await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
    await form.getByLabel('Secret access key').fill('not-the-secret-key');
    await form.getByRole('button', { name: 'Test' }).click();
    await expect
      .poll(() => form.getByRole('status').textContent(), { timeout: 20_000 })
      .toBe('Test failed: the store refused the keys (403).');
    const secret = form.getByLabel('Secret access key');
    expect(await secret.getAttribute('aria-invalid')).toBe('true');
    const reason = form.locator(`#${await secret.getAttribute('aria-describedby')}`);
    expect(await reason.textContent()).toBe(
      'The secret access key does not match the access key ID (the store answered 403 SignatureDoesNotMatch): check the secret access key.',
    );
    await expectAccessible('Add connection');
    await screenshot(page, 'connection-test-failed');
    // Nothing was saved by Test; Save runs the same check and, when it fails, asks before saving.
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => form.getByRole('button', { name: 'Save anyway' }).count(), { timeout: 20_000 }).toBe(1);
    expect(
      await page.getByRole('combobox', { name: 'Connection' }).locator('option', { hasText: 'Wrong keys' }).count(),
    ).toBe(0);
    // The right key typed over it: Test passes.
    await secret.fill(serverConfig().secretAccessKey!);
    expect(await secret.getAttribute('aria-invalid')).toBeNull();
    await form.getByRole('button', { name: 'Test' }).click();
    await expect
      .poll(() => form.getByRole('status').textContent(), { timeout: 20_000 })
      .toMatch(/^Connected: \d+ buckets?\.$/);
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(
      await page.getByRole('combobox', { name: 'Connection' }).locator('option', { hasText: 'Wrong keys' }).count(),
    ).toBe(0);
  });
});

describe('deleting a bucket that is not empty', () => {
  it('offers Empty and delete, typed to confirm, which empties it as a job and deletes it', async () => {
    const full = uniqueBucket();
    await createBucket(s3, full);
    await s3.client.send(
      new PutBucketVersioningCommand({ Bucket: full, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    for (const Key of ['a.txt', 'a.txt', 'b/c.txt'])
      await s3.client.send(new PutObjectCommand({ Bucket: full, Key, Body: Key }));
    await s3.client.send(new CreateMultipartUploadCommand({ Bucket: full, Key: 'unfinished.bin' }));
    const buckets = page.getByRole('navigation', { name: 'Buckets' });
    await buckets.getByRole('button', { name: 'Refresh buckets' }).click();
    await expect.poll(() => buckets.getByRole('button', { name: full, exact: true }).count()).toBe(1);
    await buckets.getByRole('button', { name: `Delete bucket ${full}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete bucket ${full}?` });
    await expect
      .poll(() => dialog.getByRole('status').textContent(), { timeout: 30_000 })
      .toContain(
        `${full} is not empty: it holds 3 versions and delete markers (${formatBytes(17)}) and 1 unfinished upload.`,
      );
    // Focus starts on Cancel; Empty and delete waits for the bucket's name.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    const confirm = dialog.getByRole('button', { name: 'Empty and delete' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type the bucket name to confirm').fill(full.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type the bucket name to confirm').fill(full);
    await screenshot(page, 'empty-and-delete');
    await confirm.click();
    await expect.poll(() => dialog.count()).toBe(0);
    // A job like any other, with its row; once it completes the bucket is gone, and so is its name in the list.
    await expect
      .poll(
        () =>
          page
            .getByRole('complementary', { name: 'Transfers panel' })
            .getByText(`Empty and delete bucket ${full}`)
            .count(),
        { timeout: 30_000 },
      )
      .toBe(1);
    await expect.poll(() => bucketExists(full), { timeout: 60_000 }).toBe(false);
    await expect
      .poll(() => buckets.getByRole('button', { name: full, exact: true }).count(), { timeout: 30_000 })
      .toBe(0);
  });
});
