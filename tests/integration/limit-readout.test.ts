// What limits a transfer, induced one condition at a time on the real MinIO and read back from the
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
// engine's stats as the transfer runs: latency and a bandwidth cap through toxiproxy, 503 SlowDown
// through the fault proxy, the user's Max speed, and a client whose CPU is saturated.
//
// The stats are read four times a second while the job runs; the readout named most often must be
// the induced condition (the first readings may rightly say nothing: too few requests have ended).

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { KIB, MIB } from '../../src/byte-units.ts';
import type { LimitKind, LimitReadout } from '../../src/contract/models.ts';
import type { Engine, Job } from '../../main/engine/engine.ts';
import { CPU_BUSY } from '../../main/engine/queue/limit-readout.ts';
import type { EngineOptions } from '../../main/engine/engine.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { randomFile, serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { startToxiproxy } from '../support/toxiproxy.ts';
import type { ToxiproxyProxy, ToxiproxyServer } from '../support/toxiproxy.ts';

const READ_EVERY_MS = 250;
/** The busy loop's turns: long enough to fill the loop, short enough for the download to go on between them. */
const BUSY_SLICE_MS = 20;
const BUSY_BEFORE_MS = 3000;
/** How long the store fails every PUT: several attempts of each, fewer than the job's six. */
const FAILING_FOR_MS = 1500;

let toxiproxyServer: ToxiproxyServer;
let toxiproxy: ToxiproxyProxy;
let faultProxy: FaultProxy;
/** The fault proxy behind toxiproxy: a store that fails, far away. */
let farFaultProxy: ToxiproxyProxy;
beforeAll(async () => {
  toxiproxyServer = await startToxiproxy();
  toxiproxy = await toxiproxyServer.createProxy('limit-readout', serverConfig().endpoint!);
  faultProxy = await startFaultProxy(serverConfig().endpoint!);
  farFaultProxy = await toxiproxyServer.createProxy('limit-readout-far-faults', faultProxy.endpoint);
});
afterAll(async () => {
  await faultProxy?.close();
  await toxiproxyServer?.stop();
});

let t: TestContext | undefined;
afterEach(async () => {
  await toxiproxy.removeAllToxics();
  await farFaultProxy.removeAllToxics();
  faultProxy.setRule(() => undefined);
  await t?.close();
  t = undefined;
});

/** An engine on the test server (for the bucket) and a connection of it through `endpoint`. */
async function engineThrough(endpoint: string | undefined, options: EngineOptions): Promise<[Engine, S3Connection]> {
  t = await setUpEngine(options);
  const connection = endpoint ? await t.engine.connect({ ...serverConfig(), endpoint }) : t.connection;
  return [t.engine, connection];
}

/** Every readout while `job` runs, a few times a second. */
async function readoutsWhile(engine: Engine, job: Job): Promise<(LimitReadout | undefined)[]> {
  const readouts: (LimitReadout | undefined)[] = [];
  const timer = setInterval(() => readouts.push(engine.stats().limit), READ_EVERY_MS);
  try {
    const end = await job.finished();
    expect(end.state).toEqual({ status: 'completed' });
  } finally {
    clearInterval(timer);
  }
  return readouts;
}

