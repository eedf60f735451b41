// du, cat, pipe, stat and presign through the real command line, on the test server (MinIO or versitygw).

import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli, startCli } from '../support/run-cli.ts';

const MIB = 1024 * 1024;

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine();
});
afterEach(() => t.close());

const put = (key: string, body: Buffer | string) =>
  t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: body }));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function incompleteUploads(): Promise<number> {
  let count = 0;
  for await (const _ of listMultipartUploads(t.connection, t.bucket)) count += 1;
  return count;
}

describe('barge du', () => {
  it('counts objects and bytes per storage class below a prefix, never beside it', async () => {
    await put('logs/a.txt', 'x'.repeat(100));
    await put('logs/deep/b.txt', 'y'.repeat(50));
    await put('logs2/c.txt', 'z'.repeat(7));
    const result = await runCli(['du', '--json', `s3://${t.bucket}/logs/`]);
    expect(result.code).toBe(0);
    const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({
      done: true,
      totals: { objects: 2, bytes: 150 },
      classes: [{ storageClass: 'STANDARD', objects: 2, bytes: 150 }],
    });
    const text = await runCli(['du', `s3://${t.bucket}/logs/`]);
    expect(text.stdout).toMatch(/^STANDARD\s+2 objects\s+150 B\ntotal\s+2 objects\s+150 B\n$/);
    // Named without its "/", the folder is still logs/: logs2/ and logs.txt beside it are not in it.
    await put('logs.txt', 'w');
    const bare = await runCli(['du', '--json', `s3://${t.bucket}/logs`]);
    expect(JSON.parse(bare.stdout.trim().split('\n').at(-1)!)).toMatchObject({ totals: { objects: 2, bytes: 150 } });
  });

  it('counts a prefix of more keys than one stretch, with running totals before the last', async () => {
    // 10 pages of 1,000 keys make one stretch: 10,001 keys take two.
    const keys = Array.from({ length: 10_001 }, (_, i) => `many/${String(i).padStart(5, '0')}`);
    for (let i = 0; i < keys.length; i += 200) await Promise.all(keys.slice(i, i + 200).map((key) => put(key, 'ab')));
    const result = await runCli(['du', '--json', `s3://${t.bucket}/many/`]);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.done, line.totals.objects])).toEqual([
      [false, 10_000],
      [true, 10_001],
    ]);
    expect(lines[1].totals.bytes).toBe(20_002);
  });

  it('with --versions, counts noncurrent versions and delete markers too', async () => {
    await t.connection.client.send(
      new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    await put('v/a.txt', 'one');
    await put('v/a.txt', 'second');
    await put('v/b.txt', 'bb');
    await t.connection.client.send(new DeleteObjectCommand({ Bucket: t.bucket, Key: 'v/b.txt' }));
    const current = JSON.parse((await runCli(['du', '--json', `s3://${t.bucket}/v/`])).stdout.trim());
    expect(current.totals).toMatchObject({ objects: 1, bytes: 6 });
    const all = await runCli(['du', '--json', '--versions', `s3://${t.bucket}/v/`]);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout.trim())).toMatchObject({
      done: true,
      deleteMarkers: 1,
      totals: { objects: 1, bytes: 6, noncurrentObjects: 2, noncurrentBytes: 5 },
    });
    const text = await runCli(['du', '--versions', `s3://${t.bucket}/v/`]);
    expect(text.stdout).toMatch(/^total +1 object +6 B +\+ +2 noncurrent versions +5 B$/m);
    expect(text.stdout).toContain('1 delete marker\n');
  });
});

