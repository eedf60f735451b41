// End-to-end integrity: uploads carry a checksum per request and the store's answer is checked;
// downloads are verified against the object's checksum (whole or composite) or its ETag; bytes
// damaged on the way fail loudly (or are sent again) and nothing lands under a final name.

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import { Engine } from '../../main/engine/engine.ts';
import { Journal } from '../../main/engine/journal/journal.ts';
import { listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { randomFile, serverConfig, sha256File, uniqueBucket } from '../support/fixtures.ts';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';

const PART = 5 * MIB;

let engine: Engine;
let journal: Journal;
let proxy: FaultProxy;
let direct: S3Connection;
let bucket: string;
let dir: string;

beforeEach(async () => {
  journal = await Journal.open(':memory:');
  engine = new Engine({ journal, settings: { threads: 4, partSizeBytes: PART, maxAttempts: 3 } });
  direct = await engine.connect(serverConfig());
  proxy = await startFaultProxy(serverConfig().endpoint!);
  bucket = uniqueBucket();
  await createBucket(direct, bucket);
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-integrity-'));
});
afterEach(async () => {
  await proxy.close();
  await engine.close();
});

const viaProxy = () => engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
const journaled = { connectionRef: 'test' };

async function receiptOf(jobId: string) {
  return [...engine.receipt(jobId)];
}

async function head(key: string) {
  return direct.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: 'ENABLED' }));
}

async function noIncompleteUploads(): Promise<void> {
  for await (const upload of listMultipartUploads(direct, bucket))
    throw new Error(`incomplete upload left: ${upload.key}`);
}