/** The kind named most often (undefined when none was named). */
function mostNamed(readouts: readonly (LimitReadout | undefined)[]): LimitKind | undefined {
  const counts = new Map<LimitKind, number>();
  for (const readout of readouts) if (readout) counts.set(readout.kind, (counts.get(readout.kind) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

async function smallFiles(count: number, size: number): Promise<string> {
  const folder = path.join(t!.dir, 'small');
  await mkdir(folder);
  for (let index = 0; index < count; index++) await randomFile(folder, `f${String(index).padStart(4, '0')}`, size);
  return folder;
}

it('many small uploads behind 40 ms of latency: latency-bound, with the wait share behind it', async () => {
  const [engine, connection] = await engineThrough(toxiproxy.endpoint, { settings: { threads: 4 } });
  const folder = await smallFiles(300, 4 * KIB);
  await toxiproxy.addToxic('latency', { type: 'latency', attributes: { latency: 40 } }, { stream: 'downstream' });
  const job = engine.upload(connection, { sources: [folder], bucket: t!.bucket, destination: '' });
  const readouts = await readoutsWhile(engine, job);
  expect(mostNamed(readouts)).toBe('latency');
  const latency = readouts.find((readout) => readout?.kind === 'latency')!;
  expect(latency.words).toMatch(/^Latency-bound: .*more threads would help/);
  expect(latency.figures.find((figure) => figure.name === 'waitShare')!.value).toBeGreaterThan(0.6);
});

it('a large download through a bandwidth cap of 2.5 MB/s a connection: bandwidth-bound', async () => {
  const [engine, connection] = await engineThrough(toxiproxy.endpoint, {
    settings: { threads: 4, partSizeBytes: 5 * MIB },
  });
  const source = await randomFile(t!.dir, 'large.bin', 40 * MIB);
  const sent = await engine
    .upload(t!.connection, { sources: [source.path], bucket: t!.bucket, destination: 'large.bin' })
    .finished();
  expect(sent.state).toEqual({ status: 'completed' });
  await toxiproxy.addToxic('cap', { type: 'bandwidth', attributes: { rate: 2500 } }, { stream: 'downstream' });
  const out = path.join(t!.dir, 'out');
  await mkdir(out);
  const job = engine.download(connection, { bucket: t!.bucket, keys: ['large.bin'], targetFolder: out });
  const readouts = await readoutsWhile(engine, job);
  expect(mostNamed(readouts)).toBe('bandwidth');
  expect(readouts.find((readout) => readout?.kind === 'bandwidth')!.words).toMatch(/more threads will not help/);
  // Not even in the first seconds: the upload's PUTs just before (mostly waiting for the store to take the
  // parts) are not the download's, and the download's bodiless first requests (its HEAD) are all waiting
  // while its GETs, moving bodies, have not yet run long enough to count in flight.
  expect(readouts.map((readout) => readout?.kind)).not.toContain('latency');
});

// One request that runs for many seconds (a large file in one GET or PUT, a large part on a slow
// link) ends only at the end: the readout reads it while it is still in flight, not after.
it('one large GET through a bandwidth cap of 2.5 MB/s: bandwidth-bound while the one request runs', async () => {
  const [engine, connection] = await engineThrough(toxiproxy.endpoint, {
    settings: { threads: 1, partSizeBytes: 64 * MIB },
  });
  const source = await randomFile(t!.dir, 'single.bin', 20 * MIB);
  const sent = await engine
    .upload(t!.connection, { sources: [source.path], bucket: t!.bucket, destination: 'single.bin' })
    .finished();
  expect(sent.state).toEqual({ status: 'completed' });
  await toxiproxy.addToxic('cap', { type: 'bandwidth', attributes: { rate: 2500 } }, { stream: 'downstream' });
  const out = path.join(t!.dir, 'out');
  await mkdir(out);
  const job = engine.download(connection, { bucket: t!.bucket, keys: ['single.bin'], targetFolder: out });
  expect(mostNamed(await readoutsWhile(engine, job))).toBe('bandwidth');
});

it('one large PUT through a bandwidth cap of 2.5 MB/s: bandwidth-bound while the one request runs', async () => {
  const [engine, connection] = await engineThrough(toxiproxy.endpoint, {
    settings: { threads: 1, partSizeBytes: 64 * MIB },
  });
  const source = await randomFile(t!.dir, 'single.bin', 20 * MIB);
  await toxiproxy.addToxic('cap', { type: 'bandwidth', attributes: { rate: 2500 } }, { stream: 'upstream' });
  const job = engine.upload(connection, { sources: [source.path], bucket: t!.bucket, destination: 'single.bin' });
  expect(mostNamed(await readoutsWhile(engine, job))).toBe('bandwidth');
});

it('a store answering 503 SlowDown to one PUT in three: throttled', async () => {
  const [engine, connection] = await engineThrough(faultProxy.endpoint, { settings: { threads: 8 } });
  const folder = await smallFiles(120, KIB);
  let puts = 0;
  faultProxy.setRule((request) => (request.method === 'PUT' && ++puts % 3 === 0 ? { kind: 'slow-down' } : undefined));
  const job = engine.upload(connection, { sources: [folder], bucket: t!.bucket, destination: '' });
  const readouts = await readoutsWhile(engine, job);
  expect(mostNamed(readouts)).toBe('throttled');
  const throttled = readouts.find((readout) => readout?.kind === 'throttled')!;
  expect(throttled.figures.find((figure) => figure.name === 'throttledRequests')!.value).toBeGreaterThan(0);
});

// A failed request moved no body the store took: its time is no measure of the link, and a far store
// failing every request is not "latency-bound, more threads would help".
it('a far store failing every PUT with 500 InternalError: the failures name no limit (not latency)', async () => {
  await farFaultProxy.addToxic('latency', { type: 'latency', attributes: { latency: 40 } }, { stream: 'downstream' });
  const [engine, connection] = await engineThrough(farFaultProxy.endpoint, { settings: { threads: 4 } });
  const folder = await smallFiles(40, KIB);
  let failing = true;
  faultProxy.setRule((request) =>
    failing && request.method === 'PUT' ? { kind: 'refuse', status: 500, code: 'InternalError' } : undefined,
  );
  const job = engine.upload(connection, { sources: [folder], bucket: t!.bucket, destination: '' });
  const readouts: (LimitReadout | undefined)[] = [];
  const timer = setInterval(() => readouts.push(engine.stats().limit), READ_EVERY_MS);
  await setTimeout(FAILING_FOR_MS);
  clearInterval(timer);
  expect(engine.signals.summary(FAILING_FOR_MS / 1000).failed).toBeGreaterThanOrEqual(3);
  failing = false;
  await job.finished();
  expect(readouts.flatMap((readout) => (readout ? [readout.kind] : []))).toEqual([]);
});

it("an upload under a Max speed of 2 MiB/s: the user's own cap", async () => {
  const [engine, connection] = await engineThrough(undefined, {
    settings: { threads: 4, partSizeBytes: 5 * MIB, maxRate: 2 * MIB },
  });
  const source = await randomFile(t!.dir, 'capped.bin', 12 * MIB);
  const job = engine.upload(connection, { sources: [source.path], bucket: t!.bucket, destination: 'capped.bin' });
  const readouts = await readoutsWhile(engine, job);
  expect(mostNamed(readouts)).toBe('max-speed');
  expect(readouts.find((readout) => readout?.kind === 'max-speed')!.words).toMatch(/^Your Max speed/);
});

const SHARE_FIGURES = ['eventLoopUtilisation', 'processCpuShare', 'workerUtilisation'];

/** Keep this process's event loop busy hashing, 20 ms at a time, until the returned function is called. */
function hashBusily(): () => void {
  let running = true;
  const block = Buffer.alloc(MIB);
  const spin = () => {
    if (!running) return;
    const until = performance.now() + BUSY_SLICE_MS;
    while (performance.now() < until) createHash('sha256').update(block).digest();
    setImmediate(spin);
  };
  spin();
  return () => {
    running = false;
  };
}

/** Run `work` with this process (every thread of it) on core 0 alone. */
async function onOneCore<T>(work: () => Promise<T>): Promise<T> {
  const everyCore = execFileSync('taskset', ['-pc', String(process.pid)], { encoding: 'utf8' })
    .split(':')[1]!
    .trim();
  execFileSync('taskset', ['-a', '-pc', '0', String(process.pid)]);
  try {
    return await work();
  } finally {
    execFileSync('taskset', ['-a', '-pc', everyCore, String(process.pid)]);
  }
}

it('a client on one core, downloading and checking a large object beside a SHA-256 loop: the CPU', async () => {
  const [engine, connection] = await engineThrough(undefined, { settings: { threads: 8, partSizeBytes: 8 * MIB } });
  const source = await randomFile(t!.dir, 'big.bin', 256 * MIB);
  const sent = await engine
    .upload(connection, { sources: [source.path], bucket: t!.bucket, destination: 'big.bin' })
    .finished();
  expect(sent.state).toEqual({ status: 'completed' });
  const out = path.join(t!.dir, 'out');
  await mkdir(out);
  const readouts = await onOneCore(async () => {
    const stop = hashBusily();
    try {
      // The CPU was busy before the transfer began, as a machine busy with something else is: the
      // readout, which looks a few seconds back, has seen it by the time the download starts.
      await setTimeout(BUSY_BEFORE_MS);
      return await readoutsWhile(
        engine,
        engine.download(connection, { bucket: t!.bucket, keys: ['big.bin'], targetFolder: out }),
      );
    } finally {
      stop();
    }
  });
  expect(mostNamed(readouts)).toBe('cpu');
  const cpu = readouts.find((readout) => readout?.kind === 'cpu')!;
  expect(cpu.words).toMatch(/^This computer's CPU: .*more threads will not help/);
  // The readout enters on the busiest share it sees (the main thread, the process or the hashing
  // threads): with every thread on one core, the process's share can pass the level first.
  const shares = cpu.figures.filter((figure) => SHARE_FIGURES.includes(figure.name)).map((figure) => figure.value);
  expect(Math.max(...shares)).toBeGreaterThanOrEqual(CPU_BUSY.enter);
});
