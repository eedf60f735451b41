// The delete dialog's Expire on the server (issue 28 §4): offered once the count passes the
// threshold (lowered here from a million to 5 keys, through the setting), driven by the keyboard,
// confirmed by typing the name; the rule is added beside the bucket's own and shown as the store
// read it back, with what it dropped, the bucket's versioning, and that the store runs it later.

import AxeBuilder from '@axe-core/playwright';
import {
  GetBucketLifecycleConfigurationCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { DEFAULT_SETTINGS } from '../../src/settings.ts';
import { launchBrowser, openApp, screenshot } from '../support/browser.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';
import { hostCall } from '../support/host-call.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let s3: S3Connection;
const bucket = uniqueBucket();
/** The bucket's own rule, which the expiry rule must leave as it is. */
const THEIRS = {
  ID: 'their-tmp-rule',
  Filter: { Prefix: 'tmp/' },
  Status: 'Enabled' as const,
  Expiration: { Days: 30 },
};

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  await s3.client.send(
    new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  await s3.client.send(
    new PutBucketLifecycleConfigurationCommand({ Bucket: bucket, LifecycleConfiguration: { Rules: [THEIRS] } }),
  );
  for (let i = 0; i < 8; i += 1)
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: `huge/part-${i}.log`, Body: 'x' }));
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'small/one.log', Body: 'x' }));
  await hostCall('settings.update', { expireOnServerAboveKeys: 5 });
  browser = await launchBrowser();
  page = await openApp(browser);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByRole('dialog', { name: 'Add connection' });
  await form.getByLabel('Name').fill('Expiry');
  await form.getByLabel('Endpoint URL').fill(serverConfig().endpoint!);
  await form.getByLabel('Region').fill(serverConfig().region!);
  await form.getByLabel('Access key ID').fill(serverConfig().accessKeyId!);
  await form.getByLabel('Secret access key').fill(serverConfig().secretAccessKey!);
  await form.getByRole('button', { name: 'Save' }).click();
});

afterAll(async () => {
  await hostCall('settings.update', { expireOnServerAboveKeys: DEFAULT_SETTINGS.expireOnServerAboveKeys });
  await browser?.close();
  await engine?.close();
});

async function openDeleteOn(folder: string) {
  await page.getByRole('navigation', { name: 'Buckets' }).getByRole('button', { name: bucket, exact: true }).click();
  const row = page.getByRole('grid').getByRole('row', { name: new RegExp(`^${folder}`) });
  await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
  await row.click();
  await page.getByRole('toolbar').getByRole('button', { name: 'Delete', exact: true }).click();
  return page.getByRole('dialog', { name: 'Delete objects' });
}

async function ruleIds(): Promise<string[]> {
  const answer = await s3.client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }));
  return (answer.Rules ?? []).map((rule) => rule.ID ?? '');
}

it('offers Expire on the server past the threshold, adds the rule by keyboard and shows it as read back', async () => {
  // Below the threshold: the delete alone.
  const small = await openDeleteOn('small/');
  await expect.poll(() => small.getByRole('status').first().textContent(), { timeout: 30_000 }).toMatch(/1 object/);
  expect(await small.getByRole('heading', { name: 'Expire on the server' }).count()).toBe(0);
  await page.keyboard.press('Escape');

  const dialog = await openDeleteOn('huge/');
  const offer = dialog.getByRole('region', { name: 'Expire on the server' });
  await expect.poll(() => offer.count(), { timeout: 30_000 }).toBe(1);
  expect(await offer.textContent()).toContain('8 objects: a delete from here sends a request for every thousand');
  expect(await offer.textContent()).toContain(
    'expires current versions, noncurrent versions, delete markers left alone and unfinished uploads',
  );

  // By keyboard: the offer's button, then the name typed where the focus lands, then Add.
  await offer.getByRole('button', { name: 'Expire on the server…' }).focus();
  await page.keyboard.press('Enter');
  const field = offer.getByLabel('Type the name to expire on the server');
  await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
  const add = offer.getByRole('button', { name: 'Add the expiry rule' });
  expect(await add.isDisabled()).toBe(true);
  const name = (await offer.locator('label code').textContent())!;
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await add.evaluate((element) => element === document.activeElement)).toBe(true);
  await page.keyboard.press('Enter');

  const shown = offer.getByRole('status');
  await expect.poll(() => shown.textContent(), { timeout: 30_000 }).toContain('asynchronously');
  const text = (await shown.textContent())!;
  expect(text).toContain(`Rule barge-expire:huge/ added to ${bucket}. As the store reads it back: below huge/:`);
  expect(text).toContain('noncurrent versions expire 1 day after they are replaced');
  expect(text).toContain('The bucket keeps versions');
  // MinIO keeps no abort of incomplete uploads in a rule: said plainly.
  expect(text).toContain('The store did not keep part of the rule: the abort of incomplete uploads.');
  expect(await ruleIds()).toEqual([THEIRS.ID, 'barge-expire:huge/']);
  // The store has it now: the dialog deletes nothing more, it only closes.
  expect(await dialog.getByRole('button', { name: /^Delete/ }).isDisabled()).toBe(true);
  expect(await dialog.getByRole('button', { name: 'Close' }).count()).toBe(1);

  const { violations } = await new AxeBuilder({ page })
    .include('dialog')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await screenshot(page, 'delete-expire-on-server');
});