describe('uploads carry checksums the store checks', () => {
  it('a small file is stored with the CRC32C it was sent with, and the receipt says so', async () => {
    const source = await randomFile(dir, 'small.bin', 100_000);
    const job = engine.upload(direct, { sources: [source.path], bucket, destination: 'small.bin' }, journaled);
    expect((await job.finished()).state.status).toBe('completed');
    const stored = await head('small.bin');
    expect(stored.ChecksumCRC32C).toBeTruthy();
    const [line] = await receiptOf(job.id);
    expect(line).toMatchObject({
      key: 'small.bin',
      path: source.path,
      size: 100_000,
      checksum: `CRC32C:${stored.ChecksumCRC32C}`,
    });
    // The store echoed the CRC: it checks them, and later requests carry the CRC alone.
    expect(direct.crcEcho).toBe('echoes');
    expect(line!.verified).toBe('store-checksum');
  });

  it('a multipart upload carries a CRC32C per part; the composite the store reports matches the parts', async () => {
    const source = await randomFile(dir, 'big.bin', 3 * PART + 12_345);
    const job = engine.upload(direct, { sources: [source.path], bucket, destination: 'big.bin' }, journaled);
    expect((await job.finished()).state.status).toBe('completed');
    const stored = await head('big.bin');
    const [line] = await receiptOf(job.id);
    expect(line!.checksum).toMatch(/^CRC32C:[A-Za-z0-9+/]+=*-4$/);
    expect(line!.checksum).toBe(`CRC32C:${stored.ChecksumCRC32C}`);
    expect(line!.etag).toBe(stored.ETag);
  });

  it("in a versioned bucket, the receipt keeps each object's version ID, for single and multipart uploads and for downloads", async () => {
    await direct.client.send(
      new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    await randomFile(dir, 'v/a.bin', 1000);
    await randomFile(dir, 'v/b.bin', 2 * PART + 1);
    const up = engine.upload(direct, { sources: [path.join(dir, 'v')], bucket, destination: '' }, journaled);
    expect((await up.finished()).state.status).toBe('completed');
    const lines = await receiptOf(up.id);
    expect(lines.map((line) => line.key)).toEqual(['v/a.bin', 'v/b.bin']);
    for (const line of lines) {
      const stored = await head(line.key);
      expect(stored.VersionId).toBeTruthy();
      expect(line).toMatchObject({ versionId: stored.VersionId, etag: stored.ETag });
    }
    const down = engine.download(
      direct,
      { bucket, prefixes: ['v/'], targetFolder: path.join(dir, 'restore') },
      journaled,
    );
    expect((await down.finished()).state.status).toBe('completed');
    expect((await receiptOf(down.id)).map((line) => line.versionId)).toEqual(lines.map((line) => line.versionId));
  });

  it('bytes damaged on the way to the store are refused by it and sent again', async () => {
    const source = await randomFile(dir, 'damaged.bin', 2 * PART);
    let damaged = 0;
    proxy.setRule((request) => {
      if (request.method === 'PUT' && request.url?.includes('partNumber=2') && damaged === 0) {
        damaged += 1;
        return { kind: 'corrupt-request', atByte: 1000 };
      }
      return undefined;
    });
    const connection = await viaProxy();
    const job = engine.upload(connection, { sources: [source.path], bucket, destination: 'damaged.bin' });
    const end = await job.finished();
    expect(end.state.status).toBe('completed');
    expect(damaged).toBe(1);
    expect(job.retryCount).toBeGreaterThanOrEqual(1);
    const out = path.join(dir, 'check.bin');
    expect(
      (await engine.download(direct, { bucket, keys: ['damaged.bin'], targetFolder: dir, targetFile: out }).finished())
        .state.status,
    ).toBe('completed');
    expect(await sha256File(out)).toBe(source.sha256);
    await noIncompleteUploads();
  });

  it('once the store has echoed a CRC, parts carry theirs after the body (read once); one damaged on the way is refused by the store and sent again', async () => {
    const source = await randomFile(dir, 'trailing.bin', 4 * PART);
    const trailing: string[] = [];
    let damaged = 0;
    proxy.setRule((request) => {
      if (request.method !== 'PUT' || !request.url?.includes('partNumber=')) return undefined;
      const part = /partNumber=(\d+)/.exec(request.url)![1]!;
      if (request.headers['x-amz-content-sha256'] !== 'STREAMING-UNSIGNED-PAYLOAD-TRAILER') return undefined;
      trailing.push(part);
      if (part !== '3' || damaged > 0) return undefined;
      damaged += 1;
      // Past the chunk header ("100000\r\n"): a byte of the part's data.
      return { kind: 'corrupt-request', atByte: 5000 };
    });
    const connection = await viaProxy();
    const job = engine.upload(connection, { sources: [source.path], bucket, destination: 'trailing.bin' });
    const end = await job.finished();
    expect(end.state.status).toBe('completed');
    // The first part found out that the store checks CRCs (read twice, Content-MD5 beside its CRC); the rest went once
    // each.
    expect(connection.trailers).toBe('taken');
    expect(trailing.filter((part) => part === '1')).toEqual([]);
    expect(new Set(trailing)).toEqual(new Set(['2', '3', '4']));
    expect(damaged).toBe(1);
    expect(trailing.filter((part) => part === '3')).toHaveLength(2);
    const out = path.join(dir, 'check-trailing.bin');
    expect(
      (await engine.download(direct, { bucket, keys: ['trailing.bin'], targetFolder: dir, targetFile: out }).finished())
        .state.status,
    ).toBe('completed');
    expect(await sha256File(out)).toBe(source.sha256);
    await noIncompleteUploads();
  });

  it('a store that refuses a checksum after the body gets it before the body from then on, and the upload completes', async () => {
    const source = await randomFile(dir, 'no-trailers.bin', 4 * PART);
    let refused = 0;
    proxy.setRule((request) => {
      if (request.headers['content-encoding'] !== 'aws-chunked') return undefined;
      refused += 1;
      return { kind: 'refuse', status: 501, code: 'NotImplemented' };
    });
    const connection = await viaProxy();
    const end = await engine
      .upload(connection, { sources: [source.path], bucket, destination: 'no-trailers.bin' })
      .finished();
    expect(end.state.status).toBe('completed');
    expect(connection.trailers).toBe('refused');
    // Parts already under way when the first refusal came are refused too; none after it.
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(3);
    const out = path.join(dir, 'check-no-trailers.bin');
    expect(
      (
        await engine
          .download(direct, { bucket, keys: ['no-trailers.bin'], targetFolder: dir, targetFile: out })
          .finished()
      ).state.status,
    ).toBe('completed');
    expect(await sha256File(out)).toBe(source.sha256);
  });

  it("with every attempt damaged, the upload fails with the store's verdict and leaves no object and no parts", async () => {
    const source = await randomFile(dir, 'doomed.bin', 2 * PART);
    proxy.setRule((request) =>
      request.method === 'PUT' && request.url?.includes('partNumber=1')
        ? { kind: 'corrupt-request', atByte: 10 }
        : undefined,
    );
    const connection = await viaProxy();
    const end = await engine
      .upload(connection, { sources: [source.path], bucket, destination: 'doomed.bin' })
      .finished();
    expect(end.state.status).toBe('failed');
    // MinIO says XAmzContentChecksumMismatch, AWS and versitygw BadDigest: one code, one sentence.
    expect(end.itemErrors[0]).toMatchObject({ code: 'BadDigest' });
    expect(end.itemErrors[0]!.message).toMatch(
      /The store received different bytes than were sent \(it answered (BadDigest|XAmzContentChecksumMismatch)\b.*\), on all 3 tries\./,
    );
    await expect(head('doomed.bin')).rejects.toMatchObject({ name: 'NotFound' });
    await noIncompleteUploads();
  });
});

describe('downloads are verified against what the store has', () => {
  it('an object of unequal parts (8, 5 and 5 MiB, by another tool) is saved intact, not refused by a check by parts', async () => {
    const source = await randomFile(dir, 'uneven.bin', 18 * MIB);
    const data = await readFile(source.path);
    const created = await direct.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'uneven.bin' }));
    const bounds = [0, 8 * MIB, 13 * MIB, 18 * MIB];
    const parts = [];
    for (let i = 0; i < 3; i++) {
      const part = await direct.client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: 'uneven.bin',
          UploadId: created.UploadId,
          PartNumber: i + 1,
          Body: data.subarray(bounds[i], bounds[i + 1]),
        }),
      );
      parts.push({ PartNumber: i + 1, ETag: part.ETag });
    }
    await direct.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: 'uneven.bin',
        UploadId: created.UploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
    const job = engine.download(
      direct,
      { bucket, keys: ['uneven.bin'], targetFolder: path.join(dir, 'uneven') },
      journaled,
    );
    expect((await job.finished()).state.status).toBe('completed');
    expect(await sha256File(path.join(dir, 'uneven', 'uneven.bin'))).toBe(source.sha256);
    // MinIO keeps only the multipart ETag: size only. versitygw adds a whole-object CRC64NVME, which
    // ranges of any size can be checked against.
    const checksum = (await receiptOf(job.id))[0]!.checksum;
    if (inject('s3').kind === 'minio') expect(checksum).toBeUndefined();
    else expect(checksum).toMatch(/^CRC64NVME:/);
  });

  // Sent without a checksum, MinIO keeps only the ETag; versitygw (like AWS) computes a whole-object
  // CRC64NVME of its own, which is then what the download is checked against.
  const noChecksum = (etagOnly: RegExp) =>
    inject('s3').kind === 'minio' ? etagOnly : /^CRC64NVME:[A-Za-z0-9+/]{11}=$/;
  const cases = [
    {
      name: 'a single-request object with a CRC32C',
      size: 200_000,
      uploadChecksum: 'CRC32C' as const,
      verified: /^CRC32C:/,
    },
    {
      name: 'a multipart object with a composite CRC32C',
      size: 3 * PART + 7,
      uploadChecksum: 'CRC32C' as const,
      verified: /^CRC32C:.*-4$/,
    },
    {
      name: 'a multipart object with a whole-object CRC64NVME',
      size: 3 * PART + 7,
      uploadChecksum: 'CRC64NVME' as const,
      verified: /^CRC64NVME:[A-Za-z0-9+/]{11}=$/,
    },
    {
      name: 'a single-request object sent without a checksum',
      size: 200_000,
      uploadChecksum: 'OFF' as const,
      verified: noChecksum(/^MD5:[A-Za-z0-9+/]{22}==$/),
    },
    {
      name: 'a multipart object sent without a checksum',
      size: 3 * PART + 7,
      uploadChecksum: 'OFF' as const,
      verified: noChecksum(/^ETAG:[0-9a-f]{32}-4$/),
    },
  ];
  for (const c of cases) {
    it(`${c.name}: intact bytes are saved and the receipt names the check; one flipped byte fails the object and leaves nothing`, async () => {
      const source = await randomFile(dir, 'src.bin', c.size);
      const uploader = await engine.connect({ ...serverConfig(), uploadChecksum: c.uploadChecksum });
      expect(
        (await engine.upload(uploader, { sources: [source.path], bucket, destination: 'obj.bin' }).finished()).state
          .status,
      ).toBe('completed');

      const good = path.join(dir, 'good');
      const ok = engine.download(direct, { bucket, keys: ['obj.bin'], targetFolder: good }, journaled);
      expect((await ok.finished()).state.status).toBe('completed');
      expect(await sha256File(path.join(good, 'obj.bin'))).toBe(source.sha256);
      expect((await receiptOf(ok.id))[0]!.checksum).toMatch(c.verified);

      // The last range's body is damaged (one byte); TCP would not notice, the check does.
      proxy.setRule((request) =>
        request.method === 'GET' &&
        !request.url?.includes('list-type') &&
        (request.headers.range === undefined || !request.headers.range.startsWith('bytes=0-'))
          ? { kind: 'corrupt-body', atByte: 5 }
          : undefined,
      );
      const bad = path.join(dir, 'bad');
      const end = await engine.download(await viaProxy(), { bucket, keys: ['obj.bin'], targetFolder: bad }).finished();
      expect(end.state.status).toBe('failed');
      expect(end.itemErrors[0]).toMatchObject({ code: 'ChecksumMismatch' });
      expect(end.itemErrors[0]!.message).toContain('nothing was saved under its name');
      expect(await readdir(bad)).toEqual([]);
    });
  }
});

