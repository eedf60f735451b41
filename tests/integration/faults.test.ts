import { afterEach, beforeEach, expect, it } from 'vitest';
import { readdir, truncate } from 'node:fs/promises';
import { listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import { AbortMultipartUploadCommand } from '@aws-sdk/client-s3';
import path from 'node:path';
import { MIB } from '../../src/byte-units.ts';
import { randomFile, serverConfig, setUpEngine, sha256File } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';

let t: TestContext;
let proxy: FaultProxy;
let viaProxy: S3Connection;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 4, partSizeBytes: 8 * MIB } });
  proxy = await startFaultProxy(serverConfig().endpoint!);
  viaProxy = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
});
afterEach(async () => {
  await t.close();
  await proxy.close();
});

it('a download whose body breaks mid-stream resumes from the last byte and completes intact', async () => {
  const source = await randomFile(t.dir, 'src.bin', 20 * MIB);
  await t.engine.upload(t.connection, { sources: [source.path], bucket: t.bucket, destination: 'src.bin' }).finished();

  let cuts = 0;
  proxy.setRule((request) =>
    request.method === 'GET' && request.headers.range && cuts++ < 3
      ? { kind: 'cut-body', afterBytes: 3 * MIB }
      : undefined,
  );
  const out = path.join(t.dir, 'out');
  const job = t.engine.download(viaProxy, { bucket: t.bucket, keys: ['src.bin'], targetFolder: out });
  const end = await job.finished();

  expect(end.state.status).toBe('completed');
  expect(cuts).toBeGreaterThanOrEqual(3);
  expect(job.retryCount).toBeGreaterThanOrEqual(3);
  expect(await sha256File(path.join(out, 'src.bin'))).toBe(source.sha256);
  // The resumed requests asked only for the rest of their range.
  const resumed = proxy.seen.filter((r) => r.method === 'GET').length;
  expect(resumed).toBe(3 + 3); // three 8 MiB ranges, three resumes
  expect(await readdir(out)).toEqual(['src.bin']);
});

it('a storm of 503 SlowDown answers is retried with backoff until every upload lands', async () => {
  for (let i = 0; i < 40; i++) await randomFile(t.dir, `storm/f${i}.txt`, 1000 + i);
  let n = 0;
  proxy.setRule((request) => (request.method === 'PUT' && n++ % 3 === 0 ? { kind: 'slow-down' } : undefined));
  const job = t.engine.upload(viaProxy, { sources: [path.join(t.dir, 'storm')], bucket: t.bucket, destination: '' });
  const end = await job.finished();
  expect(end.state.status).toBe('completed');
  expect(end.progress.objectsDone).toBe(40);
  expect(job.retryCount).toBeGreaterThan(5);
  expect(proxy.seen.filter((r) => r.status === 503).length).toBe(job.retryCount);
});

it('a download that keeps failing leaves nothing under the final name', async () => {
  const source = await randomFile(t.dir, 'doomed.bin', 12 * MIB);
  await t.engine
    .upload(t.connection, { sources: [source.path], bucket: t.bucket, destination: 'doomed.bin' })
    .finished();
  t.engine.updateSettings({ maxAttempts: 2 });
  proxy.setRule((request) => (request.method === 'GET' ? { kind: 'cut-body', afterBytes: 1 * MIB } : undefined));
  const out = path.join(t.dir, 'out');
  const end = await t.engine
    .download(viaProxy, { bucket: t.bucket, keys: ['doomed.bin'], targetFolder: out })
    .finished();
  expect(end.state.status).toBe('failed');
  expect(await readdir(out)).toEqual([]);
});

