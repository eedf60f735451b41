// The engine's request signals, measured on the real data path: what Auto and the readout of a
// transfer's limit decide from.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, onTestFinished } from 'vitest';
import { MIB } from '../../src/byte-units.ts';
import { randomFile, serverConfig, setUpEngine } from '../support/fixtures.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { TestContext } from '../support/fixtures.ts';

const DELAY_MS = 150;
let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 2, partSizeBytes: 8 * MIB } });
});
afterEach(() => t.close());

async function throughProxy() {
  const proxy = await startFaultProxy(serverConfig().endpoint!);
  onTestFinished(() => proxy.close());
  return { proxy, connection: await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint }) };
}

it("counts an upload's and a download's body bytes, and a delayed GET's wait before its answer", async () => {
  const { proxy, connection } = await throughProxy();
  await randomFile(t.dir, 'one.bin', 3 * MIB);
  const up = await t.engine
    .upload(connection, { sources: [path.join(t.dir, 'one.bin')], bucket: t.bucket, destination: '' })
    .finished();
  expect(up.state.status).toBe('completed');
  const afterUpload = t.engine.signals.summary(600);
  expect(afterUpload.bytes).toBe(3 * MIB);

  proxy.setRule(() => ({ kind: 'delay', ms: DELAY_MS }));
  const out = path.join(t.dir, 'out');
  await mkdir(out);
  const started = performance.now();
  const down = await t.engine
    .download(connection, { bucket: t.bucket, keys: ['one.bin'], targetFolder: out })
    .finished();
  expect(down.state.status).toBe('completed');
  expect(t.engine.signals.summary(600).bytes).toBe(6 * MIB);
  // The download's requests alone (the upload's ended before it began): each request waited out the
  // proxy's delay before its answer began, and then moved the body.
  const download = t.engine.signals.summary((performance.now() - started) / 1000);
  expect(download.bytes).toBe(3 * MIB);
  expect(download.medianWaitMs).toBeGreaterThanOrEqual(DELAY_MS);
  expect(afterUpload.medianWaitMs).toBeLessThan(DELAY_MS);
  // Both moved a body, marked by the data path: not all of their time was waiting.
  expect(afterUpload.waitShare).toBeLessThan(1);
  expect(download.waitShare).toBeLessThan(1);
});

it('counts the requests the store turned away with 503 SlowDown', async () => {
  const { proxy, connection } = await throughProxy();
  let refused = 0;
  proxy.setRule((request) => (request.method === 'PUT' && refused++ < 2 ? { kind: 'slow-down' } : undefined));
  await randomFile(t.dir, 'small.txt', 1000);
  const job = await t.engine
    .upload(connection, { sources: [path.join(t.dir, 'small.txt')], bucket: t.bucket, destination: '' })
    .finished();
  expect(job.state.status).toBe('completed');
  expect(t.engine.signals.summary(600)).toMatchObject({ throttled: 2, failed: 0 });
});
