// The speed test on a real MinIO: each cell of a small grid measured within a short budget, the result
// saved and read back by another engine on the same journal, and nothing left below the test's prefix
// (a listing of objects, versions and multipart uploads), after a cancel mid-run too. The command line
// runs it the same way, with --json.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Engine, Journal } from '../../main/engine/engine.ts';
import type { S3Connection } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { KIB, MIB } from '../../src/byte-units.ts';
import { bestInWords } from '../../src/speed-test.ts';
import type { SpeedTestGrid, SpeedTestOutcome, SpeedTestProgress } from '../../src/speed-test.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { runCli, startCli } from '../support/run-cli.ts';

const GRID: SpeedTestGrid = {
  threads: [1, 4],
  objectSizes: [16 * KIB, 256 * KIB],
  partSizes: [5 * MIB],
  partConcurrency: [1, 2],
};

let dir: string;
let journalFile: string;
let engine: Engine;
let connection: S3Connection;
let bucket: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-speedtest-'));
  journalFile = path.join(dir, 'journal.sqlite');
  engine = new Engine({ journal: await Journal.open(journalFile) });
  connection = await engine.connect(serverConfig());
  bucket = uniqueBucket();
  await createBucket(connection, bucket);
  // Someone's object beside the test's prefix: it stays.
  await connection.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'bench/keep.txt', Body: 'mine' }));
});

