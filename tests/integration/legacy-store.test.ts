// Verified on a store that ignores S3's flexible checksums (Ceph's RGW and its family): the test
// server behind legacy-store-proxy.ts neither checks nor echoes x-amz-checksum-*, cannot answer for
// one part, and answers CompleteMultipartUpload with an empty ETag. With a byte flipped in every
// body, no upload may store damaged bytes (the first requests of a run included), no download of an
// object Barge uploaded may save damaged bytes, and another client's object that cannot be checked
// is said to be checked for size only.

import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import { Engine } from '../../main/engine/engine.ts';
import { Journal } from '../../main/engine/journal/journal.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import type { LegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import { randomFile, serverConfig, sha256File, uniqueBucket } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

const PART = 5 * MIB;
const journaled = { connectionRef: 'test' };

let journal: Journal;
let engine: Engine;
let direct: S3Connection;
let proxy: LegacyStoreProxy;
let bucket: string;
let dir: string;

beforeEach(async () => {
  journal = await Journal.open(':memory:');
  engine = new Engine({ journal, settings: { threads: 4, partSizeBytes: PART, maxAttempts: 2 } });
  direct = await engine.connect(serverConfig());
  const s3 = inject('s3');
  proxy = await startLegacyStoreProxy(
    s3.endpoint,
    { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    s3.region,
  );
  bucket = uniqueBucket();
  await createBucket(direct, bucket);
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-legacy-'));
});
afterEach(async () => {
  await engine.close();
  await proxy.close();
});

/** A new connection, as a new run of barge has: it knows nothing of the store yet. */
const legacy = () => engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });

async function exists(key: string): Promise<boolean> {
  return direct.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    () => true,
    () => false,
  );
}

async function noIncompleteUploads(): Promise<void> {
  for await (const upload of listMultipartUploads(direct, bucket))
    throw new Error(`incomplete upload left: ${upload.key}`);
}

async function downloadDirect(key: string): Promise<string> {
  const out = path.join(dir, `direct-${key.replaceAll('/', '_')}`);
  const end = await engine.download(direct, { bucket, keys: [key], targetFolder: dir, targetFile: out }).finished();
  expect(end.state.status).toBe('completed');
  return sha256File(out);
}

