// Stores that refuse S3's flexible-checksum headers: the test server behind legacy-store-proxy.ts
// answers any request carrying x-amz-checksum-*, x-amz-sdk-checksum-* or x-amz-trailer with 501
// NotImplemented (naming no header), or with 400 InvalidArgument naming it, and refuses a
// DeleteObjects without Content-MD5. Uploads of every shape, deletes, Empty and delete, the command
// line and the web host's staged uploads must work there: the refusal is learnt once per connection,
// the refused request is sent again with Content-MD5 (or a signed SHA-256) and nothing else, and so
// is every request after it, queued ones included. A 501 for another reason stays an error.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { HeadBucketCommand, HeadObjectCommand, PutBucketVersioningCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import type { ConnectionConfig } from '../../src/connection.ts';
import type { MethodName, MethodParams, MethodResults } from '../../src/contract/api.ts';
import { Engine } from '../../main/engine/engine.ts';
import { Journal } from '../../main/engine/journal/journal.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { StagingArea } from '../../main/service/staging-area.ts';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import type { LegacyStoreProxy, SeenRequest } from '../support/legacy-store-proxy.ts';
import { randomFile, serverConfig, sha256File, uniqueBucket } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

const PART = 5 * MIB;
const THREADS = 4;
const journaled = { connectionRef: 'test' };

let journal: Journal;
let engine: Engine;
let direct: S3Connection;
let proxy: LegacyStoreProxy;
let bucket: string;
let dir: string;

beforeEach(async () => {
  journal = await Journal.open(':memory:');
  engine = new Engine({ journal, settings: { threads: THREADS, partSizeBytes: PART, maxAttempts: 2 } });
  direct = await engine.connect(serverConfig());
  const s3 = inject('s3');
  proxy = await startLegacyStoreProxy(
    s3.endpoint,
    { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    s3.region,
  );
  // The store behind it as it is (it checks and echoes CRCs, where they reach it), refusing as told.
  proxy.legacy = false;
  proxy.deleteNeedsContentMd5 = true;
  bucket = uniqueBucket();
  await createBucket(direct, bucket);
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-refusing-'));
});
afterEach(async () => {
  await engine.close();
  await proxy.close();
  await rm(dir, { recursive: true, force: true });
});

/** A new connection through the proxy, as a new run of barge has: it knows nothing of the store yet. */
const refusing = (config: Partial<ConnectionConfig> = {}) =>
  engine.connect({ ...serverConfig(), endpoint: proxy.endpoint, ...config });

/** The environment of a host or a command line whose connection goes through the proxy. */
function proxiedEnv(): NodeJS.ProcessEnv {
  const s3 = inject('s3');
  return {
    AWS_ENDPOINT_URL: proxy.endpoint,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_REGION: s3.region,
  };
}

async function downloadDirect(key: string): Promise<string> {
  const out = path.join(dir, `direct-${key.replaceAll('/', '_')}`);
  const end = await engine.download(direct, { bucket, keys: [key], targetFolder: dir, targetFile: out }).finished();
  expect(end.state.status).toBe('completed');
  return sha256File(out);
}

async function exists(key: string): Promise<boolean> {
  return direct.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    () => true,
    () => false,
  );
}

async function bucketExists(name: string): Promise<boolean> {
  return direct.client.send(new HeadBucketCommand({ Bucket: name })).then(
    () => true,
    () => false,
  );
}

async function noIncompleteUploads(): Promise<void> {
  for await (const upload of listMultipartUploads(direct, bucket))
    throw new Error(`incomplete upload left: ${upload.key}`);
}

/** How AWS words a 501 for a header it does not implement (naming the header, where it does). */
const notImplemented = (header?: string) => ({
  status: 501,
  code: 'NotImplemented',
  message: 'A header you provided implies functionality that is not implemented',
  header,
});

