// Copy and move by the store itself: one object, a multipart copy (a low threshold keeps it cheap),
// metadata, tags and content headers kept, the copy verified against the source's checksum, and a
// move that deletes its source only once its copy is there and verified.

import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { GetObjectCommand, GetObjectTaggingCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import { Journal } from '../../main/engine/journal/journal.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { replaceObjectDetails } from '../../main/engine/s3/object-copy.ts';
import { serverConfig, setUpEngine, uniqueBucket } from '../support/fixtures.ts';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import type { LegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import { runCli } from '../support/run-cli.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
let other: string;
beforeEach(async () => {
  t = await setUpEngine({ journal: await Journal.open(':memory:'), settings: { threads: 4, partSizeBytes: 5 * MIB } });
  other = uniqueBucket();
  await createBucket(t.connection, other);
});
afterEach(() => t.close());

async function put(key: string, body: Buffer, extra: Record<string, unknown> = {}): Promise<void> {
  await t.connection.client.send(
    new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: body, ChecksumAlgorithm: 'CRC32C', ...extra }),
  );
}

async function bytesOf(bucket: string, key: string): Promise<Buffer> {
  const got = await t.connection.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await got.Body!.transformToByteArray());
}

async function exists(bucket: string, key: string): Promise<boolean> {
  return t.connection.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    () => true,
    () => false,
  );
}

const journaled = { connectionRef: 'test' };