describe('uploads: every request is checked by the store, from the first one on', () => {
  it.each([
    ['a 1 KiB file (one PUT, SHA-256 signed)', 1024],
    ['a 3 MiB file (one streamed PUT)', 3 * MIB],
    ['a 12 MiB file (multipart, 5 MiB parts)', 12 * MIB + 5],
  ])('%s damaged on the way is refused and nothing is stored', async (_name, size) => {
    const source = await randomFile(dir, 'damaged.bin', size);
    proxy.flipRequests = 5;
    const end = await engine
      .upload(await legacy(), { sources: [source.path], bucket, destination: 'damaged.bin' })
      .finished();
    expect(end.state.status).toBe('failed');
    expect(end.itemErrors[0]).toMatchObject({ code: 'BadDigest' });
    expect(end.itemErrors[0]!.message).toMatch(
      /The store received different bytes than were sent \(it answered (BadDigest|XAmzContentSHA256Mismatch|InvalidDigest)\b.*\), on all 2 tries\./,
    );
    expect(await exists('damaged.bin')).toBe(false);
    await noIncompleteUploads();
  });

  it('a fresh run of five 1.1 MiB files, all damaged: none is stored, none reported done', async () => {
    for (let i = 0; i < 5; i++) await randomFile(dir, `five/f${i}.bin`, 1.1 * MIB);
    proxy.flipRequests = 5;
    const end = await engine
      .upload(await legacy(), { sources: [path.join(dir, 'five')], bucket, destination: '' })
      .finished();
    expect(end.progress).toMatchObject({ objectsDone: 0, objectsFailed: 5 });
    for (let i = 0; i < 5; i++) expect(await exists(`five/f${i}.bin`)).toBe(false);
    // Every body went with a Content-MD5 or a signed SHA-256: nothing the store could not check.
    const bodies = proxy.seen.filter((request) => request.method === 'PUT');
    expect(bodies.length).toBeGreaterThanOrEqual(5);
    expect(bodies.filter((request) => !request.contentMd5 && !request.sha256Signed)).toEqual([]);
  });

  it('a store that echoed CRCs and then stops: the unconfirmed request is sent again with Content-MD5, and what it stored does not stay', async () => {
    const connection = await legacy();
    proxy.legacy = false;
    const first = await randomFile(dir, 'first.bin', 3 * MIB);
    expect(
      (await engine.upload(connection, { sources: [first.path], bucket, destination: 'first.bin' }).finished()).state
        .status,
    ).toBe('completed');
    expect(connection.crcEcho).toBe('echoes');
    proxy.legacy = true;
    const intact = await randomFile(dir, 'intact.bin', 3 * MIB);
    const job = engine.upload(connection, { sources: [intact.path], bucket, destination: 'intact.bin' }, journaled);
    expect((await job.finished()).state.status).toBe('completed');
    expect(connection.crcEcho).toBe('ignores');
    expect([...engine.receipt(job.id)][0]!.verified).toBe('content-md5');
    expect(await downloadDirect('intact.bin')).toBe(intact.sha256);
    // Damaged: the first attempt (CRC alone) lands unchecked, the next (Content-MD5) is refused.
    proxy.legacy = false;
    const again = await legacy();
    expect(
      (await engine.upload(again, { sources: [first.path], bucket, destination: 'first.bin' }).finished()).state.status,
    ).toBe('completed');
    proxy.legacy = true;
    proxy.flipRequests = 5;
    const damaged = await randomFile(dir, 'damaged.bin', 3 * MIB);
    const end = await engine.upload(again, { sources: [damaged.path], bucket, destination: 'damaged.bin' }).finished();
    expect(end.itemErrors[0]).toMatchObject({ code: 'BadDigest' });
    expect(await exists('damaged.bin')).toBe(false);
  });

  it('undamaged, uploads land intact; receipts say Content-MD5 and carry the ETag the store gave (a HEAD, where the answer had none)', async () => {
    const small = await randomFile(dir, 'up/small.bin', 2000);
    const medium = await randomFile(dir, 'up/medium.bin', 3 * MIB);
    const big = await randomFile(dir, 'up/big.bin', 3 * PART + 7);
    const connection = await legacy();
    const job = engine.upload(connection, { sources: [path.join(dir, 'up')], bucket, destination: '' }, journaled);
    expect((await job.finished()).state.status).toBe('completed');
    expect(connection.crcEcho).toBe('ignores');
    const lines = new Map([...engine.receipt(job.id)].map((line) => [line.key, line]));
    for (const [key, source] of [
      ['up/small.bin', small],
      ['up/medium.bin', medium],
      ['up/big.bin', big],
    ] as const) {
      expect(await downloadDirect(key)).toBe(source.sha256);
      const stored = await direct.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      expect(lines.get(key)!.etag).toBe(stored.ETag);
    }
    expect(lines.get('up/small.bin')!.verified).toBe('signed-sha256');
    expect(lines.get('up/medium.bin')).toMatchObject({
      verified: 'content-md5',
      checksum: expect.stringMatching(/^MD5:/),
    });
    expect(lines.get('up/big.bin')).toMatchObject({ verified: 'content-md5' });
    expect(lines.get('up/big.bin')!.etag).toMatch(/-4"$/);
  });
});

describe('downloads: objects Barge uploaded are checked by their parts, others said plainly', () => {
  /** Upload through the legacy store (so with Barge's part size in the metadata). */
  async function uploadedByBarge(key: string, size: number): Promise<string> {
    const source = await randomFile(dir, key, size);
    expect(
      (await engine.upload(await legacy(), { sources: [source.path], bucket, destination: key }).finished()).state
        .status,
    ).toBe('completed');
    return source.sha256;
  }

  /** Upload as another client would: multipart with 8 MiB parts, no metadata, no checksums. */
  async function uploadedByOtherClient(key: string, size: number, partSize = 8 * MIB): Promise<void> {
    const data = Buffer.alloc(size, 7);
    for (let i = 0; i < size; i += 4096) data[i] = (i / 4096) & 0xff;
    const { UploadId } = await direct.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    const parts = [];
    for (let start = 0, n = 1; start < size; start += partSize, n++) {
      const { ETag } = await direct.client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId,
          PartNumber: n,
          Body: data.subarray(start, Math.min(size, start + partSize)),
        }),
      );
      parts.push({ PartNumber: n, ETag });
    }
    await direct.client.send(
      new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
    );
  }

  async function download(key: string, options: { partSizeBytes?: number; requireVerified?: boolean } = {}) {
    if (options.partSizeBytes) engine.updateSettings({ partSizeBytes: options.partSizeBytes });
    const target = await mkdtemp(path.join(dir, 'down-'));
    const job = engine.download(
      await legacy(),
      { bucket, keys: [key], targetFolder: target, requireVerified: options.requireVerified },
      journaled,
    );
    const end = await job.finished();
    return { end, target, receipt: [...engine.receipt(job.id)], files: await readdir(target) };
  }

  it.each([
    ['a single PUT (MD5 ETag)', 3 * MIB, undefined],
    ['multipart, fetched in one GET', 12 * MIB + 5, undefined],
    ['multipart, fetched in ranges at the parts', 12 * MIB + 5, PART],
    ['multipart, fetched in ranges of another size', 12 * MIB + 5, 6 * MIB],
  ])('%s: a flipped byte fails with ChecksumMismatch and nothing is saved', async (_name, size, partSizeBytes) => {
    const sha = await uploadedByBarge('mine.bin', size);
    const intact = await download('mine.bin', { partSizeBytes });
    expect(intact.end.state.status).toBe('completed');
    expect(intact.end.progress.objectsSizeOnly).toBe(0);
    expect(await sha256File(path.join(intact.target, 'mine.bin'))).toBe(sha);
    expect(intact.receipt[0]!.verified).toBe('etag');
    proxy.flipResponses = 5;
    const damaged = await download('mine.bin', { partSizeBytes });
    expect(damaged.end.itemErrors[0]).toMatchObject({ code: 'ChecksumMismatch' });
    expect(damaged.files).toEqual([]);
  });

  it("another client's multipart object is checked by a likely part size; damaged, it is marked size only, and --require-verified fails it", async () => {
    await uploadedByOtherClient('theirs.bin', 20 * MIB + 3);
    const intact = await download('theirs.bin');
    expect(intact.end.state.status).toBe('completed');
    expect(intact.receipt[0]).toMatchObject({
      verified: 'etag',
      checksum: expect.stringMatching(/^ETAG:[0-9a-f]{32}-3$/),
    });
    proxy.flipResponses = 5;
    const unproven = await download('theirs.bin');
    // No likely part size gives the ETag: it cannot be told from damage, so it is said loudly.
    expect(unproven.end.state.status).toBe('completed');
    expect(unproven.end.progress.objectsSizeOnly).toBe(1);
    expect(unproven.end.itemWarnings![0]!.message).toMatch(
      /theirs\.bin was checked for its size only: the store cannot say where its parts begin, and none of the part sizes tried \(.*8 MiB.*\) gives its ETag: either it was uploaded with another part size, or its bytes were damaged on the way/,
    );
    expect(unproven.receipt[0]!.verified).toBe('size-only');
    const refused = await download('theirs.bin', { requireVerified: true });
    expect(refused.end.itemErrors[0]).toMatchObject({ code: 'Unverified' });
    expect(refused.end.itemErrors[0]!.message).toContain('with --require-verified nothing was saved under its name');
    expect(refused.files).toEqual([]);
  });

  it('barge cp warns in its summary of objects checked for size only, and --require-verified fails them', async () => {
    await uploadedByOtherClient('cli/theirs.bin', 20 * MIB + 3);
    proxy.flipResponses = 5;
    const s3 = inject('s3');
    const env = {
      AWS_ENDPOINT_URL: proxy.endpoint,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_REGION: s3.region,
      BARGE_NO_JOURNAL: '1',
    };
    const target = await mkdtemp(path.join(dir, 'cli-'));
    const warned = await runCli(['cp', `s3://${bucket}/cli/theirs.bin`, `${target}/`], { env });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toMatch(/^warning: s3:\/\/.*\/cli\/theirs\.bin was checked for its size only: /m);
    expect(warned.stderr).toContain(
      'Warning: 1 object was checked for size only, not for content (see above; --require-verified fails them).',
    );
    const refusedTarget = await mkdtemp(path.join(dir, 'cli-'));
    const refused = await runCli(['cp', '--require-verified', `s3://${bucket}/cli/theirs.bin`, `${refusedTarget}/`], {
      env,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('with --require-verified nothing was saved under its name');
    expect(await readdir(refusedTarget)).toEqual([]);
  });
});