describe('a multipart object no larger than the range size is fetched in one GET and still checked by its parts', () => {
  /**
   * Another client's upload: 8 MiB parts (aws-cli's default), no Barge metadata; no checksum, or SHA-256 per part as
   * boto3 can.
   */
  async function otherClientUpload(key: string, data: Buffer, sha256 = false): Promise<void> {
    const created = await direct.client.send(
      new CreateMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        ...(sha256 ? { ChecksumAlgorithm: 'SHA256' as const } : {}),
      }),
    );
    const parts = [];
    for (let start = 0, n = 1; start < data.length; start += 8 * MIB, n++) {
      const part = await direct.client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId: created.UploadId,
          PartNumber: n,
          Body: data.subarray(start, start + 8 * MIB),
          ...(sha256 ? { ChecksumAlgorithm: 'SHA256' as const } : {}),
        }),
      );
      parts.push({ PartNumber: n, ETag: part.ETag, ...(sha256 ? { ChecksumSHA256: part.ChecksumSHA256 } : {}) });
    }
    await direct.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: created.UploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  }
  const cases = [
    {
      name: 'boto3-like, SHA-256 per part (composite) at 8 MiB parts',
      uploadChecksum: undefined,
      sha256: true,
      size: 15 * MIB + 1,
    },
    { name: 'Barge, composite CRC32C at 5 MiB parts', uploadChecksum: 'CRC32C' as const, size: 12 * MIB + 5 },
    { name: 'Barge, no checksum (multipart ETag) at 5 MiB parts', uploadChecksum: 'OFF' as const, size: 12 * MIB + 5 },
    { name: 'another client at 8 MiB parts, no checksum', uploadChecksum: undefined, size: 15 * MIB + 1 },
  ];
  for (const c of cases) {
    it(`${c.name}: intact it is verified, one flipped byte fails it`, async () => {
      const source = await randomFile(dir, 'src.bin', c.size);
      if (c.uploadChecksum) {
        const uploader = await engine.connect({ ...serverConfig(), uploadChecksum: c.uploadChecksum });
        expect(
          (await engine.upload(uploader, { sources: [source.path], bucket, destination: 'one-get.bin' }).finished())
            .state.status,
        ).toBe('completed');
      } else {
        await otherClientUpload('one-get.bin', await readFile(source.path), c.sha256);
      }
      // Ranges of 16 MiB: the whole object comes in one GET.
      engine.updateSettings({ partSizeBytes: 16 * MIB });
      const good = engine.download(
        direct,
        { bucket, keys: ['one-get.bin'], targetFolder: path.join(dir, 'good') },
        journaled,
      );
      const end = await good.finished();
      expect(end.state.status).toBe('completed');
      expect(end.progress.objectsSizeOnly).toBe(0);
      expect(await sha256File(path.join(dir, 'good', 'one-get.bin'))).toBe(source.sha256);
      if (c.sha256) expect((await receiptOf(good.id))[0]!.checksum).toMatch(/^SHA256:/);
      proxy.setRule((request) =>
        request.method === 'GET' && !request.url?.includes('list-type')
          ? { kind: 'corrupt-body', atByte: 5 }
          : undefined,
      );
      const bad = await engine
        .download(await viaProxy(), { bucket, keys: ['one-get.bin'], targetFolder: path.join(dir, 'bad') })
        .finished();
      expect(bad.itemErrors[0]).toMatchObject({ code: 'ChecksumMismatch' });
      expect(await readdir(path.join(dir, 'bad')).catch(() => [])).toEqual([]);
    });
  }
});

