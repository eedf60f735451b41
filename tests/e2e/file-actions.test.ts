// The window's file actions end to end, in Debian's Chromium against `npm run serve`'s host and a
// real MinIO: New folder, the context menu (by the mouse and by the keyboard), rename of an object
// and of a folder, Copy to… through the picker, and a drag of the selection onto a bucket in the
// sidebar (a copy; with Shift, a move). Each is checked on the store itself.

import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import AxeBuilder from '@axe-core/playwright';
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
const other = uniqueBucket();

const put = (key: string, body = key) => s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));

/** An object's body as text. */
async function body(key: string): Promise<string> {
  const answer = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return answer.Body!.transformToString();
}

/** Every key of a bucket, sorted. */
async function keys(name: string): Promise<string[]> {
  const answer = await s3.client.send(new ListObjectsV2Command({ Bucket: name }));
  return (answer.Contents ?? []).map((o) => o.Key!).sort();
}

const grid = () => page.getByRole('grid');
const row = (name: string) =>
  grid().getByRole('row', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(\\s|$)`) });
const buckets = () => page.getByRole('navigation', { name: 'Buckets' });

/** axe-core's serious and critical violations on the page as it is. */
async function seriousViolations(): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The bucket on screen again, listed afresh, with nothing selected. */
async function openBucket() {
  await buckets().getByRole('button', { name: bucket, exact: true }).click();
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect.poll(() => grid().getByRole('row').count(), { timeout: 30_000 }).toBeGreaterThan(1);
}

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  await createBucket(s3, other);
  browser = await launchBrowser();
  page = await openApp(browser);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByRole('dialog', { name: 'Add connection' });
  await form.getByLabel('Name').fill('File actions');
  await form.getByLabel('Endpoint URL').fill(serverConfig().endpoint!);
  await form.getByLabel('Region').fill(serverConfig().region!);
  await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
  await form.getByLabel('Secret access key').fill(serverConfig().secretAccessKey!);
  await form.getByRole('button', { name: 'Save' }).click();
  await buckets().getByRole('button', { name: other, exact: true }).waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

it('makes a new folder from the toolbar: a zero-byte name/ marker; a name with "/" is refused with the rule', async () => {
  await put('seed.txt');
  await openBucket();
  await page.getByRole('button', { name: 'New folder', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `New folder in ${bucket}/` });
  await dialog.getByLabel('Folder name').fill('a/b');
  await expect
    .poll(() => dialog.getByRole('alert').textContent())
    .toBe('"a/b" cannot name a folder: a name has no "/" in it (it would make folders of its own).');
  await dialog.getByLabel('Folder name').fill('reports');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  const marker = await s3.client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'reports/' }));
  expect(marker.ContentLength).toBe(0);
  await expect.poll(() => row('reports/').count()).toBe(1);
});

it("opens a row's menu with Shift+F10 and the ContextMenu key, moves in it with the arrows, Enter chooses, Escape gives the focus back", async () => {
  await put('menu/notes.txt', 'notes');
  await openBucket();
  await grid()
    .getByRole('row', { name: /^menu\// })
    .dblclick();
  await expect.poll(() => row('notes.txt').count()).toBe(1);
  await row('notes.txt').click();
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu', { name: 'Actions on the selection' });
  await expect.poll(() => menu.isVisible()).toBe(true);
  expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
    'Download…',
    'Copy link',
    'Details',
    'Rename…',
    'Copy to…',
    'Move to…',
    'Delete…',
  ]);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Download…');
  expect(await seriousViolations()).toEqual([]);
  await page.keyboard.press('Escape');
  expect(await menu.count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-key'))).toBe('menu/notes.txt');

  await page.keyboard.press('ContextMenu');
  await expect.poll(() => menu.isVisible()).toBe(true);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Details');
  await page.keyboard.press('Enter');
  const details = page.getByRole('dialog', { name: /notes\.txt/ });
  await expect.poll(() => details.isVisible()).toBe(true);
  await screenshot(page, 'context-menu-details');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
});

it('renames an object from its context menu: the new key is there, the old one gone', async () => {
  await put('draft.txt', 'draft body');
  await openBucket();
  await row('draft.txt').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Rename…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename draft.txt' });
  await dialog.getByRole('button', { name: 'Rename' }).click();
  // The same name is refused, with the rule.
  await expect
    .poll(() => dialog.getByRole('alert').textContent())
    .toBe('"draft.txt" is the name it has: give another name.');
  await dialog.getByLabel('New name').fill('final.txt');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => keys(bucket), { timeout: 30_000 }).toContain('final.txt');
  await expect.poll(() => keys(bucket)).not.toContain('draft.txt');
  await expect.poll(() => row('final.txt').count(), { timeout: 30_000 }).toBe(1);
});

it('renames an object onto a name already there only when Replace is chosen: until then both stay as they were', async () => {
  await put('clash/a.txt', 'a body');
  await put('clash/b.txt', 'b body');
  await openBucket();
  await grid()
    .getByRole('row', { name: /^clash\// })
    .dblclick();
  await expect.poll(() => row('a.txt').count()).toBe(1);
  await row('a.txt').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Rename…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename a.txt' });
  await dialog.getByLabel('New name').fill('b.txt');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  const asked = dialog.getByRole('alert').filter({ hasText: 'already there' });
  await expect.poll(() => asked.textContent()).toBe('b.txt is already there. Replace?Replace');
  // Asked, not done: Enter (the form's default) asks again and replaces nothing.
  await dialog.getByLabel('New name').press('Enter');
  await expect.poll(() => asked.count()).toBe(1);
  expect(await body('clash/b.txt')).toBe('b body');
  expect(await keys(bucket)).toContain('clash/a.txt');

  await asked.getByRole('button', { name: 'Replace' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => keys(bucket), { timeout: 30_000 }).not.toContain('clash/a.txt');
  expect(await body('clash/b.txt')).toBe('a body');
});

it('renames a folder, showing the keys it moves first: every key goes to the new name', async () => {
  await put('old/a.txt');
  await put('old/deep/b.txt');
  await openBucket();
  await row('old/').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Rename…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename old/' });
  await dialog.getByLabel('New name').fill('new');
  const preview = dialog.getByRole('list', { name: 'Keys it moves' });
  await expect
    .poll(() => preview.getByRole('listitem').allTextContents())
    .toEqual(['old/a.txt → new/a.txt', 'old/deep/b.txt → new/deep/b.txt']);
  expect(await dialog.getByRole('status').textContent()).toBe('2 keys.');
  await screenshot(page, 'rename-folder');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect
    .poll(async () => (await keys(bucket)).filter((k) => k.startsWith('old/') || k.startsWith('new/')), {
      timeout: 30_000,
    })
    .toEqual(['new/a.txt', 'new/deep/b.txt']);
});

it('copies the selection to a folder of another bucket through the Copy to… picker', async () => {
  await put('pick/one.txt');
  await put('pick/sub/two.txt');
  await s3.client.send(new PutObjectCommand({ Bucket: other, Key: 'inbox/', Body: '' }));
  await openBucket();
  await grid()
    .getByRole('row', { name: /^pick\// })
    .dblclick();
  await expect.poll(() => row('one.txt').count()).toBe(1);
  await row('one.txt').click();
  await row('sub/').click({ modifiers: ['Control'] });
  await row('sub/').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Copy to…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy 2 items to…' });
  await dialog.getByLabel('Bucket').selectOption(other);
  await dialog.getByRole('button', { name: 'inbox' }).click();
  await expect.poll(() => dialog.getByText('No folders here.').count()).toBe(1);
  expect(await seriousViolations()).toEqual([]);
  await dialog.getByRole('button', { name: `Copy to ${other}/inbox/` }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => keys(other), { timeout: 30_000 }).toEqual(['inbox/', 'inbox/one.txt', 'inbox/sub/two.txt']);
  // A copy: the sources stay.
  expect((await keys(bucket)).filter((k) => k.startsWith('pick/'))).toEqual(['pick/one.txt', 'pick/sub/two.txt']);
});

it('makes a new folder inside the Copy to… picker, refusing a bad name, and copies into it', async () => {
  await put('fresh/three.txt');
  await openBucket();
  await grid()
    .getByRole('row', { name: /^fresh\// })
    .dblclick();
  await expect.poll(() => row('three.txt').count()).toBe(1);
  await row('three.txt').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Copy to…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy 1 item to…' });
  await dialog.getByLabel('Bucket').selectOption(other);
  await dialog.getByRole('button', { name: 'New folder…' }).click();
  await dialog.getByLabel('New folder name').fill('a/b');
  await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('a name has no "/" in it');
  await dialog.getByLabel('New folder name').fill('made-here');
  await dialog.getByRole('button', { name: 'Create' }).click();
  // Made, and opened: the copy now goes into it.
  await dialog.getByRole('button', { name: `Copy to ${other}/made-here/` }).waitFor();
  expect(await keys(other)).toContain('made-here/');
  expect(await seriousViolations()).toEqual([]);
  await dialog.getByRole('button', { name: `Copy to ${other}/made-here/` }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => keys(other), { timeout: 30_000 }).toContain('made-here/three.txt');
});

it('copies the selection dragged onto a bucket in the sidebar, and moves it with Shift held', async () => {
  await put('drag/copied.txt');
  await put('drag/moved.txt');
  await openBucket();
  await grid()
    .getByRole('row', { name: /^drag\// })
    .dblclick();
  await expect.poll(() => row('copied.txt').count()).toBe(1);
  const target = buckets().getByRole('button', { name: other, exact: true });

  await row('copied.txt').click();
  await row('copied.txt').dragTo(target);
  await expect.poll(() => keys(other), { timeout: 30_000 }).toContain('copied.txt');
  expect(await keys(bucket)).toContain('drag/copied.txt');

  await row('moved.txt').click();
  const box = (await target.boundingBox())!;
  await row('moved.txt').hover();
  await page.mouse.down();
  await page.mouse.move(box.x + 10, box.y + box.height / 2, { steps: 5 });
  await expect.poll(() => buckets().locator('.drop-verb').allTextContents()).toEqual(['Copy here (Shift: move)']);
  // Shift pressed while dragging: the hint says so at the next move.
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + 14, box.y + box.height / 2, { steps: 2 });
  await expect.poll(() => buckets().locator('.drop-verb').allTextContents()).toEqual(['Move here']);
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await expect.poll(() => keys(other), { timeout: 30_000 }).toContain('moved.txt');
  await expect.poll(() => keys(bucket), { timeout: 30_000 }).not.toContain('drag/moved.txt');
});

it('copies an object dragged onto a folder row into that folder; a folder dropped on itself is refused in words', async () => {
  await put('rows/into/');
  await put('rows/loose.txt');
  await openBucket();
  await grid()
    .getByRole('row', { name: /^rows\// })
    .dblclick();
  await expect.poll(() => row('loose.txt').count()).toBe(1);
  await row('loose.txt').click();
  await row('loose.txt').dragTo(row('into/'));
  await expect.poll(() => keys(bucket), { timeout: 30_000 }).toContain('rows/into/loose.txt');
  expect(await keys(bucket)).toContain('rows/loose.txt');

  await row('into/').click();
  await row('into/').dragTo(row('into/'), { targetPosition: { x: 40, y: 10 } });
  const refused = page.getByRole('alert').filter({ hasText: 'into itself' });
  await expect
    .poll(() => refused.textContent())
    .toBe(
      `Cannot copy s3://${bucket}/rows/into/ into itself (to s3://${bucket}/rows/into/into/): ` +
        'choose a destination outside it. Dismiss',
    );
  await page.getByRole('button', { name: 'Dismiss' }).click();
});

