// Auto on the real data path: MinIO behind the fault proxy, as a store that throttles past some
// concurrency and as a far-away store. The engine's threads follow what its requests measure.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, onTestFinished } from 'vitest';
import { MIB } from '../../src/byte-units.ts';
import { serverConfig, setUpEngine } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';
import { slowDownBeyond, startFaultProxy } from '../support/fault-proxy.ts';
import { seededRandom } from '../support/seeded-random.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  // Auto is the default; enough tries that a file turned away a few times by SlowDown still lands.
  t = await setUpEngine({ settings: { maxAttempts: 20 } });
});
afterEach(() => t.close());

async function throughProxy() {
  const proxy = await startFaultProxy(serverConfig().endpoint!);
  onTestFinished(() => proxy.close());
  return { proxy, connection: await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint }) };
}

async function smallFiles(count: number): Promise<string> {
  const folder = path.join(t.dir, 'many');
  await mkdir(folder);
  for (let i = 0; i < count; i++) await writeFile(path.join(folder, `f${i}.txt`), `file ${i}\n`);
  return folder;
}

it('comes down from 64 threads when the store answers SlowDown past 16 requests in flight, and the job completes', async () => {
  expect(t.engine.settings).toMatchObject({ threads: 'auto', partSizeBytes: 'auto' });
  const { proxy, connection } = await throughProxy();
  // Past 16 in flight the store turns PUTs away; those it takes, it answers after 40 ms (a far store).
  proxy.setRule((request) =>
    request.method === 'PUT' && proxy.inFlight.now > 16 ? { kind: 'slow-down' } : { kind: 'delay', ms: 40 },
  );
  const folder = await smallFiles(3_000);
  const job = t.engine.upload(connection, { sources: [folder], bucket: t.bucket, destination: '' });
  const seen: number[] = [];
  const reasons = new Set<string>();
  const watch = setInterval(() => {
    const auto = t.engine.stats().auto!;
    seen.push(auto.threads);
    reasons.add(auto.reason!);
  }, 50);
  const end = await job.finished();
  clearInterval(watch);
  expect(end.state.status).toBe('completed');
  expect(end.progress.objectsDone).toBe(3_000);
  expect(seen[0]).toBe(64);
  expect(Math.min(...seen)).toBeLessThanOrEqual(32);
  expect(t.engine.stats().auto!.threads).toBeLessThan(64);
  expect([...reasons]).toContainEqual(expect.stringMatching(/^Fewer threads \(\d+\): the store is throttling/));
});

it('is refused less than the fixed 64 it starts from by a store that serves 32 requests at once', async () => {
  // The goal's store (issue 29 §1, the bench's throttled row): throttling that grows with load, so backing off
  // pays. The same 1,500 files go up pinned at 64 threads, then on Auto; Auto backs off and needs fewer retries.
  const { proxy, connection } = await throughProxy();
  // Seeded: the refusals follow the load alone, the same draws each run.
  const beyondCapacity = slowDownBeyond(32, proxy.inFlight, seededRandom(29));
  proxy.setRule((request) => beyondCapacity(request) ?? { kind: 'delay', ms: 40 });
  const folder = await smallFiles(1_500);
  const upload = async (destination: string) => {
    const end = await t.engine.upload(connection, { sources: [folder], bucket: t.bucket, destination }).finished();
    expect(end.state.status).toBe('completed');
    expect(end.progress.objectsDone).toBe(1_500);
    return end.progress.retries ?? 0;
  };
  t.engine.updateSettings({ threads: 64 });
  const pinned = await upload('pinned/');
  t.engine.updateSettings({ threads: 'auto' });
  const auto = await upload('auto/');
  expect(pinned).toBeGreaterThan(0);
  // Fewer, not a set share fewer: until Auto's first judgement (a few seconds in, later on a busy machine) it
  // runs at 64 and is refused as the pinned run is; after it, far less (22-31 against 403-510 on a quiet one).
  expect(auto, `Auto ${auto} retries, pinned at 64 ${pinned}`).toBeLessThan(pinned);
  expect(t.engine.stats().auto!.threads).toBeLessThan(64);
});

it('goes above 64 threads for small objects behind latency, where more threads move more', async () => {
  const { proxy, connection } = await throughProxy();
  // A quarter of a second a request: the store, not this computer's CPU, is what holds the objects back
  // (Auto adds no threads to a busy CPU, and a shared test machine's is often busy at a few hundred a second).
  proxy.setRule(() => ({ kind: 'delay', ms: 250 }));
  const folder = await smallFiles(2_000);
  const end = await t.engine.upload(connection, { sources: [folder], bucket: t.bucket, destination: '' }).finished();
  expect(end.state.status).toBe('completed');
  const stats = t.engine.stats().auto!;
  expect(stats.peakThreads).toBeGreaterThan(64);
  expect(proxy.inFlight.peak).toBeGreaterThan(64);
});

it('keeps a pinned thread count, whatever it measures', async () => {
  t.engine.updateSettings({ threads: 8 });
  const { proxy, connection } = await throughProxy();
  proxy.setRule(() => ({ kind: 'delay', ms: 100 }));
  const folder = await smallFiles(300);
  const end = await t.engine.upload(connection, { sources: [folder], bucket: t.bucket, destination: '' }).finished();
  expect(end.state.status).toBe('completed');
  expect(proxy.inFlight.peak).toBeLessThanOrEqual(8);
  expect(t.engine.stats().auto).toMatchObject({ threads: 8, peakThreads: 8, reason: undefined });
});

it('barge cp --json says the threads and part size it used: on Auto by default, pinned by a number', async () => {
  const folder = await smallFiles(20);
  const onAuto = await runCli(['cp', '-r', '--json', folder, `s3://${t.bucket}/auto/`]);
  expect(onAuto.code).toBe(0);
  expect(JSON.parse(onAuto.stdout).tuning).toMatchObject({
    threadsSetting: 'auto',
    threads: 64,
    peakThreads: 64,
    partSizeSetting: 'auto',
    partSizeBytes: 16 * MIB,
    reason: '64 threads: the starting point, measuring',
  });
  const pinned = await runCli([
    'cp',
    '-r',
    '--json',
    '--threads',
    '8',
    '--part-size',
    '32MiB',
    folder,
    `s3://${t.bucket}/pinned/`,
  ]);
  expect(pinned.code).toBe(0);
  expect(JSON.parse(pinned.stdout).tuning).toEqual({
    threadsSetting: 8,
    threads: 8,
    peakThreads: 8,
    partSizeSetting: 32 * MIB,
    partSizeBytes: 32 * MIB,
  });
  const explicit = await runCli([
    'cp',
    '-r',
    '--json',
    '--threads',
    'auto',
    '--part-size',
    'auto',
    folder,
    `s3://${t.bucket}/again/`,
  ]);
  expect(JSON.parse(explicit.stdout).tuning).toMatchObject({ threadsSetting: 'auto', partSizeSetting: 'auto' });
  const wrong = await runCli(['cp', '--threads', 'fast', folder, `s3://${t.bucket}/x/`]);
  expect(wrong.code).not.toBe(0);
  expect(wrong.stderr).toContain('--threads takes auto or a whole number, not "fast".');
});