describe('server-side copy', () => {
  it('copies one object to another bucket with its metadata, tags and content headers, checked by its checksum', async () => {
    const body = randomBytes(100_000);
    await put('a/report.pdf', body, {
      Metadata: { owner: 'ops' },
      ContentType: 'application/pdf',
      CacheControl: 'max-age=60',
      ContentDisposition: 'attachment',
      Tagging: 'team=blue',
    });
    const end = await t.engine
      .copy(
        t.connection,
        { sourceBucket: t.bucket, keys: ['a/report.pdf'], bucket: other, destination: 'b/' },
        journaled,
      )
      .finished();
    expect(end.state).toEqual({ status: 'completed' });
    expect(end.progress.objectsDone).toBe(1);
    expect(end.progress.objectsSizeOnly ?? 0).toBe(0);
    expect((await bytesOf(other, 'b/report.pdf')).equals(body)).toBe(true);
    const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: other, Key: 'b/report.pdf' }));
    expect(head.Metadata).toEqual({ owner: 'ops' });
    expect(head.ContentType).toBe('application/pdf');
    expect(head.CacheControl).toBe('max-age=60');
    expect(head.ContentDisposition).toBe('attachment');
    const tags = await t.connection.client.send(new GetObjectTaggingCommand({ Bucket: other, Key: 'b/report.pdf' }));
    expect(tags.TagSet).toEqual([{ Key: 'team', Value: 'blue' }]);
    // MinIO's CopyObject answers with the ETag (the MD5 of the bytes) and no checksum: either proves the copy.
    const items = t.engine.details(end.id, 'all', 0, 10).items;
    expect(["matched the store's checksum", "matched the store's ETag"]).toContain(items[0]?.message);
  });

  it('copies an object above the threshold in parts, its tags and metadata kept, its parts CRCs combined to the source’s', async () => {
    const body = randomBytes(12 * MIB + 123);
    await put('big.bin', body, { Metadata: { kind: 'big' }, ContentType: 'application/x-big', Tagging: 'size=big' });
    const end = await t.engine
      .copy(t.connection, {
        sourceBucket: t.bucket,
        keys: ['big.bin'],
        bucket: other,
        destination: 'copy.bin',
        partCopyAboveBytes: 5 * MIB,
      })
      .finished();
    expect(end.state).toEqual({ status: 'completed' });
    expect((await bytesOf(other, 'copy.bin')).equals(body)).toBe(true);
    const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: other, Key: 'copy.bin' }));
    expect(head.ETag).toMatch(/-3"$/);
    expect(head.Metadata).toEqual({ kind: 'big' });
    expect(head.ContentType).toBe('application/x-big');
    const tags = await t.connection.client.send(new GetObjectTaggingCommand({ Bucket: other, Key: 'copy.bin' }));
    expect(tags.TagSet).toEqual([{ Key: 'size', Value: 'big' }]);
    // A store that gives each copied part's CRC has it combined and compared with the source's; MinIO
    // gives none, so the copy is checked for its size, and said to be.
    const said = t.engine.details(end.id, 'all', 0, 10).items[0]?.message;
    expect(said === 'size only' ? 1 : 0).toBe(end.progress.objectsSizeOnly ?? 0);
  });

  it('copies a prefix with -r semantics: into a folder with its name, or to a new name', async () => {
    await put('photos/1.jpg', randomBytes(10));
    await put('photos/2024/2.jpg', randomBytes(20));
    await put('photos2/not-me.jpg', randomBytes(5));
    const into = await t.engine
      .copy(t.connection, { sourceBucket: t.bucket, prefixes: ['photos'], bucket: other, destination: 'backup/' })
      .finished();
    expect(into.progress.objectsDone).toBe(2);
    expect(await exists(other, 'backup/photos/1.jpg')).toBe(true);
    expect(await exists(other, 'backup/photos/2024/2.jpg')).toBe(true);
    const renamed = await t.engine
      .copy(t.connection, { sourceBucket: t.bucket, prefixes: ['photos/'], bucket: t.bucket, destination: 'pictures' })
      .finished();
    expect(renamed.progress.objectsDone).toBe(2);
    expect(await exists(t.bucket, 'pictures/2024/2.jpg')).toBe(true);
  });

  it('moves: the source is deleted once its copy is verified, and a move onto itself is refused', async () => {
    const body = randomBytes(1000);
    await put('old/name.txt', body);
    const end = await t.engine
      .copy(
        t.connection,
        { sourceBucket: t.bucket, keys: ['old/name.txt'], bucket: t.bucket, destination: 'new/name.txt', move: true },
        journaled,
      )
      .finished();
    expect(end.state).toEqual({ status: 'completed' });
    expect(await exists(t.bucket, 'old/name.txt')).toBe(false);
    expect((await bytesOf(t.bucket, 'new/name.txt')).equals(body)).toBe(true);
    expect(() =>
      t.engine.copy(t.connection, {
        sourceBucket: t.bucket,
        keys: ['new/name.txt'],
        bucket: t.bucket,
        destination: 'new/',
        move: true,
      }),
    ).toThrow(/Cannot move s3:\/\/.*\/new\/name.txt onto itself/);
    expect(() =>
      t.engine.copy(t.connection, {
        sourceBucket: t.bucket,
        prefixes: ['new'],
        bucket: t.bucket,
        destination: 'new/deeper',
      }),
    ).toThrow(/into itself/);
  });

  it('keeps the source of a move whose copy is refused', async () => {
    await put('keep.txt', randomBytes(10));
    const end = await t.engine
      .copy(t.connection, {
        sourceBucket: t.bucket,
        keys: ['keep.txt'],
        bucket: 'no-such-bucket-' + other,
        destination: '',
        move: true,
      })
      .finished();
    expect(end.state.status).toBe('failed');
    expect(await exists(t.bucket, 'keep.txt')).toBe(true);
  });

  it('answers --if-exists skip and fail for an object already at the destination', async () => {
    await put('x.txt', randomBytes(10));
    await t.connection.client.send(new PutObjectCommand({ Bucket: other, Key: 'x.txt', Body: 'there' }));
    const skipped = await t.engine
      .copy(t.connection, { sourceBucket: t.bucket, keys: ['x.txt'], bucket: other, destination: '', ifExists: 'skip' })
      .finished();
    expect(skipped.progress.objectsKept).toBe(1);
    expect((await bytesOf(other, 'x.txt')).toString()).toBe('there');
    const failed = await t.engine
      .copy(t.connection, { sourceBucket: t.bucket, keys: ['x.txt'], bucket: other, destination: '', ifExists: 'fail' })
      .finished();
    expect(failed.progress.objectsFailed).toBe(1);
  });

  it('moves onto an object already there only when a retry of the failed item answers replace', async () => {
    await put('m.txt', Buffer.from('moved'));
    await t.connection.client.send(new PutObjectCommand({ Bucket: other, Key: 'm.txt', Body: 'there' }));
    const spec = { sourceBucket: t.bucket, keys: ['m.txt'], bucket: other, destination: '', move: true };
    const job = t.engine.copy(t.connection, { ...spec, ifExists: 'fail' });
    expect((await job.finished()).progress.objectsFailed).toBe(1);
    expect((await bytesOf(other, 'm.txt')).toString()).toBe('there');
    expect(await exists(t.bucket, 'm.txt')).toBe(true);
    t.engine.retryFailed(job.id, 'overwrite');
    expect((await job.finished()).state.status).toBe('completed');
    expect((await bytesOf(other, 'm.txt')).toString()).toBe('moved');
    expect(await exists(t.bucket, 'm.txt')).toBe(false);
  });
});