/** Requests that reached the store (the proxy refused none of them). */
const reached = (): SeenRequest[] => proxy.seen.filter((request) => request.refused === undefined);
const refusedRequests = (): SeenRequest[] => proxy.seen.filter((request) => request.refused !== undefined);
const isDeleteObjects = (request: SeenRequest) => request.method === 'POST' && /[?&]delete(=|&|$)/.test(request.url);

/**
 * What every test of a refusing store holds: only the requests in flight when the refusal came were
 * refused (at most one per thread: each had its headers before the refusal was learnt), no request
 * that reached the store carried a checksum header, and every body that did carried Content-MD5 or
 * a signed SHA-256.
 */
function expectLearntOnce(threads = THREADS): void {
  const refused = refusedRequests();
  expect(refused.length).toBeGreaterThanOrEqual(1);
  expect(refused.length).toBeLessThanOrEqual(threads);
  expect(reached().filter((request) => request.checksumHeaders.length > 0 || request.chunked)).toEqual([]);
  const bodies = reached().filter((request) => request.method === 'PUT' || isDeleteObjects(request));
  expect(bodies.filter((request) => !request.contentMd5 && !request.sha256Signed)).toEqual([]);
}

describe.each([
  ['501 NotImplemented', 'NotImplemented'],
  ['400 InvalidArgument naming the header', 'InvalidArgument'],
] as const)('a store that answers the checksum headers with %s', (_name, refusal) => {
  beforeEach(() => {
    proxy.refuseChecksumHeaders = refusal;
  });

  it.each(['when_required', 'when_supported'] as const)(
    'uploads of every shape land intact, checked by Content-MD5 or a signed SHA-256 (--checksum %s)',
    async (checksumMode) => {
      const small = await randomFile(dir, 'up/small.bin', 2000);
      const medium = await randomFile(dir, 'up/medium.bin', 3 * MIB);
      const big = await randomFile(dir, 'up/big.bin', 3 * PART + 7);
      const connection = await refusing({ checksumMode });
      const job = engine.upload(connection, { sources: [path.join(dir, 'up')], bucket, destination: '' }, journaled);
      const end = await job.finished();
      expect(end.itemErrors).toEqual([]);
      expect(end.state.status).toBe('completed');
      expect(connection.checksumHeaders).toBe('refused');
      expectLearntOnce();
      for (const [key, source] of [
        ['up/small.bin', small],
        ['up/medium.bin', medium],
        ['up/big.bin', big],
      ] as const)
        expect(await downloadDirect(key)).toBe(source.sha256);
      const lines = new Map([...engine.receipt(job.id)].map((line) => [line.key, line]));
      expect(lines.get('up/small.bin')!.verified).toBe('signed-sha256');
      expect(lines.get('up/medium.bin')).toMatchObject({
        verified: 'content-md5',
        checksum: expect.stringMatching(/^MD5:/),
      });
      expect(lines.get('up/big.bin')).toMatchObject({ verified: 'content-md5' });
      await noIncompleteUploads();
    },
  );

  it.each([
    ['a 1 KiB file (one PUT, SHA-256 signed)', 1024],
    ['a 3 MiB file (one streamed PUT)', 3 * MIB],
    ['a 12 MiB file (multipart, 5 MiB parts)', 12 * MIB + 5],
  ])('%s damaged on the way after the refusal is refused by the store, and nothing is stored', async (_name, size) => {
    const source = await randomFile(dir, 'damaged.bin', size);
    proxy.flipRequests = 5;
    const end = await engine
      .upload(await refusing(), { sources: [source.path], bucket, destination: 'damaged.bin' })
      .finished();
    expect(end.state.status).toBe('failed');
    expect(end.itemErrors[0]).toMatchObject({ code: 'BadDigest' });
    expect(await exists('damaged.bin')).toBe(false);
    await noIncompleteUploads();
  });

  it('a multipart upload of many parts (where checksums after the body would be used) goes with Content-MD5 on every part', async () => {
    const big = await randomFile(dir, 'many-parts.bin', 8 * PART + 3);
    const connection = await refusing();
    const job = engine.upload(connection, { sources: [big.path], bucket, destination: 'many-parts.bin' }, journaled);
    const end = await job.finished();
    expect(end.itemErrors).toEqual([]);
    expect(connection.trailers).toBe('unknown');
    expectLearntOnce();
    const parts = reached().filter((request) => request.method === 'PUT' && request.url.includes('partNumber='));
    expect(parts).toHaveLength(9);
    expect(parts.every((part) => part.contentMd5)).toBe(true);
    expect(await downloadDirect('many-parts.bin')).toBe(big.sha256);
    expect([...engine.receipt(job.id)][0]!.verified).toBe('content-md5');
    await noIncompleteUploads();
  });

  it('a set of many files: the requests queued when the refusal is learnt go without the headers', async () => {
    const sources = [];
    for (let i = 0; i < 24; i++)
      sources.push(await randomFile(dir, `set/f${String(i).padStart(2, '0')}.bin`, i % 3 === 0 ? 1.5 * MIB : 3000 + i));
    const connection = await refusing();
    const end = await engine
      .upload(connection, { sources: [path.join(dir, 'set')], bucket, destination: '' })
      .finished();
    expect(end.itemErrors).toEqual([]);
    expect(end.progress.objectsDone).toBe(24);
    expectLearntOnce();
    expect(reached().filter((request) => request.method === 'PUT')).toHaveLength(24);
    for (const [i, source] of sources.entries())
      expect(await downloadDirect(`set/f${String(i).padStart(2, '0')}.bin`)).toBe(source.sha256);
  });

  it("the engine's deletes: named keys, a prefix, every version; DeleteObjects carries Content-MD5", async () => {
    await direct.client.send(
      new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    for (const Key of ['a.txt', 'a.txt', 'docs/b.txt', 'docs/c.txt', 'keep.txt'])
      await direct.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: Key }));
    const connection = await refusing();
    const named = await engine.delete(connection, { bucket, keys: ['keep.txt'] }).finished();
    expect(named.state.status).toBe('completed');
    const prefix = await engine.delete(connection, { bucket, prefixes: ['docs/'] }).finished();
    expect(prefix.state.status).toBe('completed');
    const versions = await engine.delete(connection, { bucket, keys: ['a.txt'], allVersions: true }).finished();
    expect(versions).toMatchObject({ state: { status: 'completed' }, progress: { objectsDone: 2 } });
    for (const key of ['a.txt', 'docs/b.txt', 'docs/c.txt', 'keep.txt']) expect(await exists(key)).toBe(false);
    const deletes = proxy.seen.filter(isDeleteObjects);
    expect(deletes).toHaveLength(3);
    expect(
      deletes.every(
        (request) => request.contentMd5 && request.checksumHeaders.length === 0 && request.refused === undefined,
      ),
    ).toBe(true);
  });

  it('the command line: cp, cp -r, rm, rm -r and rb', async () => {
    const env = proxiedEnv();
    const one = await randomFile(dir, 'cli/one.bin', 3 * MIB);
    const tree = [
      await randomFile(dir, 'cli/tree/a.txt', 100),
      await randomFile(dir, 'cli/tree/sub/b.bin', 2 * PART + 1),
    ];
    const receipt = path.join(dir, 'receipt.csv');
    const copied = await runCli(['cp', one.path, `s3://${bucket}/one.bin`, '--receipt', receipt], { env });
    expect(copied.stderr).not.toMatch(/error|warning/i);
    expect(copied.code).toBe(0);
    expect(await readFile(receipt, 'utf8')).toContain('Content-MD5 verified by the store');
    const recursive = await runCli(['cp', '-r', path.join(dir, 'cli', 'tree'), `s3://${bucket}/`], { env });
    expect(recursive.stderr).not.toMatch(/error|warning/i);
    expect(recursive.code).toBe(0);
    expect(await downloadDirect('one.bin')).toBe(one.sha256);
    expect(await downloadDirect('tree/a.txt')).toBe(tree[0]!.sha256);
    expect(await downloadDirect('tree/sub/b.bin')).toBe(tree[1]!.sha256);
    const removed = await runCli(['rm', `s3://${bucket}/one.bin`], { env });
    expect(removed.stderr).not.toMatch(/error|warning/i);
    expect(removed.code).toBe(0);
    const removedTree = await runCli(['rm', '-r', `s3://${bucket}/tree/`], { env });
    expect(removedTree.stderr).not.toMatch(/error|warning/i);
    expect(removedTree.code).toBe(0);
    const bucketRemoved = await runCli(['rb', `s3://${bucket}`], { env });
    expect(bucketRemoved.stderr).not.toMatch(/error|warning/i);
    expect(bucketRemoved.code).toBe(0);
    expect(await bucketExists(bucket)).toBe(false);
    // Each run learns it once: refused requests are the ones in flight before it knew.
    expect(reached().filter((request) => request.checksumHeaders.length > 0)).toEqual([]);
    expect(
      proxy.seen.filter(isDeleteObjects).every((request) => request.contentMd5 && request.refused === undefined),
    ).toBe(true);
  });

  describe('through the service, as the window and the web host call it', () => {
    async function webService() {
      const folder = await mkdtemp(path.join(dir, 'service-'));
      const env = proxiedEnv();
      const hostEngine = new Engine({
        env,
        journal: await Journal.open(':memory:'),
        settings: { threads: THREADS, partSizeBytes: PART },
      });
      const registry = new ConnectionRegistry({
        dataDir: folder,
        engine: hostEngine,
        secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
        env,
      });
      const staging = await StagingArea.open({ root: path.join(folder, 'staging') });
      const service = createBargeService({
        engine: hostEngine,
        registry,
        host: 'web',
        staging,
        pageCallers: true,
        restoreJobs: false,
      });
      const call = async <M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> => {
        const result = await service.dispatch(method, params);
        if (!result.ok) throw new Error(result.error.message);
        return result.value as MethodResults[M];
      };
      return { service, hostEngine, call };
    }

    it("a browser's staged upload, then the window's delete, then Empty and delete", async () => {
      const { service, hostEngine, call } = await webService();
      try {
        const { stagingId } = await call('uploads.stage', {});
        const contents = new Map<string, Buffer>();
        for (const [name, size] of [
          ['photos/a.jpg', 1500],
          ['photos/b.raw', 3 * MIB],
          ['video.bin', 2 * PART + 11],
        ] as const) {
          const target = await service.stagedFile(stagingId, name);
          if (!target.ok) throw new Error(target.error.message);
          const bytes = Buffer.alloc(size, name.length);
          for (let i = 0; i < size; i += 997) bytes[i] = i & 0xff;
          await writeFile(target.value.file, bytes);
          contents.set(name, bytes);
        }
        const upload = await call('jobs.upload', {
          connectionId: 'env',
          bucket,
          prefix: 'web/',
          staged: { stagingId, entries: ['photos', 'video.bin'] },
        });
        const uploaded = await hostEngine.job(upload.id)!.finished();
        expect(uploaded.itemErrors).toEqual([]);
        expect(uploaded.state.status).toBe('completed');
        // (A staged upload is not journaled, so it has no receipt: the proxy's record says how each body was checked.)
        for (const [name, bytes] of contents) {
          const out = path.join(dir, `check-${name.replaceAll('/', '_')}`);
          expect(
            (
              await engine
                .download(direct, { bucket, keys: [`web/${name}`], targetFolder: dir, targetFile: out })
                .finished()
            ).state.status,
          ).toBe('completed');
          expect((await readFile(out)).equals(bytes)).toBe(true);
        }
        expectLearntOnce();

        const deleted = await call('jobs.delete', {
          connectionId: 'env',
          bucket,
          keys: ['web/video.bin'],
          prefixes: ['web/photos/'],
        });
        expect((await hostEngine.job(deleted.id)!.finished()).state.status).toBe('completed');
        for (const name of contents.keys()) expect(await exists(`web/${name}`)).toBe(false);

        await direct.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'left.txt', Body: 'left' }));
        const emptied = await call('buckets.emptyAndDelete', { connectionId: 'env', name: bucket });
        expect((await hostEngine.job(emptied.id)!.finished()).state.status).toBe('completed');
        expect(await bucketExists(bucket)).toBe(false);
        expect(
          proxy.seen.filter(isDeleteObjects).every((request) => request.contentMd5 && request.refused === undefined),
        ).toBe(true);
      } finally {
        await service.close();
      }
    });
  });
});

