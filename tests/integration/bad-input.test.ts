import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createBucket } from '../../main/engine/s3-buckets.ts';
import { listAllObjects } from '../../main/engine/s3-listing.ts';
import { randomFile, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 4 } });
});
afterEach(() => t.close());

it('refuses a key over 1,024 bytes before sending anything, and uploads the rest', async () => {
  await randomFile(t.dir, 'short.txt', 10);
  const longName = `${'k'.repeat(1030)}.txt`;
  const end = await t.engine.upload(t.connection, { sources: [path.join(t.dir, 'short.txt')], bucket: t.bucket, destination: longName }).finished();
  expect(end.state.status).toBe('failed');
  expect(end.itemErrors[0]).toMatchObject({ code: 'InvalidKey', message: expect.stringContaining('S3 allows at most 1024') });
});

it('stops at the first file when the bucket does not exist, instead of failing every file', async () => {
  for (let i = 0; i < 50; i++) await randomFile(t.dir, `many/${i}.txt`, 10);
  const end = await t.engine.upload(t.connection, { sources: [path.join(t.dir, 'many')], bucket: 'no-such-bucket-here', destination: '' }).finished();
  expect(end.state.status).toBe('failed');
  expect(end.state.status === 'failed' && end.state.error).toMatchObject({ code: 'NoSuchBucket', message: expect.stringContaining('The bucket does not exist') });
  expect(end.progress.objectsFailed).toBeLessThan(50);
});

it('a missing object fails its download clearly and leaves no file', async () => {
  const out = path.join(t.dir, 'out');
  const end = await t.engine.download(t.connection, { bucket: t.bucket, keys: ['nope.bin'], targetFolder: out }).finished();
  expect(end.state.status).toBe('failed');
  expect(end.itemErrors[0]).toMatchObject({ item: `s3://${t.bucket}/nope.bin`, message: `Cannot download s3://${t.bucket}/nope.bin: The object does not exist.` });
  expect(await readdir(out).catch(() => [])).toEqual([]);
});

it('refuses to create a bucket with an invalid name, saying which rule it breaks', async () => {
  await expect(createBucket(t.connection, 'UPPER')).rejects.toMatchObject({ code: 'InvalidBucketName', message: '"UPPER" is not a valid bucket name: it may contain only lowercase letters, digits, dots (.) and hyphens (-).' });
  await expect(createBucket(t.connection, t.bucket)).rejects.toMatchObject({ code: 'BucketAlreadyOwnedByYou' });
});

it('uploads nothing for a folder with no files, and says it completed', async () => {
  const empty = path.join(t.dir, 'empty');
  await mkdir(empty);
  const end = await t.engine.upload(t.connection, { sources: [empty], bucket: t.bucket, destination: '' }).finished();
  expect(end.state.status).toBe('completed');
  expect(end.progress.objectsTotal).toBe(0);
  const keys = [];
  for await (const o of listAllObjects(t.connection, { bucket: t.bucket })) keys.push(o);
  expect(keys).toEqual([]);
});
