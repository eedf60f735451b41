// Max speed: one cap on every body byte of every running job, changeable while they run.
//
// Measured as a user sees it, from the job's progress events: the bytes it reports over a window,
// divided by the window. The tolerances are the issue's: within 10% over 10 s, and a new cap in
// force within a second of the change.

import { afterEach, beforeEach, expect, it } from 'vitest';
import { MIB } from '../../src/byte-units.ts';
import type { Job } from '../../main/engine/engine.ts';
import { randomFile, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 16 } });
});
afterEach(async () => {
  await t.close();
});

interface Sample {
  readonly at: number;
  readonly bytes: number;
}

/** The job's bytes done, as each progress batch reports them, with when the batch came. */
function sampled(job: Job): Sample[] {
  const samples: Sample[] = [];
  const stop = t.engine.onProgress((batch) => {
    const mine = batch.find((update) => update.id === job.id);
    if (mine) samples.push({ at: performance.now(), bytes: mine.progress.bytesDone });
  });
  void job.finished().finally(stop);
  return samples;
}

/** Bytes a second between the first samples at or after `from` and `to` (ms, performance.now()). */
function rateBetween(samples: readonly Sample[], from: number, to: number): number {
  const start = samples.find((sample) => sample.at >= from)!;
  const end = samples.find((sample) => sample.at >= to) ?? samples.at(-1)!;
  return ((end.bytes - start.bytes) * 1000) / (end.at - start.at);
}

const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('holds an upload to Max speed: over 10 s, within 10% of the cap', async () => {
  const cap = 4_000_000;
  const file = await randomFile(t.dir, 'big.bin', 48 * MIB);
  t.engine.updateSettings({ maxRate: cap });
  const job = t.engine.upload(t.connection, { sources: [file.path], bucket: t.bucket, destination: 'big.bin' });
  const samples = sampled(job);
  const started = performance.now();
  // A second to settle (each request's first chunk goes at once), then ten seconds measured.
  await until(11_500);
  const rate = rateBetween(samples, started + 1_000, started + 11_000);
  t.engine.updateSettings({ maxRate: 0 });
  expect((await job.finished()).state.status).toBe('completed');
  expect(rate).toBeGreaterThan(cap * 0.9);
  expect(rate).toBeLessThan(cap * 1.1);
});

it('a new Max speed while a download runs is in force within a second', async () => {
  const file = await randomFile(t.dir, 'big.bin', 40 * MIB);
  await t.engine.upload(t.connection, { sources: [file.path], bucket: t.bucket, destination: 'big.bin' }).finished();
  const slow = 2_000_000;
  const fast = 8_000_000;
  t.engine.updateSettings({ maxRate: slow });
  const job = t.engine.download(t.connection, { bucket: t.bucket, keys: ['big.bin'], targetFolder: `${t.dir}/out` });
  const samples = sampled(job);
  const started = performance.now();
  await until(3_000);
  const slowRate = rateBetween(samples, started + 1_000, started + 3_000);
  t.engine.updateSettings({ maxRate: fast });
  const changed = performance.now();
  await until(3_200);
  // From one second after the change: the new cap, already.
  const fastRate = rateBetween(samples, changed + 1_000, changed + 3_000);
  t.engine.updateSettings({ maxRate: 0 });
  expect((await job.finished()).state.status).toBe('completed');
  expect(slowRate).toBeGreaterThan(slow * 0.9);
  expect(slowRate).toBeLessThan(slow * 1.1);
  expect(fastRate).toBeGreaterThan(fast * 0.9);
  expect(fastRate).toBeLessThan(fast * 1.1);
});

it('every body byte passes the one gate: small files and parts up, ranges and a browser stream down', async () => {
  const gate = t.connection.gate;
  const sizes = [...Array.from({ length: 20 }, (_, i) => 1_000 + i), 6 * MIB];
  for (const [i, size] of sizes.entries()) await randomFile(t.dir, `up/f${i}.bin`, size);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const [up, down] = [gate.bytesUp, gate.bytesDown];
  const uploaded = await t.engine
    .upload(t.connection, { sources: [`${t.dir}/up`], bucket: t.bucket, destination: '' })
    .finished();
  expect(uploaded.state.status).toBe('completed');
  expect(gate.bytesUp - up).toBe(total);
  const downloaded = await t.engine
    .download(t.connection, { bucket: t.bucket, prefixes: ['up/'], targetFolder: `${t.dir}/down` })
    .finished();
  expect(downloaded.state.status).toBe('completed');
  expect(gate.bytesDown - down).toBe(total);
  const stream = await t.engine.openObject(t.connection, t.bucket, 'up/f20.bin');
  for await (const _chunk of stream.body);
  expect(gate.bytesDown - down).toBe(total + 6 * MIB);
});

it("cat's ranges and pipe's parts pass the same gate", async () => {
  const gate = t.connection.gate;
  const size = 11 * MIB;
  const bytes = Buffer.alloc(size, 7);
  const up = gate.bytesUp;
  // Parts of the part size (the engine's default, 5 MiB or more): three parts of an 11 MiB stream.
  const stored = await t.engine.uploadStream(t.connection, {
    bucket: t.bucket,
    key: 'piped.bin',
    source: (async function* () {
      for (let at = 0; at < size; at += MIB) yield bytes.subarray(at, at + MIB);
    })(),
  });
  expect(stored.size).toBe(size);
  expect(gate.bytesUp - up).toBe(size);
  const down = gate.bytesDown;
  const stream = await t.engine.openObjectRanged(t.connection, t.bucket, 'piped.bin');
  for await (const _chunk of stream.body);
  expect(gate.bytesDown - down).toBe(size);
});