it('a saved connection keeps its upload checksum, and its uploads carry it', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'barge-registry-'));
  const registry = new ConnectionRegistry({
    dataDir,
    engine,
    secrets: new FileSecretStore(path.join(dataDir, 'secrets.json')),
  });
  const config = serverConfig();
  const saved = await registry.add({
    name: 'md5 store',
    endpoint: config.endpoint,
    region: config.region,
    pathStyle: true,
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    uploadChecksum: 'CRC32',
  });
  expect(saved.uploadChecksum).toBe('CRC32');
  const connection = await registry.connection(saved.id);
  expect(connection.uploadChecksum).toBe('CRC32');
  const source = await randomFile(dir, 'crc32.bin', 1000);
  const job = engine.upload(connection, { sources: [source.path], bucket, destination: 'crc32.bin' }, journaled);
  expect((await job.finished()).state.status).toBe('completed');
  expect((await receiptOf(job.id))[0]!.checksum).toBe(`CRC32:${(await head('crc32.bin')).ChecksumCRC32}`);
});

it('an empty object is saved without a GET when its ETag is that of no bytes; one uploaded in one empty part is fetched and checked', async () => {
  await direct.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'empty/whole', Body: '' }));
  // Its ETag is the MD5 of one part's MD5 ("…-1"), as an SSE-KMS object's is no MD5: only a GET shows it is empty.
  const created = await direct.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'empty/one-part' }));
  const part = await direct.client.send(
    new UploadPartCommand({
      Bucket: bucket,
      Key: 'empty/one-part',
      UploadId: created.UploadId,
      PartNumber: 1,
      Body: '',
    }),
  );
  await direct.client.send(
    new CompleteMultipartUploadCommand({
      Bucket: bucket,
      Key: 'empty/one-part',
      UploadId: created.UploadId,
      MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
    }),
  );
  const job = engine.download(
    await viaProxy(),
    { bucket, prefixes: ['empty/'], targetFolder: path.join(dir, 'empty'), requireVerified: true },
    journaled,
  );
  const end = await job.finished();
  expect(end.itemErrors).toEqual([]);
  expect(
    proxy.seen
      .filter((request) => request.method === 'GET' && !request.url.includes('list-type'))
      .map((request) => request.url.split('?')[0]),
  ).toEqual([`/${bucket}/empty/one-part`]);
  // The fetched one matched its ETag (MinIO) or the checksum the store added (versitygw).
  expect((await receiptOf(job.id)).map((line) => [line.key, line.verified]).sort()).toEqual([
    ['empty/one-part', expect.stringMatching(/^(etag|checksum)$/)],
    ['empty/whole', 'empty'],
  ]);
  for (const name of ['whole', 'one-part']) expect((await stat(path.join(dir, 'empty', 'empty', name))).size).toBe(0);
});
