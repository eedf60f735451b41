// What limits the transfers, in the window's overall panel: a download of many small objects from a
// store 40 ms away (through toxiproxy) is named latency-bound while it runs, with its figures, and
// the line goes once nothing runs. In Debian's Chromium against `npm run serve`'s host.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { KIB } from '../../src/byte-units.ts';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { launchBrowser, openApp, screenshot } from '../support/browser.ts';
import { randomFile, serverConfig, uniqueBucket } from '../support/fixtures.ts';
import { hostCall } from '../support/host-call.ts';
import { startToxiproxy } from '../support/toxiproxy.ts';
import type { ToxiproxyProxy, ToxiproxyServer } from '../support/toxiproxy.ts';

const OBJECTS = 600;
let browser: Browser;
let page: Page;
let engine: Engine;
let dir: string;
let toxiproxyServer: ToxiproxyServer;
let toxiproxy: ToxiproxyProxy;
const bucket = uniqueBucket();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-limit-'));
  engine = new Engine();
  const s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  for (let index = 0; index < OBJECTS; index++)
    await randomFile(path.join(dir, 'small'), `f${String(index).padStart(4, '0')}`, 4 * KIB);
  const seeded = await engine
    .upload(s3, { sources: [path.join(dir, 'small')], bucket, destination: 'small/' })
    .finished();
  expect(seeded.state.status).toBe('completed');
  toxiproxyServer = await startToxiproxy();
  toxiproxy = await toxiproxyServer.createProxy('far-store', serverConfig().endpoint!);
  browser = await launchBrowser();
  page = await openApp(browser);
});

afterAll(async () => {
  await browser?.close();
  await toxiproxyServer?.stop();
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('names a download of many small objects from a store 40 ms away latency-bound while it runs', async () => {
  const far = await hostCall('connections.add', {
    name: 'Store 40 ms away',
    endpoint: toxiproxy.endpoint,
    region: serverConfig().region,
    pathStyle: true,
    accessKeyId: serverConfig().accessKeyId,
    secretAccessKey: serverConfig().secretAccessKey,
  });
  const { threads } = await hostCall('settings.get', {});
  await toxiproxy.addToxic('latency', { type: 'latency', attributes: { latency: 40 } }, { stream: 'downstream' });
  try {
    await hostCall('settings.update', { threads: 4 });
    const job = await hostCall('jobs.download', {
      connectionId: far.id,
      bucket,
      prefixes: ['small/'],
      targetFolder: path.join(inject('app').downloadRoot, 'limit-readout'),
    });
    const readout = page
      .getByRole('region', { name: 'Overall throughput' })
      .getByRole('note', { name: 'What limits the transfers' });
    await expect.poll(() => readout.textContent(), { timeout: 30_000 }).toMatch(/^Limited by latency: /);
    const said = (await readout.textContent()) ?? '';
    expect(said).toMatch(/more threads would help/);
    expect(said).toMatch(/\d+% of request time waiting for the store/);
    await screenshot(page, 'limit-readout');
    // Still running when it was read: the readout is of a transfer under way.
    const running = await hostCall('jobs.snapshot', {});
    expect(running.find((each) => each.id === job.id)?.state.status).toBe('running');
    await expect
      .poll(async () => (await hostCall('jobs.snapshot', {})).find((each) => each.id === job.id)?.state.status, {
        timeout: 120_000,
      })
      .toBe('completed');
    // Nothing runs: the readout says nothing rather than guess.
    await expect.poll(() => readout.count(), { timeout: 10_000 }).toBe(0);
  } finally {
    await hostCall('settings.update', { threads });
    await hostCall('connections.remove', { id: far.id });
  }
});
