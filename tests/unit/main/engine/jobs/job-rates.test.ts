// A job's live rates and ETA: objects a second beside bytes a second, and the time left from
// whichever of the two is known (a job of small files moves objects, not bytes).

import { expect, it } from 'vitest';
import { Job } from '../../../../../main/engine/jobs/job.ts';
import type { JobRuntime } from '../../../../../main/engine/jobs/job.ts';
import { RequestScheduler } from '../../../../../main/engine/queue/request-scheduler.ts';
import { DEFAULT_SETTINGS } from '../../../../../src/settings.ts';

/** A running job whose body the test drives by hand, on a clock the test moves; its body has begun. */
async function drivenJob() {
  const clock = { ms: 1_000_000, now: () => clock.ms };
  let runtime!: JobRuntime<unknown>;
  let finish!: () => void;
  const job = new Job({
    id: 'j',
    kind: 'download',
    name: 'many',
    scheduler: new RequestScheduler(4),
    settings: () => ({ ...DEFAULT_SETTINGS, threads: 64, partSizeBytes: 16 * 1024 * 1024 }),
    clock,
    onChange: () => undefined,
    body: async (given) => {
      runtime = given;
      await new Promise<void>((resolve) => (finish = resolve));
    },
  });
  job.start();
  // The body begins after the job's first phase (none here), a turn later.
  await new Promise((resolve) => setImmediate(resolve));
  return { job, clock, runtime: () => runtime, finish: () => finish() };
}

it('a job of small files shows objects a second, and an ETA from them where bytes give none', async () => {
  const { job, clock, runtime, finish } = await drivenJob();
  // 1,000 objects of 10 bytes: the listing has found them all.
  runtime().addTotals(1_000, 10_000);
  runtime().totalsFinal();
  expect(job.update().progress.etaSeconds).toBeUndefined();
  // 200 objects in two seconds, their bytes counted as they come: 100 a second, 1,000 bytes a second.
  for (let i = 0; i < 200; i++) {
    clock.ms += 10;
    runtime().addBytes(10);
    runtime().objectDone({ source: `s3://b/k${i}`, destination: `/d/k${i}`, size: 10 });
  }
  const progress = job.update().progress;
  expect(progress.objectsPerSecond).toBeCloseTo(100, -1);
  expect(progress.bytesPerSecond).toBeCloseTo(1_000, -2);
  // 800 objects left at 100 a second; 8,000 bytes at 1,000 a second: both say 8 s.
  expect(progress.etaSeconds).toBeCloseTo(8, 0);

  // The bytes are all counted (a listing's sizes were zero, say) but objects are left: the objects tell.
  runtime().addBytes(8_000);
  expect(job.update().progress.etaSeconds).toBeGreaterThan(7);
  finish();
  await job.finished();
  expect(job.update().progress).toMatchObject({ bytesPerSecond: 0, objectsPerSecond: 0, etaSeconds: undefined });
  expect(job.rates()).toEqual({ bytesPerSecond: 0, objectsPerSecond: 0 });
});

it('a single big file: no object has ended, and the bytes give the ETA', async () => {
  const { job, clock, runtime } = await drivenJob();
  runtime().addTotals(1, 100_000_000);
  runtime().totalsFinal();
  for (let i = 0; i < 20; i++) {
    clock.ms += 100;
    runtime().addBytes(1_000_000);
  }
  const progress = job.update().progress;
  expect(progress.objectsPerSecond).toBe(0);
  expect(progress.etaSeconds).toBeCloseTo(8, 0);
  job.cancel();
});

it('a paused job holds back what waits for it (a listing read ahead) until it resumes or is cancelled', async () => {
  const { job, runtime } = await drivenJob();
  await runtime().whilePaused();
  job.pause();
  let resumed = false;
  const waiting = runtime()
    .whilePaused()
    .then(() => (resumed = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  expect(resumed).toBe(false);
  job.resume();
  await waiting;
  job.pause();
  const cancelled = runtime().whilePaused();
  job.cancel();
  await cancelled;
});
