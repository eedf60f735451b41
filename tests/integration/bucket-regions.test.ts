// A bucket in another region, as AWS answers for one: through region-proxy.ts, the test server's
// bucket is "in" eu-west-1 while the connection's region is us-east-1. Every job, listing, details
// and links work, each request sent to the bucket's region once the store has named it: a request
// refused for its region goes again, there, once and uncounted, and the requests queued behind it go
// there from the start. A store that names something that is not a region is not followed.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { startRegionProxy } from '../support/region-proxy.ts';
import type { RegionProxy, RegionRefusal } from '../support/region-proxy.ts';
import { randomFile, serverConfig, sha256File, uniqueBucket } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

const THREADS = 4;
const PART = 5 * MIB;
const EU = 'eu-west-1';

let engine: Engine;
let direct: S3Connection;
let proxy: RegionProxy;
let bucket: string;
let dir: string;

beforeAll(async () => {
  const s3 = inject('s3');
  engine = new Engine({ settings: { threads: THREADS, partSizeBytes: PART, maxAttempts: 2 } });
  direct = await engine.connect(serverConfig());
  bucket = uniqueBucket();
  await createBucket(direct, bucket);
  proxy = await startRegionProxy(
    s3.endpoint,
    { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    s3.region,
    { [bucket]: EU },
  );
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-regions-'));
});
afterAll(async () => {
  await engine.close();
  await proxy.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  proxy.lie = undefined;
  proxy.seen.length = 0;
});

/** A new connection signed for us-east-1, as a new run of barge has: it knows no bucket's region yet. */
const fromUsEast1 = () => engine.connect({ ...serverConfig(), endpoint: proxy.endpoint, region: 'us-east-1' });

/** Requests for the bucket that reached the store, and the regions they were signed for. */
const passedRegions = () =>
  new Set(
    proxy.seen
      .filter((request) => request.bucket === bucket && !request.refused)
      .map((request) => request.signedRegion),
  );

describe.each<RegionRefusal>(['malformed', 'redirect'])(
  'a bucket in eu-west-1, refused as AWS does (%s)',
  (refusal) => {
    const prefix = `${refusal}/`;
    const small = Array.from({ length: 12 }, (_, i) => `small-${i}.txt`);
    const sources: Record<string, string> = {};

    beforeEach(() => {
      proxy.refusal = refusal;
    });

    it('uploads small and multipart files: refused once per request in flight, then every request goes to eu-west-1', async () => {
      const from = path.join(dir, refusal);
      for (const name of small) sources[name] = (await randomFile(from, name, 1024)).sha256;
      sources['big.bin'] = (await randomFile(from, 'big.bin', 2 * PART + 7)).sha256;
      const job = engine.upload(await fromUsEast1(), { sources: [from], bucket, destination: prefix });
      const end = await job.finished();
      expect(end.state).toEqual({ status: 'completed' });
      expect(end.progress.objectsDone).toBe(small.length + 1);
      // Resent to the bucket's region, uncounted: no retry was spent.
      expect(job.retryCount).toBe(0);
      // Only the requests already in flight when the first refusal came back were refused.
      expect(proxy.refusedFor(bucket)).toBeGreaterThan(0);
      expect(proxy.refusedFor(bucket)).toBeLessThanOrEqual(THREADS);
      expect(passedRegions()).toEqual(new Set([EU]));
      const stored = await direct.client.send(
        new HeadObjectCommand({ Bucket: bucket, Key: `${prefix}${refusal}/big.bin` }),
      );
      expect(stored.ContentLength).toBe(2 * PART + 7);
    });

    it("lists, and shows an object's details", async () => {
      const connection = await fromUsEast1();
      const page = await engine.listObjects(connection, { bucket, prefix: `${prefix}${refusal}/`, delimiter: '/' });
      expect(page.objects.map((o) => o.key).sort()).toEqual(
        [...small, 'big.bin'].map((name) => `${prefix}${refusal}/${name}`).sort(),
      );
      proxy.seen.length = 0;
      // A fresh connection's HEAD (the SDK's): a bare refusal with the header.
      const details = await engine.objectDetails(await fromUsEast1(), bucket, `${prefix}${refusal}/small-0.txt`);
      expect(details.size).toBe(1024);
      expect(passedRegions()).toEqual(new Set([EU]));
    });

    it('downloads, the large file in ranged parts, every byte checked', async () => {
      const out = path.join(dir, `${refusal}-out`);
      const job = engine.download(await fromUsEast1(), {
        bucket,
        prefixes: [`${prefix}${refusal}/`],
        targetFolder: out,
      });
      const end = await job.finished();
      expect(end.state).toEqual({ status: 'completed' });
      expect(job.retryCount).toBe(0);
      for (const [name, sha256] of Object.entries(sources))
        expect(await sha256File(path.join(out, refusal, name))).toBe(sha256);
      // A browser's own download through the web host (the SDK's GET, checked as it passes).
      const saved = await engine.openObject(await fromUsEast1(), bucket, `${prefix}${refusal}/big.bin`, {
        requireVerified: true,
      });
      let bytes = 0;
      for await (const chunk of saved.body) bytes += (chunk as Buffer).length;
      expect(bytes).toBe(2 * PART + 7);
      const ranges = proxy.seen.filter(
        (request) => request.method === 'GET' && request.url.endsWith('/big.bin') && !request.refused && request.range,
      );
      expect(ranges.length).toBeGreaterThanOrEqual(2);
      expect(passedRegions()).toEqual(new Set([EU]));
    });

    it('makes links signed for eu-west-1, that work', async () => {
      const url = await engine.presign(await fromUsEast1(), bucket, `${prefix}${refusal}/small-1.txt`, 60);
      expect(new URL(url).searchParams.get('X-Amz-Credential')).toContain(`/${EU}/s3/aws4_request`);
      const answer = await fetch(url);
      expect(answer.status).toBe(200);
      expect((await answer.arrayBuffer()).byteLength).toBe(1024);
    });

    it("says the bucket's region", async () => {
      expect(await engine.bucketRegion(await fromUsEast1(), bucket)).toEqual({ region: EU, told: true });
    });

    it('deletes', async () => {
      const job = engine.delete(await fromUsEast1(), { bucket, prefixes: [prefix] });
      const end = await job.finished();
      expect(end.state).toEqual({ status: 'completed' });
      expect(end.progress.objectsDone).toBe(small.length + 1);
      expect(job.retryCount).toBe(0);
      const left = await direct.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      expect(left.KeyCount ?? 0).toBe(0);
      expect(passedRegions()).toEqual(new Set([EU]));
    });
  },
);

describe('a store that names something that is not a region', () => {
  it.each<RegionRefusal>(['malformed', 'redirect'])(
    'is not followed (%s): the upload fails, in words',
    async (refusal) => {
      proxy.refusal = refusal;
      proxy.lie = 'x@127.0.0.1:9/#';
      const source = await randomFile(path.join(dir, 'lie'), 'a.txt', 10);
      const job = engine.upload(await fromUsEast1(), { sources: [source.path], bucket, destination: 'lie/a.txt' });
      const end = await job.finished();
      expect(end.state.status).toBe('failed');
      expect(end.itemErrors[0]!.message).toContain('named no valid region for the bucket');
      expect(end.itemErrors[0]!.message).not.toContain('127.0.0.1');
      // Nothing was ever signed for what the store named.
      expect(new Set(proxy.seen.map((request) => request.signedRegion))).toEqual(new Set(['us-east-1']));
    },
  );
});

describe('a store that names a region and refuses requests sent there too', () => {
  it('sends each request there once, then fails in words, without going round', async () => {
    proxy.refusal = 'malformed';
    proxy.lie = 'ap-south-1';
    const source = await randomFile(path.join(dir, 'round'), 'a.txt', 10);
    const job = engine.upload(await fromUsEast1(), { sources: [source.path], bucket, destination: 'round/a.txt' });
    const end = await job.finished();
    expect(end.state.status).toBe('failed');
    expect(end.itemErrors[0]!.message).toContain(
      'The store said the bucket is in region ap-south-1, then refused the request sent there too.',
    );
    expect(proxy.seen.filter((request) => request.bucket === bucket).map((request) => request.signedRegion)).toEqual([
      'us-east-1',
      'ap-south-1',
    ]);
  });
});

describe('the command line, with AWS_REGION=us-east-1', () => {
  const env = () => ({ AWS_ENDPOINT_URL: proxy.endpoint, AWS_REGION: 'us-east-1' });

  it('lists, uploads, downloads and deletes in a bucket in eu-west-1', async () => {
    proxy.refusal = 'malformed';
    const source = await randomFile(path.join(dir, 'cli'), 'note.txt', 300);
    const up = await runCli(['cp', source.path, `s3://${bucket}/cli/note.txt`], { env: env() });
    expect(up).toMatchObject({ code: 0 });
    const listed = await runCli(['ls', `s3://${bucket}/cli/`], { env: env() });
    expect(listed).toMatchObject({ code: 0 });
    expect(listed.stdout).toContain('note.txt');
    const copy = path.join(dir, 'cli', 'copy.txt');
    expect(await runCli(['cp', `s3://${bucket}/cli/note.txt`, copy], { env: env() })).toMatchObject({ code: 0 });
    expect(await sha256File(copy)).toBe(source.sha256);
    expect(await runCli(['rm', `s3://${bucket}/cli/note.txt`], { env: env() })).toMatchObject({ code: 0 });
    expect((await runCli(['ls', `s3://${bucket}/cli/`], { env: env() })).stdout).toBe('');
    expect(proxy.refusedFor(bucket)).toBeGreaterThan(0);
    expect(passedRegions()).toEqual(new Set([EU]));
  });

  it('does not advise running the same command again when the store refuses the region for good', async () => {
    proxy.refusal = 'redirect';
    proxy.lie = 'nowhere@127.0.0.1';
    const source = await randomFile(path.join(dir, 'cli'), 'again.txt', 10);
    const up = await runCli(['cp', source.path, `s3://${bucket}/cli/again.txt`], { env: env() });
    expect(up.code).not.toBe(0);
    expect(up.stderr).toContain('named no valid region for the bucket');
    expect(up.stderr).not.toContain('run the same command again');
    const rm = await runCli(['rm', `s3://${bucket}/cli/again.txt`], { env: env() });
    expect(rm.code).not.toBe(0);
    expect(rm.stderr).not.toContain('run the same command again');
  });
});