it('a request that gets no answer, or a body that goes silent, is abandoned after the stall timeout and retried', async () => {
  t.engine.updateSettings({ stallTimeoutMs: 1_000 });
  const source = await randomFile(t.dir, 'quiet.bin', 10 * MIB);
  let puts = 0;
  proxy.setRule((request) => (request.method === 'PUT' && puts++ === 0 ? { kind: 'stall' } : undefined));
  const up = t.engine.upload(viaProxy, { sources: [source.path], bucket: t.bucket, destination: 'quiet.bin' });
  expect((await up.finished()).state.status).toBe('completed');
  expect(up.retryCount).toBeGreaterThanOrEqual(1);

  let gets = 0;
  proxy.setRule((request) =>
    request.method === 'GET' && gets++ === 0 ? { kind: 'stall-body', afterBytes: 2 * MIB } : undefined,
  );
  const out = path.join(t.dir, 'quiet-out');
  const down = t.engine.download(viaProxy, { bucket: t.bucket, keys: ['quiet.bin'], targetFolder: out });
  expect((await down.finished()).state.status).toBe('completed');
  expect(down.retryCount).toBeGreaterThanOrEqual(1);
  expect(await sha256File(path.join(out, 'quiet.bin'))).toBe(source.sha256);
});

it('a file that shrinks during its upload fails at once as changed, and leaves no parts', async () => {
  const source = await randomFile(t.dir, 'shrinking.bin', 60 * MIB);
  t.engine.updateSettings({ threads: 1 });
  proxy.setRule(() => ({ kind: 'delay', ms: 100 }));
  const job = t.engine.upload(viaProxy, { sources: [source.path], bucket: t.bucket, destination: 'shrinking.bin' });
  await new Promise<void>((resolve) => {
    const stop = t.engine.onProgress((batch) => {
      if (batch.some((s) => s.id === job.id && s.progress.bytesDone > 0)) {
        stop();
        resolve();
      }
    });
  });
  await truncate(source.path, 1024);
  const end = await job.finished();
  expect(end.state.status).toBe('failed');
  expect(end.itemErrors[0]).toMatchObject({
    code: 'FileChanged',
    message: expect.stringContaining('changed while it was being uploaded'),
  });
  expect(end.progress.bytesDone).toBe(0);
  const uploads = [];
  for await (const u of listMultipartUploads(t.connection, t.bucket)) uploads.push(u);
  expect(uploads).toEqual([]);
});

it('a CompleteMultipartUpload whose answer is lost after the store did it is found by a HEAD, not reported failed', async () => {
  const source = await randomFile(t.dir, 'completed.bin', 17 * MIB);
  let cut = 0;
  proxy.setRule((request) => {
    if (request.method === 'POST' && request.url?.includes('uploadId=') && cut === 0) {
      cut += 1;
      return { kind: 'cut-body', afterBytes: 0 };
    }
    return undefined;
  });
  const end = await t.engine
    .upload(viaProxy, { sources: [source.path], bucket: t.bucket, destination: 'completed.bin' })
    .finished();
  expect(cut).toBe(1);
  expect(end.state.status).toBe('completed');
  const out = path.join(t.dir, 'check.bin');
  await t.engine
    .download(t.connection, { bucket: t.bucket, keys: ['completed.bin'], targetFolder: t.dir, targetFile: out })
    .finished();
  expect(await sha256File(out)).toBe(source.sha256);
});

it('a failed upload whose clean-up fails too says the cause first, the clean-up second', async () => {
  t.engine.updateSettings({ maxAttempts: 2 });
  const source = await randomFile(t.dir, 'doomed.bin', 17 * MIB);
  proxy.setRule((request) => {
    if (request.method === 'PUT' && request.url?.includes('partNumber=2'))
      return { kind: 'corrupt-request', atByte: 10 };
    if (request.method === 'DELETE' && request.url?.includes('uploadId=')) return { kind: 'slow-down' };
    return undefined;
  });
  const end = await t.engine
    .upload(viaProxy, { sources: [source.path], bucket: t.bucket, destination: 'doomed.bin' })
    .finished();
  const message = end.itemErrors[0]!.message;
  expect(message).toMatch(
    /^Cannot upload .*doomed\.bin to s3:\/\/.*\/doomed\.bin: The store received different bytes than were sent/,
  );
  expect(message).toContain('Its multipart upload could not be aborted either (');
  expect(message.indexOf('different bytes')).toBeLessThan(message.indexOf('could not be aborted'));
  proxy.setRule(() => undefined);
  for await (const u of listMultipartUploads(t.connection, t.bucket))
    await t.connection.client.send(
      new AbortMultipartUploadCommand({ Bucket: t.bucket, Key: u.key, UploadId: u.uploadId }),
    );
});
