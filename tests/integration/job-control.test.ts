import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, onTestFinished } from 'vitest';
import { KIB, MIB } from '../../src/byte-units.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import { randomFile, serverConfig, setUpEngine } from '../support/fixtures.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 4, partSizeBytes: 5 * MIB } });
});
afterEach(() => t.close());

it('pause stops new requests; resume finishes the job', async () => {
  for (let i = 0; i < 200; i++) await randomFile(t.dir, `p/${i}.bin`, 8 * KIB);
  const job = t.engine.upload(t.connection, { sources: [path.join(t.dir, 'p')], bucket: t.bucket, destination: '' });
  await new Promise<void>((resolve) => {
    const stop = t.engine.onProgress((batch) => {
      if (batch.some((s) => s.id === job.id && s.progress.objectsDone >= 20)) {
        stop();
        resolve();
      }
    });
  });
  job.pause();
  expect(job.state.status).toBe('paused');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const paused = job.snapshot().progress.objectsDone;
  expect(t.engine.stats().activeRequests).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(job.snapshot().progress.objectsDone).toBe(paused);
  expect(paused).toBeLessThan(200);

  job.resume();
  const end = await job.finished();
  expect(end.state.status).toBe('completed');
  expect(end.progress.objectsDone).toBe(200);
});

it('a failed item fails the job with a clear error; retry sends only what failed', async () => {
  await randomFile(t.dir, 'ok.txt', 10);
  const missing = path.join(t.dir, 'later.txt');
  const proxy = await startFaultProxy(serverConfig().endpoint!);
  onTestFinished(() => proxy.close());
  const counted = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
  const job = t.engine.upload(counted, {
    sources: [path.join(t.dir, 'ok.txt'), missing],
    bucket: t.bucket,
    destination: 'in/',
  });
  const first = await job.finished();
  expect(first.state.status).toBe('failed');
  expect(first.progress).toMatchObject({ objectsDone: 1, objectsFailed: 1, objectsTotal: 2 });
  expect(first.itemErrors).toEqual([
    { item: missing, code: 'ENOENT', message: `Cannot read ${missing}: No such file or folder.` },
  ]);

  await writeFile(missing, 'now it exists');
  const before = proxy.seen.length;
  expect(job.retry()).toBe(true);
  const second = await job.finished();
  expect(second.state.status).toBe('completed');
  expect(proxy.seen.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual([`PUT /${t.bucket}/in/later.txt`]);
  const keys = [];
  for await (const o of listAllObjects(t.connection, { bucket: t.bucket })) keys.push(o.key);
  expect(keys.sort()).toEqual(['in/later.txt', 'in/ok.txt']);
});