describe('a store that took the checksum headers, then refuses them (a fleet upgraded midway)', () => {
  it('a multipart upload created with a CRC before the refusal is started again without one, and completes intact', async () => {
    const first = await randomFile(dir, 'first.bin', 2 * PART);
    const big = await randomFile(dir, 'big.bin', 6 * PART + 1);
    const connection = await refusing();
    // The store echoes CRCs: the connection learns so, and parts go with their CRC after the body.
    expect(
      (await engine.upload(connection, { sources: [first.path], bucket, destination: 'first.bin' }).finished()).state
        .status,
    ).toBe('completed');
    expect(connection.crcEcho).toBe('echoes');
    // Refused from the third part on: the upload was created with CRC32C, which the store now wants on every part.
    let parts = 0;
    proxy.refuse = (request) => {
      if (!request.url.includes('partNumber=') || ++parts < 3 || request.checksumHeaders.length === 0) return undefined;
      return notImplemented();
    };
    const job = engine.upload(connection, { sources: [big.path], bucket, destination: 'big.bin' }, journaled);
    const end = await job.finished();
    expect(end.itemErrors).toEqual([]);
    expect(end.state.status).toBe('completed');
    expect(connection.checksumHeaders).toBe('refused');
    expect(await downloadDirect('big.bin')).toBe(big.sha256);
    expect([...engine.receipt(job.id)][0]!.verified).toBe('content-md5');
    await noIncompleteUploads();
  });

  it('an upload whose parts all went with their CRC completes with their checksums, after another request learnt the refusal', async () => {
    const big = await randomFile(dir, 'whole.bin', 3 * PART);
    const small = await randomFile(dir, 'small.bin', 1.5 * MIB);
    const connection = await refusing();
    // The last part is held at the store's door until another upload on the connection has been
    // refused (a request without a part number carrying a checksum header) and has finished.
    let other: Promise<unknown> | undefined;
    proxy.refuse = (request) => {
      if (request.method !== 'PUT') return undefined;
      if (!request.url.includes('partNumber='))
        return request.checksumHeaders.length > 0 ? notImplemented() : undefined;
      if (!request.url.includes('partNumber=3')) return undefined;
      other ??= engine.upload(connection, { sources: [small.path], bucket, destination: 'small.bin' }).finished();
      return other.then(() => undefined);
    };
    const job = engine.upload(connection, { sources: [big.path], bucket, destination: 'whole.bin' }, journaled);
    const end = await job.finished();
    expect(end.itemErrors).toEqual([]);
    expect(await other).toMatchObject({ state: { status: 'completed' } });
    expect(connection.checksumHeaders).toBe('refused');
    const parts = proxy.seen.filter((request) => request.url.includes('partNumber='));
    expect(parts.map((part) => part.checksumHeaders.length > 0 && part.refused === undefined)).toEqual([
      true,
      true,
      true,
    ]);
    // Created with CRC32C, its parts checked by their CRCs: the store's composite checksum is the check of the whole.
    expect([...engine.receipt(job.id)][0]).toMatchObject({
      verified: 'store-checksum',
      checksum: expect.stringMatching(/^CRC32C:.*-3$/),
    });
    expect(await downloadDirect('whole.bin')).toBe(big.sha256);
    expect(await downloadDirect('small.bin')).toBe(small.sha256);
    await noIncompleteUploads();
  });
});