it('moves an object dragged onto a folder holding the same name: that one fails, kept, and the source stays', async () => {
  await put('keep/x.txt', 'outer');
  await put('keep/into/x.txt', 'inner');
  await openBucket();
  await grid()
    .getByRole('row', { name: /^keep\// })
    .dblclick();
  await expect.poll(() => row('x.txt').count()).toBe(1);
  await row('x.txt').click();
  const box = (await row('into/').boundingBox())!;
  await row('x.txt').hover();
  await page.mouse.down();
  await page.mouse.move(box.x + 40, box.y + box.height / 2, { steps: 5 });
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + 44, box.y + box.height / 2, { steps: 2 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  const failed = page
    .getByRole('list', { name: 'Transfers' })
    .getByRole('listitem')
    .filter({ hasText: 'failed' })
    .filter({ hasText: 'x.txt' });
  await expect.poll(() => failed.count(), { timeout: 30_000 }).toBe(1);
  expect(await failed.locator('p.error').getAttribute('title')).toContain(
    `s3://${bucket}/keep/into/x.txt is already there: it was kept`,
  );
  expect(await body('keep/into/x.txt')).toBe('inner');
  expect(await body('keep/x.txt')).toBe('outer');
});

it("opens a bucket's menu from the keyboard in the sidebar: New folder there", async () => {
  const button = buckets().getByRole('button', { name: other, exact: true });
  await button.focus();
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu', { name: `Actions on bucket ${other}` });
  await expect.poll(() => menu.isVisible()).toBe(true);
  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('New folder…');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `New folder in ${other}/` });
  await dialog.getByLabel('Folder name').fill('from-menu');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect.poll(() => keys(other), { timeout: 30_000 }).toContain('from-menu/');
});
