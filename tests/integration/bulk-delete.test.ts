import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CreateBucketCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutBucketVersioningCommand,
} from '@aws-sdk/client-s3';
import { listAllObjects, listAllVersions } from '../../main/engine/s3/s3-listing.ts';
import { setUpEngine, uniqueBucket } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 16 } });
});
afterEach(() => t.close());

async function putKeys(bucket: string, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 64) {
    await Promise.all(
      keys
        .slice(i, i + 64)
        .map((Key) => t.connection.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: `body of ${Key}` }))),
    );
  }
}

async function keysIn(bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of listAllObjects(t.connection, { bucket, prefix })) keys.push(o.key);
  return keys.sort();
}

describe('bulk delete', () => {
  it('deletes a whole prefix in batches of 1,000, and nothing beside it', async () => {
    const doomed = Array.from({ length: 2_345 }, (_, i) => `logs/2024/${String(i).padStart(5, '0')}.log`);
    await putKeys(t.bucket, [...doomed, 'logs2/keep.log', 'logs.txt', 'other/keep.log']);
    const job = t.engine.delete(t.connection, { bucket: t.bucket, prefixes: ['logs'] });
    const end = await job.finished();
    expect(end.state.status).toBe('completed');
    expect(end.progress).toMatchObject({
      objectsDone: 2_345,
      objectsTotal: 2_345,
      objectsFailed: 0,
      totalsKnown: true,
    });
    expect(await keysIn(t.bucket)).toEqual(['logs.txt', 'logs2/keep.log', 'other/keep.log']);
  });

  it('a dry run counts objects and bytes and deletes nothing', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `tmp/${i}.txt`);
    await putKeys(t.bucket, keys);
    const expectedBytes = keys.reduce((sum, k) => sum + `body of ${k}`.length, 0);
    const end = await t.engine.delete(t.connection, { bucket: t.bucket, prefixes: ['tmp/'], dryRun: true }).finished();
    expect(end.state.status).toBe('completed');
    expect(end.progress).toMatchObject({ objectsDone: 30, bytesDone: expectedBytes, bytesTotal: expectedBytes });
    expect(await keysIn(t.bucket)).toHaveLength(30);
  });

  it('counts the same bytes in the preview and the delete of a selection of keys and folders', async () => {
    const loose = ['sel/a.txt', 'sel/bb.txt'];
    await putKeys(t.bucket, [...loose, 'sel/dir/c.txt', 'sel/dir/dd.txt']);
    const bytes = (keys: readonly string[]) => keys.reduce((sum, k) => sum + `body of ${k}`.length, 0);
    const selection = {
      bucket: t.bucket,
      keys: loose,
      keySizes: loose.map((k) => `body of ${k}`.length),
      prefixes: ['sel/dir/'],
    };
    const preview = await t.engine.delete(t.connection, { ...selection, dryRun: true }).finished();
    const done = await t.engine.delete(t.connection, selection).finished();
    expect(done.state.status).toBe('completed');
    const all = bytes([...loose, 'sel/dir/c.txt', 'sel/dir/dd.txt']);
    expect(preview.progress).toMatchObject({ objectsDone: 4, bytesDone: all, bytesTotal: all });
    expect(done.progress).toMatchObject({ objectsDone: 4, bytesDone: all, bytesTotal: all });
    expect(await keysIn(t.bucket, 'sel/')).toEqual([]);
    // Sizes that do not match the keys are refused before anything is deleted.
    await putKeys(t.bucket, loose);
    expect(() => t.engine.delete(t.connection, { bucket: t.bucket, keys: loose, keySizes: [1] })).toThrow(
      /one size for each key/,
    );
    expect(await keysIn(t.bucket, 'sel/')).toEqual(loose);
  });

  it('deletes explicit keys, and a key that does not exist counts as deleted (as S3 does)', async () => {
    await putKeys(t.bucket, ['a.txt', 'b.txt', 'c.txt']);
    const end = await t.engine
      .delete(t.connection, { bucket: t.bucket, keys: ['a.txt', 'c.txt', 'missing.txt'] })
      .finished();
    expect(end.state.status).toBe('completed');
    expect(await keysIn(t.bucket)).toEqual(['b.txt']);
  });

  it('deletes every version and delete marker with allVersions', async () => {
    await t.connection.client.send(
      new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    await putKeys(t.bucket, ['v/a.txt', 'v/a.txt', 'v/b.txt']);
    await t.engine.delete(t.connection, { bucket: t.bucket, keys: ['v/b.txt'] }).finished(); // leaves a delete marker
    let versions = 0;
    for await (const _ of listAllVersions(t.connection, { bucket: t.bucket })) versions += 1;
    expect(versions).toBe(4);

    const end = await t.engine
      .delete(t.connection, { bucket: t.bucket, prefixes: ['v/'], allVersions: true })
      .finished();
    expect(end.state.status).toBe('completed');
    expect(end.progress.objectsDone).toBe(4);
    versions = 0;
    for await (const _ of listAllVersions(t.connection, { bucket: t.bucket })) versions += 1;
    expect(versions).toBe(0);
  });

  it('reports every per-key error and deletes the rest', async () => {
    // Object lock: a legal hold makes the server refuse to delete those versions, key by key.
    const locked = uniqueBucket();
    await t.connection.client.send(new CreateBucketCommand({ Bucket: locked, ObjectLockEnabledForBucket: true }));
    await putKeys(locked, ['held/1.txt', 'held/2.txt', 'free/1.txt', 'free/2.txt', 'free/3.txt']);
    for (const Key of ['held/1.txt', 'held/2.txt']) {
      await t.connection.client.send(
        new PutObjectLegalHoldCommand({ Bucket: locked, Key, LegalHold: { Status: 'ON' } }),
      );
    }
    const end = await t.engine.delete(t.connection, { bucket: locked, prefixes: [''], allVersions: true }).finished();
    expect(end.state.status).toBe('failed');
    expect(end.progress).toMatchObject({ objectsDone: 3, objectsFailed: 2 });
    expect(end.itemErrors.map((e) => e.item.replace(/ \(version .*\)$/, '')).sort()).toEqual([
      `s3://${locked}/held/1.txt`,
      `s3://${locked}/held/2.txt`,
    ]);
    // AWS answers AccessDenied; MinIO InvalidRequest. Either way the caller sees one code for it.
    expect(end.itemErrors[0]!.code).toBe('ObjectLocked');
    expect(end.itemErrors[0]!.message).toMatch(/^Cannot delete s3:\/\/.*held\/\d\.txt \(version .+\): /);
    expect(end.state.status === 'failed' && end.state.error.message).toContain('2 of 5 failed');
    expect(await keysIn(locked)).toEqual(['held/1.txt', 'held/2.txt']);
    // A retry tries just the two that failed; with the holds lifted it completes.
    for (const Key of ['held/1.txt', 'held/2.txt']) {
      await t.connection.client.send(
        new PutObjectLegalHoldCommand({ Bucket: locked, Key, LegalHold: { Status: 'OFF' } }),
      );
    }
    const job = t.engine.job(end.id)!;
    expect(job.retry()).toBe(true);
    const again = await job.finished();
    expect(again.state.status).toBe('completed');
    expect(again.progress.objectsDone).toBe(5);
    expect(await keysIn(locked)).toEqual([]);
  });
});

it('says whether a bucket keeps versions, which decides what a delete there does', async () => {
  expect(await t.engine.bucketVersioning(t.connection, t.bucket)).toBe('off');
  await t.connection.client.send(
    new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  expect(await t.engine.bucketVersioning(t.connection, t.bucket)).toBe('enabled');
  await t.connection.client.send(
    new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Suspended' } }),
  );
  expect(await t.engine.bucketVersioning(t.connection, t.bucket)).toBe('suspended');
  await expect(t.engine.bucketVersioning(t.connection, uniqueBucket())).rejects.toMatchObject({ code: 'NoSuchBucket' });
});
