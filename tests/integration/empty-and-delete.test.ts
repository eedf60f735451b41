// Empty and delete: a non-empty bucket emptied whole (every version and delete marker, its
// unfinished multipart uploads) by one delete job, which then deletes the bucket.

import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  HeadBucketCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Engine } from '../../main/engine/engine.ts';
import { listAllVersions, listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { setUpEngine, uniqueBucket } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 16 } });
});
afterEach(() => t.close());

async function bucketExists(bucket: string): Promise<boolean> {
  try {
    await t.connection.client.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

/** A versioned bucket with versions of keys, a delete marker, and a multipart upload begun and never finished. */
async function fillVersioned(bucket: string): Promise<{ versions: number }> {
  const send = t.connection.client.send.bind(t.connection.client);
  await send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  for (const Key of ['a.txt', 'a.txt', 'a.txt', 'docs/b.txt', 'docs/c.txt'])
    await send(new PutObjectCommand({ Bucket: bucket, Key, Body: `body of ${Key}` }));
  // A plain delete leaves a delete marker in front of c.txt's version.
  const marked = await t.engine.delete(t.connection, { bucket, keys: ['docs/c.txt'] }).finished();
  expect(marked.state.status).toBe('completed');
  const begun = await send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'big/unfinished.bin' }));
  await send(
    new UploadPartCommand({
      Bucket: bucket,
      Key: 'big/unfinished.bin',
      UploadId: begun.UploadId,
      PartNumber: 1,
      Body: Buffer.alloc(5 * 1024 * 1024, 1),
    }),
  );
  let versions = 0;
  let markers = 0;
  for await (const version of listAllVersions(t.connection, { bucket })) {
    if (version.isDeleteMarker) markers += 1;
    else versions += 1;
  }
  expect({ versions, markers }).toEqual({ versions: 5, markers: 1 });
  const uploads = [];
  for await (const upload of listMultipartUploads(t.connection, bucket)) uploads.push(upload);
  expect(uploads).toHaveLength(1);
  return { versions: versions + markers };
}

describe('empty and delete', () => {
  it('empties a versioned bucket of every version, delete marker and unfinished upload, then deletes it', async () => {
    const { versions } = await fillVersioned(t.bucket);
    const job = t.engine.delete(t.connection, {
      bucket: t.bucket,
      prefixes: [''],
      allVersions: true,
      abortUploads: true,
      deleteBucket: true,
    });
    expect(job.name).toBe(`Empty and delete bucket ${t.bucket}`);
    const end = await job.finished();
    expect(end.state).toEqual({ status: 'completed' });
    expect(end.progress).toMatchObject({
      objectsDone: versions,
      objectsTotal: versions,
      objectsFailed: 0,
      totalsKnown: true,
    });
    expect(await bucketExists(t.bucket)).toBe(false);
  });

  it('is offered by the service as a job every host sees, with progress', async () => {
    await fillVersioned(t.bucket);
    const s3 = inject('s3');
    const env = {
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_ENDPOINT_URL: s3.endpoint,
      AWS_REGION: s3.region,
    };
    const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-empty-'));
    const engine = new Engine({ env });
    const service = createBargeService({
      engine,
      registry: new ConnectionRegistry({
        dataDir: folder,
        engine,
        secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
        env,
      }),
      host: 'web',
      pageCallers: true,
      restoreJobs: false,
    });
    try {
      const started = await service.dispatch('buckets.emptyAndDelete', { connectionId: 'env', name: t.bucket });
      expect(started).toMatchObject({
        ok: true,
        value: { kind: 'delete', name: `Empty and delete bucket ${t.bucket}`, bucket: t.bucket, prefix: '' },
      });
      const id = (started as { value: { id: string } }).value.id;
      const end = await engine.job(id)!.finished();
      expect(end.state.status).toBe('completed');
      expect(await bucketExists(t.bucket)).toBe(false);
    } finally {
      await service.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('keeps a bucket it could not empty, naming what stayed; a retry empties it and deletes it', async () => {
    const locked = uniqueBucket();
    await t.connection.client.send(new CreateBucketCommand({ Bucket: locked, ObjectLockEnabledForBucket: true }));
    for (const Key of ['held.txt', 'free.txt'])
      await t.connection.client.send(new PutObjectCommand({ Bucket: locked, Key, Body: Key }));
    await t.connection.client.send(
      new PutObjectLegalHoldCommand({ Bucket: locked, Key: 'held.txt', LegalHold: { Status: 'ON' } }),
    );
    const job = t.engine.delete(t.connection, {
      bucket: locked,
      prefixes: [''],
      allVersions: true,
      abortUploads: true,
      deleteBucket: true,
    });
    const end = await job.finished();
    expect(end.state.status).toBe('failed');
    expect(end.itemErrors.map((e) => e.code)).toEqual(['ObjectLocked']);
    expect(await bucketExists(locked)).toBe(true);
    await t.connection.client.send(
      new PutObjectLegalHoldCommand({ Bucket: locked, Key: 'held.txt', LegalHold: { Status: 'OFF' } }),
    );
    // Written meanwhile: the retry lists the bucket again, and it goes too.
    await t.connection.client.send(new PutObjectCommand({ Bucket: locked, Key: 'late.txt', Body: 'late' }));
    expect(job.retry()).toBe(true);
    expect((await job.finished()).state.status).toBe('completed');
    expect(await bucketExists(locked)).toBe(false);
  });

  it('deletes a bucket only with all of it emptied', () => {
    expect(() =>
      t.engine.delete(t.connection, {
        bucket: t.bucket,
        prefixes: ['docs/'],
        allVersions: true,
        abortUploads: true,
        deleteBucket: true,
      }),
    ).toThrow(expect.objectContaining({ code: 'InvalidRequest' }));
    expect(() => t.engine.delete(t.connection, { bucket: t.bucket, prefixes: [''], deleteBucket: true })).toThrow(
      expect.objectContaining({ code: 'InvalidRequest' }),
    );
  });
});