describe('DeleteObjects always carries Content-MD5 and no flexible checksum', () => {
  it.each([
    ['the default settings', {}],
    ['--checksum when_supported', { checksumMode: 'when_supported' }],
    ['--checksum when_required --upload-checksum md5', { checksumMode: 'when_required', uploadChecksum: 'MD5' }],
  ] as const)('with %s', async (_name, config) => {
    for (const Key of ['x/1', 'x/2'])
      await direct.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: Key }));
    const end = await engine.delete(await refusing(config), { bucket, prefixes: ['x/'] }).finished();
    expect(end.state.status).toBe('completed');
    const deletes = proxy.seen.filter(isDeleteObjects);
    expect(deletes).toHaveLength(1);
    expect(deletes[0]).toMatchObject({ contentMd5: true, checksumHeaders: [], status: 200 });
  });
});

describe('no blind retry: a 501 for another reason stays an error, in words', () => {
  it('a 501 to a request without checksum headers is not sent again and fails, saying what the store lacks', async () => {
    const source = await randomFile(dir, 'plain.bin', 3 * MIB);
    proxy.refuse = (request) => (request.method === 'PUT' ? notImplemented() : undefined);
    const connection = await refusing({ uploadChecksum: 'MD5' });
    const end = await engine
      .upload(connection, { sources: [source.path], bucket, destination: 'plain.bin' })
      .finished();
    expect(end.state.status).toBe('failed');
    expect(end.itemErrors[0]!.code).toBe('NotImplemented');
    expect(end.itemErrors[0]!.message).toMatch(
      /^Cannot upload .*plain\.bin to s3:\/\/.*\/plain\.bin: The store does not support something this request needs \(it answered 501 NotImplemented: "A header you provided implies functionality that is not implemented"\)\. /,
    );
    expect(proxy.seen.filter((request) => request.method === 'PUT')).toHaveLength(1);
    expect(connection.checksumHeaders).toBe('unknown');
    expect(await exists('plain.bin')).toBe(false);
  });

  it('a 501 naming another header is not read as a refusal of checksums: not sent again without them', async () => {
    const source = await randomFile(dir, 'tagged.bin', 3 * MIB);
    proxy.refuse = (request) => (request.method === 'PUT' ? notImplemented('Transfer-Encoding') : undefined);
    const connection = await refusing();
    const end = await engine
      .upload(connection, { sources: [source.path], bucket, destination: 'tagged.bin' })
      .finished();
    expect(end.state.status).toBe('failed');
    expect(end.itemErrors[0]!.code).toBe('NotImplemented');
    expect(end.itemErrors[0]!.message).toContain('the Transfer-Encoding header');
    const puts = proxy.seen.filter((request) => request.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.checksumHeaders).toEqual(['x-amz-checksum-crc32c']);
    expect(connection.checksumHeaders).toBe('unknown');
  });

  it('a 400 InvalidArgument that names no checksum header stays the error it is', async () => {
    const source = await randomFile(dir, 'odd.bin', 2000);
    proxy.refuse = (request) =>
      request.method === 'PUT'
        ? {
            status: 400,
            code: 'InvalidArgument',
            message: 'Invalid storage class.',
            argumentName: 'x-amz-storage-class',
          }
        : undefined;
    const connection = await refusing();
    const end = await engine.upload(connection, { sources: [source.path], bucket, destination: 'odd.bin' }).finished();
    expect(end.itemErrors[0]).toMatchObject({
      code: 'InvalidArgument',
      message: expect.stringContaining('Invalid storage class (HTTP 400).'),
    });
    expect(proxy.seen.filter((request) => request.method === 'PUT')).toHaveLength(1);
    expect(connection.checksumHeaders).toBe('unknown');
  });
});
