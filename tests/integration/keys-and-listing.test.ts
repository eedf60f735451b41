import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { CreateMultipartUploadCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { abortIncompleteUploads, createBucket, deleteBucket } from '../../main/engine/s3/s3-buckets.ts';
import {
  headObject,
  listAllObjects,
  listBuckets,
  listMultipartUploads,
  listObjectPages,
} from '../../main/engine/s3/s3-listing.ts';
import { randomFile, setUpEngine, sha256File, uniqueBucket } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 8 } });
});
afterEach(() => t.close());

describe('keys with awkward characters', () => {
  const names = [
    'with space.txt',
    'naïve-café-日本語.txt',
    'plus+sign.txt',
    'percent%20literal.txt',
    'equals=sign&amp.txt',
    "quote'and(paren).txt",
    'emoji-🚀.txt',
    'tilde~hash#.txt',
  ];

  it('upload, list, head and download every one intact', async () => {
    for (const [i, name] of names.entries()) await randomFile(t.dir, `odd/${name}`, 100 + i);
    const up = await t.engine
      .upload(t.connection, { sources: [path.join(t.dir, 'odd')], bucket: t.bucket, destination: '' })
      .finished();
    expect(up.state.status).toBe('completed');

    const listed: string[] = [];
    for await (const o of listAllObjects(t.connection, { bucket: t.bucket, prefix: 'odd/' })) listed.push(o.key);
    expect(listed.sort()).toEqual(names.map((n) => `odd/${n}`).sort());
    for (const [i, name] of names.entries())
      expect((await headObject(t.connection, t.bucket, `odd/${name}`)).size).toBe(100 + i);

    const out = path.join(t.dir, 'back');
    const down = await t.engine
      .download(t.connection, { bucket: t.bucket, prefixes: ['odd/'], targetFolder: out })
      .finished();
    expect(down.state.status).toBe('completed');
    for (const name of names)
      expect(await sha256File(path.join(out, 'odd', name))).toBe(await sha256File(path.join(t.dir, 'odd', name)));
  });
});

describe('listing', () => {
  it('browses one level with a delimiter, page by page', async () => {
    const keys = [
      'top.txt',
      'a/1.txt',
      'a/2.txt',
      'b/deep/3.txt',
      'c/',
      ...Array.from({ length: 25 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`),
    ];
    // A folder marker ("c/") is empty: some stores (versitygw) refuse one with data.
    for (const Key of keys)
      await t.connection.client.send(
        new PutObjectCommand({ Bucket: t.bucket, Key, Body: Key.endsWith('/') ? '' : 'x' }),
      );
    const pages = [];
    for await (const page of listObjectPages(t.connection, { bucket: t.bucket, delimiter: '/', pageSize: 10 }))
      pages.push(page);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.flatMap((p) => p.prefixes).sort()).toEqual(['a/', 'b/', 'c/']);
    expect(pages.flatMap((p) => p.objects.map((o) => o.key))).toHaveLength(26);
    const inA = [];
    for await (const page of listObjectPages(t.connection, { bucket: t.bucket, prefix: 'a/', delimiter: '/' }))
      inA.push(...page.objects.map((o) => o.key));
    expect(inA).toEqual(['a/1.txt', 'a/2.txt']);
  });

  it('lists buckets and gives object details', async () => {
    await t.connection.client.send(
      new PutObjectCommand({
        Bucket: t.bucket,
        Key: 'd.json',
        Body: '{}',
        ContentType: 'application/json',
        Metadata: { owner: 'ops' },
      }),
    );
    expect((await listBuckets(t.connection)).map((b) => b.name)).toContain(t.bucket);
    const details = await headObject(t.connection, t.bucket, 'd.json');
    expect(details).toMatchObject({
      key: 'd.json',
      size: 2,
      contentType: 'application/json',
      metadata: { owner: 'ops' },
    });
    expect(details.etag).toMatch(/^"[0-9a-f]{32}"$/);
  });
});

describe('presigned links', () => {
  it('lets anyone with the link GET the object, until it expires', async () => {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'shared/a b+c.txt', Body: 'hello' }));
    const url = await t.connection.wire.presignGet(t.bucket, 'shared/a b+c.txt', 60);
    expect(url).toMatch(/X-Amz-Expires=60&.*X-Amz-Signature=[0-9a-f]{64}$/);
    expect(url).not.toContain(inject('s3').secretAccessKey);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello');
    const tampered = await fetch(url.replace('X-Amz-Expires=60', 'X-Amz-Expires=600'));
    expect(tampered.status).toBe(403);
  });
});

describe('buckets and leftovers', () => {
  it('creates and deletes a bucket', async () => {
    const name = uniqueBucket();
    await createBucket(t.connection, name);
    expect((await listBuckets(t.connection)).map((b) => b.name)).toContain(name);
    await deleteBucket(t.connection, name);
    expect((await listBuckets(t.connection)).map((b) => b.name)).not.toContain(name);
  });

  it('refuses to delete a bucket that is not empty, saying what to do', async () => {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'x', Body: 'x' }));
    await expect(deleteBucket(t.connection, t.bucket)).rejects.toMatchObject({
      code: 'BucketNotEmpty',
      message: expect.stringContaining('rm --recursive'),
    });
  });

  it('lists and aborts incomplete multipart uploads', async () => {
    for (const Key of ['left/1.bin', 'left/2.bin', 'left2/keep.bin', 'other/3.bin'])
      await t.connection.client.send(new CreateMultipartUploadCommand({ Bucket: t.bucket, Key }));
    const dry = await abortIncompleteUploads(t.connection, t.bucket, 'left', true);
    expect(dry.aborted.map((u) => u.key).sort()).toEqual(['left/1.bin', 'left/2.bin']);
    const done = await abortIncompleteUploads(t.connection, t.bucket, 'left/');
    expect(done.aborted).toHaveLength(2);
    const remaining = [];
    for await (const u of listMultipartUploads(t.connection, t.bucket)) remaining.push(u.key);
    expect(remaining.sort()).toEqual(['left2/keep.bin', 'other/3.bin']);
  });
});