afterEach(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every object version, delete marker and unfinished upload in the bucket, by key. */
async function everythingIn(): Promise<string[]> {
  const versions = await connection.client.send(new ListObjectVersionsCommand({ Bucket: bucket }));
  const uploads = await connection.client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return [
    ...(versions.Versions ?? []).map((v) => `version ${v.Key}`),
    ...(versions.DeleteMarkers ?? []).map((m) => `marker ${m.Key}`),
    ...(uploads.Uploads ?? []).map((u) => `upload ${u.Key}`),
  ].sort();
}

async function run(
  budgetMs: number,
  onProgress?: (progress: SpeedTestProgress, cancel: () => void) => void,
): Promise<SpeedTestOutcome> {
  const cancel = new AbortController();
  const { ended } = await engine.startSpeedTest(connection, {
    bucket,
    prefix: 'bench/',
    budgetMs,
    grid: GRID,
    connectionRef: 'minio',
    signal: cancel.signal,
    onProgress: (progress) => onProgress?.(progress, () => cancel.abort()),
  });
  return ended;
}

it('measures every cell of the grid, saves the result for the endpoint, and leaves nothing below its prefix', async () => {
  const seen: SpeedTestProgress[] = [];
  const outcome = await run(10_000, (progress) => seen.push(progress));
  expect(outcome.state).toBe('done');
  if (outcome.state !== 'done') return;
  const { result, cleanup } = outcome;
  // Two grids, up and down: 2 sizes x 2 thread counts x 2, and 1 part size x 2 concurrencies x 2.
  expect(result.cells).toHaveLength(12);
  for (const cell of result.cells) {
    expect(cell.requests, JSON.stringify(cell)).toBeGreaterThan(0);
    expect(cell.bytes).toBeGreaterThanOrEqual(cell.requests * (cell.grid === 'objects' ? cell.sizeBytes : 0));
    expect(cell.elapsedMs).toBeGreaterThan(0);
  }
  expect(seen.some((progress) => progress.cell === 'PUT 256 KiB objects, 4 threads')).toBe(true);
  expect(seen.at(-1)?.phase).toBe('cleaning');
  expect(cleanup).toMatchObject({ clean: true, objectsLeft: 0, uploadsLeft: 0 });
  expect(cleanup.place).toMatch(new RegExp(`^s3://${bucket}/bench/\\.barge-speedtest-[0-9-]+-[0-9a-f]{6}/$`));
  expect(await everythingIn()).toEqual(['version bench/keep.txt']);

  // Read back from the journal by another engine: the best setting Auto starts from, and the whole result.
  await engine.close();
  engine = new Engine({ journal: await Journal.open(journalFile) });
  connection = await engine.connect(serverConfig());
  const saved = engine.savedSpeedTest(connection, 'minio');
  expect(saved?.result).toEqual(result);
  expect(GRID.threads).toContain(saved?.threads);
  expect(saved?.partSizeBytes).toBe(5 * MIB);
  expect(GRID.partConcurrency).toContain(saved?.partConcurrency);
  expect(saved?.measuredAt).toBe(result.measuredAt);
  // Another connection to the same endpoint finds it too; the object beside the prefix is untouched.
  expect(engine.savedSpeedTest(connection, 'another')?.result.id).toBe(result.id);
  const kept = await connection.client.send(new GetObjectCommand({ Bucket: bucket, Key: 'bench/keep.txt' }));
  expect(await kept.Body!.transformToString()).toBe('mine');

  // The next job on this endpoint, with nothing else running: Auto starts from the saved best, and says so.
  expect(engine.stats().auto?.threads).toBe(64);
  const job = engine.download(
    connection,
    { bucket, keys: ['bench/keep.txt'], targetFolder: dir },
    { connectionRef: 'minio' },
  );
  expect(engine.stats().auto).toMatchObject({
    threads: saved!.threads,
    reason: expect.stringContaining("this endpoint's speed test of"),
  });
  expect((await job.finished()).state.status).toBe('completed');
});

it('cancelled in the middle of a multipart upload, it still deletes everything, leaves no part, and saves nothing', async () => {
  let cancelledIn: string | undefined;
  const outcome = await run(20_000, (progress, cancel) => {
    // The large object's first upload, with parts in flight: the worst moment to stop.
    if (cancelledIn === undefined && progress.cell?.startsWith('Upload 5 MiB parts, 2')) {
      cancelledIn = progress.cell;
      setTimeout(cancel, 300);
    }
  });
  expect(cancelledIn).toBeDefined();
  expect(outcome).toMatchObject({ state: 'cancelled', cleanup: { clean: true, objectsLeft: 0, uploadsLeft: 0 } });
  expect(await everythingIn()).toEqual(['version bench/keep.txt']);
  expect(engine.savedSpeedTest(connection, 'minio')).toBeUndefined();
});

it('in a bucket that keeps versions, it deletes every version it made, with no delete marker left', async () => {
  await connection.client.send(
    new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  const outcome = await run(10_000);
  expect(outcome).toMatchObject({ state: 'done', cleanup: { clean: true } });
  expect(await everythingIn()).toEqual(['version bench/keep.txt']);
});

it('passes the byte gate: with Max speed on, the result says so, and that the test ran into it', async () => {
  const cap = 1_000_000;
  engine.updateSettings({ maxRate: cap });
  const outcome = await run(10_000);
  expect(outcome.state).toBe('done');
  if (outcome.state !== 'done') return;
  expect(outcome.result.maxSpeed).toEqual({ bytesPerSecond: cap, reached: true });
  expect(bestInWords(outcome.result).at(-1)).toBe(
    'Max speed (977 KiB/s) was on: it capped these figures. Turn it off to measure the endpoint itself.',
  );
});

it('refuses at once a bucket that is not there, having written nothing', async () => {
  bucket = uniqueBucket();
  await expect(run(10_000)).rejects.toMatchObject({ code: 'NoSuchBucket' });
});

it('barge speedtest --json: the outcome, the test measured within its budget and its objects deleted', async () => {
  const s3 = serverConfig();
  const answer = await runCli(['speedtest', '--budget', '10s', '--json', `s3://${bucket}/bench`], {
    env: { AWS_ENDPOINT_URL: s3.endpoint },
  });
  expect(answer.stderr).toBe('');
  expect(answer.code).toBe(0);
  const outcome = JSON.parse(answer.stdout) as SpeedTestOutcome;
  expect(outcome.state).toBe('done');
  if (outcome.state === 'done') expect(outcome.result.cells).toHaveLength(70);
  expect(outcome.cleanup.clean).toBe(true);
  expect(await everythingIn()).toEqual(['version bench/keep.txt']);
  const usage = await runCli(['speedtest', '--budget', '2s', `s3://${bucket}`]);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain('--budget takes a duration from 10s to 10m');
});

it('barge speedtest stopped by Ctrl-C while it is still starting stops there: it writes nothing and says so', async () => {
  const proxy = await startFaultProxy(serverConfig().endpoint!);
  try {
    let arrived!: () => void;
    const listing = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    // The bucket's first look (before the run has its ID) is held until the Ctrl-C has landed.
    proxy.setRule((request) => {
      if (request.method !== 'GET' || !request.url?.includes('list-type')) return undefined;
      arrived();
      return { kind: 'hold', until };
    });
    const run = startCli(['speedtest', '--budget', '10s', '--json', `s3://${bucket}/bench`], {
      env: { AWS_ENDPOINT_URL: proxy.endpoint },
    });
    await listing;
    run.child.kill('SIGINT');
    // A moment for the signal to land before the listing is let go (landing later, it would cancel a run
    // whose ID is known, which the old code did too: the test could pass, never fail, for that).
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    const answer = await run.done;
    expect(answer.code).toBe(130);
    expect(proxy.seen.filter((request) => request.method === 'PUT')).toEqual([]);
    expect(await everythingIn()).toEqual(['version bench/keep.txt']);
  } finally {
    await proxy.close();
  }
});

it('runs one at a time: a second start while one runs is refused, and once it ended another may start', async () => {
  const first = new AbortController();
  const start = (signal: AbortSignal) =>
    engine.startSpeedTest(connection, { bucket, prefix: 'bench/', budgetMs: 10_000, grid: GRID, signal });
  // Both asked at once: the second must not slip in while the first looks at the bucket.
  const [running, second] = await Promise.allSettled([start(first.signal), start(new AbortController().signal)]);
  expect(second).toMatchObject({ status: 'rejected', reason: { code: 'AlreadyRunning' } });
  if (running.status !== 'fulfilled') throw running.reason;
  first.abort();
  expect((await running.value.ended).state).toBe('cancelled');
  const again = new AbortController();
  const next = await start(again.signal);
  again.abort();
  expect((await next.ended).cleanup.clean).toBe(true);
  expect(await everythingIn()).toEqual(['version bench/keep.txt']);
});

it('completes its multipart object with the parts the store holds, reading them again when a late part is refused', async () => {
  // As Ceph's gateway: a complete that leaves out a part the store holds (one cut at the slice's end that landed
  // after the parts were listed) is refused with InvalidPart. Here the first complete of each upload is.
  const proxy = await startFaultProxy(serverConfig().endpoint!);
  try {
    const refused = new Set<string>();
    proxy.setRule((request) => {
      const uploadId = /[?&]uploadId=([^&]+)/.exec(request.url ?? '')?.[1];
      if (request.method !== 'POST' || uploadId === undefined || refused.has(uploadId)) return undefined;
      refused.add(uploadId);
      return { kind: 'refuse', status: 400, code: 'InvalidPart' };
    });
    const far = await engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    const { ended } = await engine.startSpeedTest(far, {
      bucket,
      prefix: 'bench/',
      budgetMs: 10_000,
      grid: GRID,
      signal: new AbortController().signal,
    });
    const outcome = await ended;
    expect(outcome.state).toBe('done');
    const completes = proxy.seen.filter((seen) => seen.method === 'POST' && /[?&]uploadId=/.test(seen.url));
    // Each upload: refused once, then completed; the parts listed before each complete.
    expect(refused.size).toBeGreaterThan(0);
    expect(completes).toHaveLength(2 * refused.size);
    const listings = proxy.seen.filter((seen) => seen.method === 'GET' && /[?&]uploadId=/.test(seen.url));
    expect(listings.length).toBeGreaterThanOrEqual(completes.length);
    // The store answered the listings: the parts completed are the ones it listed, not a fallback.
    expect(listings.map((seen) => seen.status)).toEqual(listings.map(() => 200));
    if (outcome.state === 'done') {
      const down = outcome.result.cells.filter((cell) => cell.grid === 'parts' && cell.direction === 'down');
      expect(down.some((cell) => cell.requests > 0)).toBe(true);
    }
    expect(outcome.cleanup.clean).toBe(true);
    expect(await everythingIn()).toEqual(['version bench/keep.txt']);
  } finally {
    await proxy.close();
  }
});

it('refuses a folder whose name has a control character before it writes anything', async () => {
  const start = engine.startSpeedTest(connection, {
    bucket,
    prefix: 'bench/a\u001b[31m/',
    budgetMs: 10_000,
    grid: GRID,
    signal: new AbortController().signal,
  });
  await expect(start).rejects.toMatchObject({ code: 'UnsafeKey' });
  expect(await everythingIn()).toEqual(['version bench/keep.txt']);
});
