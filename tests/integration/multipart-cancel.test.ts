import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import { listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import { randomFile, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 2, partSizeBytes: 5 * MIB } });
});
afterEach(() => t.close());

async function incompleteUploads(): Promise<number> {
  let count = 0;
  for await (const _ of listMultipartUploads(t.connection, t.bucket)) count += 1;
  return count;
}

it('a cancelled multipart upload leaves no parts and no object behind', async () => {
  const source = await randomFile(t.dir, 'big.bin', 120 * MIB);
  const job = t.engine.upload(t.connection, { sources: [source.path], bucket: t.bucket, destination: 'big.bin' });
  // Cancel once parts are moving, so requests are in flight and the upload exists on the server.
  await new Promise<void>((resolve) => {
    const stop = t.engine.onProgress((batch) => {
      if (batch.some((s) => s.id === job.id && s.progress.bytesDone > 8 * MIB)) {
        stop();
        resolve();
      }
    });
  });
  expect(await incompleteUploads()).toBe(1);
  job.cancel();
  const end = await job.finished();
  expect(end.state.status).toBe('cancelled');
  // Requests cut short by the cancel are not failures of their own.
  expect(end.itemErrors).toEqual([]);
  expect(end.progress.objectsFailed).toBe(0);
  expect(end.progress.bytesDone).toBe(0);
  expect(await incompleteUploads()).toBe(0);
  await expect(
    t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'big.bin' })),
  ).rejects.toMatchObject({ name: 'NotFound' });
});

it('a cancelled job can be retried and then completes', async () => {
  const source = await randomFile(t.dir, 'again.bin', 30 * MIB);
  const job = t.engine.upload(t.connection, {
    sources: [path.resolve(source.path)],
    bucket: t.bucket,
    destination: 'again.bin',
  });
  job.cancel();
  expect((await job.finished()).state.status).toBe('cancelled');
  expect(job.retry()).toBe(true);
  const end = await job.finished();
  expect(end.state.status).toBe('completed');
  expect(end.progress.bytesDone).toBe(30 * MIB);
  const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'again.bin' }));
  expect(head.ContentLength).toBe(30 * MIB);
  expect(await incompleteUploads()).toBe(0);
});