describe('barge cat', () => {
  it('writes a multipart object to a pipe byte for byte, fetched as ranges of the part size', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cat-'));
    const data = randomBytes(17 * MIB + 123);
    await writeFile(path.join(dir, 'big.bin'), data);
    const up = await runCli(['cp', '--part-size', '5MiB', path.join(dir, 'big.bin'), `s3://${t.bucket}/big.bin`]);
    expect(up.code).toBe(0);
    const cat = startCli(['cat', '--part-size', '5MiB', `s3://${t.bucket}/big.bin`]);
    const result = await cat.done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = Buffer.concat(cat.stdoutBytes);
    expect(out.length).toBe(data.length);
    expect(sha256(out)).toBe(sha256(data));
  });

  it('writes an empty object as nothing, and refuses a folder', async () => {
    await put('empty', '');
    const cat = startCli(['cat', `s3://${t.bucket}/empty`]);
    expect((await cat.done).code).toBe(0);
    expect(Buffer.concat(cat.stdoutBytes).length).toBe(0);
    const folder = await runCli(['cat', `s3://${t.bucket}/dir/`]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain("cat takes one object's address, s3://bucket/key, not a bucket or a folder");
  });

  it('says a missing object by name', async () => {
    const result = await runCli(['cat', `s3://${t.bucket}/nope.txt`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Cannot read s3://${t.bucket}/nope.txt: The object does not exist.`);
  });
});

describe('barge pipe', () => {
  it('stores standard input larger than one part as a multipart upload, byte for byte', async () => {
    const data = randomBytes(11 * MIB + 7);
    const pipe = startCli(['pipe', '--json', '--part-size', '5MiB', `s3://${t.bucket}/piped.bin`]);
    pipe.child.stdin!.end(data);
    const result = await pipe.done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ key: 'piped.bin', size: data.length, parts: 3 });
    const stored = await t.connection.client.send(new GetObjectCommand({ Bucket: t.bucket, Key: 'piped.bin' }));
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha256(data));
    expect(await incompleteUploads()).toBe(0);
  });

  it('stores a short input as one PUT, with the upload options', async () => {
    const pipe = startCli([
      'pipe',
      '--content-type',
      'text/csv',
      '--metadata',
      'origin=pg_dump',
      `s3://${t.bucket}/small.csv`,
    ]);
    pipe.child.stdin!.end('a,b\n1,2\n');
    expect((await pipe.done).code).toBe(0);
    const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'small.csv' }));
    expect(head).toMatchObject({ ContentType: 'text/csv', ContentLength: 8, Metadata: { origin: 'pg_dump' } });
  });

  it('on Ctrl-C, aborts its multipart upload: no parts left, nothing stored', async () => {
    const pipe = startCli(['pipe', '--part-size', '5MiB', `s3://${t.bucket}/cut.bin`]);
    // Two parts' worth, and the input left open: the upload is under way and waits for more. What it
    // has not read when Ctrl-C ends it is refused (EPIPE): that is the point, not a failure.
    pipe.child.stdin!.on('error', () => undefined);
    pipe.child.stdin!.write(randomBytes(11 * MIB));
    while ((await incompleteUploads()) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    pipe.child.kill('SIGINT');
    const result = await pipe.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('no parts were left');
    expect(await incompleteUploads()).toBe(0);
    const head = await t.connection.client
      .send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'cut.bin' }))
      .catch((error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode);
    expect(head).toBe(404);
  });
});

describe('barge stat', () => {
  it('prints size, ETag, checksums, parts, class, headers, metadata and tags; what the store refuses is "not available"', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-stat-'));
    await writeFile(path.join(dir, 'doc.bin'), randomBytes(6 * MIB));
    const up = await runCli([
      'cp',
      '--part-size',
      '5MiB',
      '--cache-control',
      'max-age=60',
      '--metadata',
      'team=ops',
      '--tags',
      'project=barge',
      path.join(dir, 'doc.bin'),
      `s3://${t.bucket}/doc.bin`,
    ]);
    expect(up.code).toBe(0);
    const json = await runCli(['stat', '--json', `s3://${t.bucket}/doc.bin`]);
    expect(json.code).toBe(0);
    const found = JSON.parse(json.stdout);
    expect(found).toMatchObject({
      key: 'doc.bin',
      size: 6 * MIB,
      partsCount: 2,
      storageClass: 'STANDARD',
      cacheControl: 'max-age=60',
      metadata: { team: 'ops' },
      tags: { available: true, value: { project: 'barge' } },
    });
    expect(found.etag).toMatch(/-2"$/);
    // Retention is asked of a bucket without Object Lock: the store refuses, and that is said, not failed.
    expect(found.retention.available).toBe(false);
    const text = await runCli(['stat', `s3://${t.bucket}/doc.bin`]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Size: +6,291,456 bytes \(6\.00 MiB\)$/m);
    expect(text.stdout).toMatch(/^Parts: +2$/m);
    expect(text.stdout).toMatch(/^Tags: +project=barge$/m);
    // Said as what it is: the bucket has no Object Lock (MinIO and versitygw word it apart), nothing is locked.
    expect(text.stdout).toMatch(/^Retention: +not available \(ObjectLockNotConfigured: The bucket has no Object Lock/m);
    expect(text.stdout).toMatch(/^Legal hold: +not available \(ObjectLockNotConfigured: /m);
    expect(text.stdout).not.toContain('protected by object lock');
  });
});

describe('barge presign', () => {
  it('gives a link that fetches the object without credentials', async () => {
    const data = randomBytes(1000);
    await put('shared.bin', data);
    const result = await runCli(['presign', '--expires', '2h', `s3://${t.bucket}/shared.bin`]);
    expect(result.code).toBe(0);
    const url = result.stdout.trim();
    expect(url).toContain('X-Amz-Expires=7200');
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(sha256(Buffer.from(await fetched.arrayBuffer()))).toBe(sha256(data));
  });

  it.each([
    ['8d', '--expires 8d is longer than S3 allows: a presigned link works for 7 days (7d, 168h) at most.'],
    ['soon', '--expires takes a duration such as 90s, 30m, 12h or 7d, not "soon".'],
  ])('refuses --expires %s', async (expires, message) => {
    const result = await runCli(['presign', '--expires', expires, `s3://${t.bucket}/shared.bin`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