describe('an object given new details by a copy onto itself', () => {
  it('replaces the metadata and tags asked for, keeps the content headers and the bytes', async () => {
    const body = randomBytes(2000);
    await put('doc.txt', body, { Metadata: { a: '1' }, ContentType: 'text/plain', Tagging: 'old=yes' });
    const requests = {
      request: <T>(send: (signal: AbortSignal) => Promise<T>) => send(new AbortController().signal),
      partsInFlight: () => 2,
      partSizeBytes: 5 * MIB,
    };
    const done = await replaceObjectDetails(
      t.connection,
      { bucket: t.bucket, key: 'doc.txt' },
      { metadata: { b: '2' }, tags: { new: 'yes' } },
      requests,
    );
    expect(done.verification).not.toBe('size-only');
    const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'doc.txt' }));
    expect(head.Metadata).toEqual({ b: '2' });
    expect(head.ContentType).toBe('text/plain');
    const tags = await t.connection.client.send(new GetObjectTaggingCommand({ Bucket: t.bucket, Key: 'doc.txt' }));
    expect(tags.TagSet).toEqual([{ Key: 'new', Value: 'yes' }]);
    expect((await bytesOf(t.bucket, 'doc.txt')).equals(body)).toBe(true);
  });
});

describe('copies through a store that refuses the flexible-checksum headers', () => {
  let proxy: LegacyStoreProxy;
  beforeEach(async () => {
    const s3 = inject('s3');
    proxy = await startLegacyStoreProxy(
      s3.endpoint,
      { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      s3.region,
    );
    proxy.refuseChecksumHeaders = 'NotImplemented';
  });
  afterEach(() => proxy.close());

  it('copies whole and in parts, and moves, with no checksum header sent once refused', async () => {
    const small = randomBytes(3000);
    const big = randomBytes(11 * MIB);
    await put('s.bin', small);
    await put('b.bin', big);
    const legacy = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    const end = await t.engine
      .copy(legacy, {
        sourceBucket: t.bucket,
        keys: ['s.bin', 'b.bin'],
        bucket: other,
        destination: 'through/',
        move: true,
        partCopyAboveBytes: 5 * MIB,
      })
      .finished();
    expect(end.state).toEqual({ status: 'completed' });
    expect((await bytesOf(other, 'through/s.bin')).equals(small)).toBe(true);
    expect((await bytesOf(other, 'through/b.bin')).equals(big)).toBe(true);
    expect(await exists(t.bucket, 's.bin')).toBe(false);
    expect(await exists(t.bucket, 'b.bin')).toBe(false);
  });
});

describe('barge cp and mv between s3:// addresses', () => {
  it('copies, moves with -r, and refuses a move onto itself with the rule', async () => {
    const body = randomBytes(4000);
    await put('cli/a.txt', body);
    await put('cli/sub/b.txt', randomBytes(10));
    const copied = await runCli(['cp', `s3://${t.bucket}/cli/a.txt`, `s3://${other}/copied.txt`]);
    expect(copied.code).toBe(0);
    expect((await bytesOf(other, 'copied.txt')).equals(body)).toBe(true);
    const moved = await runCli(['mv', '-r', `s3://${t.bucket}/cli`, `s3://${other}/moved/`]);
    expect(moved.code).toBe(0);
    expect(copied.stderr).toMatch(/^Copied 1 of 1 object/m);
    expect(moved.stderr).toMatch(/^Moved 2 of 2 objects/m);
    expect(await exists(other, 'moved/cli/sub/b.txt')).toBe(true);
    expect(await exists(t.bucket, 'cli/a.txt')).toBe(false);
    const self = await runCli(['mv', `s3://${other}/copied.txt`, `s3://${other}/`]);
    expect(self.code).toBe(2);
    expect(self.stderr).toContain(
      `Cannot move s3://${other}/copied.txt onto itself: the source and the destination are the same object. Give another destination.`,
    );
    const prefix = await runCli(['cp', `s3://${other}/moved/`, `s3://${t.bucket}/`]);
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toContain('is a prefix: add --recursive to copy everything below it');
  });
});