describe('resume on a store that names a gone upload NoSuchKey (Ceph RGW)', () => {
  it('a resumed upload whose multipart upload was aborted meanwhile starts the file afresh and completes', async () => {
    const file = path.join(dir, 'journal.sqlite');
    const source = await randomFile(dir, 'big.bin', 12 * PART);
    const spec = { sources: [source.path], bucket, destination: 'resumed.bin' };
    const first = new Engine({
      journal: await Journal.open(file),
      host: 'cli',
      settings: { threads: 1, partSizeBytes: PART },
    });
    const job = first.upload(await first.connect({ ...serverConfig(), endpoint: proxy.endpoint }), spec, {
      connectionRef: 'legacy',
      resume: true,
    });
    // Paused as soon as parts go out, then left as a crash leaves it.
    await new Promise<void>((resolve) => {
      const stop = first.onProgress((batch) => {
        if (!batch.some((update) => update.id === job.id && update.progress.bytesDone > 0)) return;
        first.pause(job.id);
        stop();
        resolve();
      });
    });
    await first.close({ suspend: true });
    // What a lifecycle rule (or abort-uploads) does meanwhile.
    let aborted = 0;
    for await (const upload of listMultipartUploads(direct, bucket)) {
      await direct.client.send(
        new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.key, UploadId: upload.uploadId }),
      );
      aborted += 1;
    }
    expect(aborted).toBe(1);
    const second = new Engine({
      journal: await Journal.open(file),
      host: 'cli',
      settings: { threads: 2, partSizeBytes: PART },
    });
    try {
      const again = second.upload(await second.connect({ ...serverConfig(), endpoint: proxy.endpoint }), spec, {
        connectionRef: 'legacy',
        resume: true,
      });
      expect(second.earlierRun(again.id)?.status).toBe('active');
      const end = await again.finished();
      expect(end.itemErrors).toEqual([]);
      expect(end.state.status).toBe('completed');
      expect(await downloadDirect('resumed.bin')).toBe(source.sha256);
      await noIncompleteUploads();
    } finally {
      await second.close();
    }
  });
});
