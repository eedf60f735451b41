// A job's totals, rates and ETA against a real store: the totals as soon as the listing has them,
// objects a second beside bytes a second, and the overall throughput that is the sum of the jobs
// running now.

import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { JobUpdate } from '../../src/jobs.ts';
import { concurrentEach } from '../../main/engine/queue/concurrent-each.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

const OBJECTS = 300;

let t: TestContext;
beforeEach(async () => {
  // One request at a time: the job runs long enough to be seen running.
  t = await setUpEngine({ settings: { threads: 1 } });
  await concurrentEach(
    Array.from({ length: OBJECTS }, (_, i) => i),
    () => 32,
    async (i) => {
      await t.connection.client.send(
        new PutObjectCommand({
          Bucket: t.bucket,
          Key: `small/${String(i).padStart(4, '0')}.txt`,
          Body: `object ${i} `.repeat(8),
        }),
      );
    },
  );
});
afterEach(() => t.close());

it('a download of small files knows its total while it runs, moves objects a second, and has an ETA', async () => {
  const seen: JobUpdate['progress'][] = [];
  const overall: number[] = [];
  const stop = t.engine.onProgress((batch) => {
    for (const update of batch) if (update.state.status === 'running') seen.push(update.progress);
    overall.push(t.engine.stats().bytesPerSecond);
  });
  const job = t.engine.download(t.connection, { bucket: t.bucket, prefixes: ['small/'], targetFolder: t.dir });
  const end = await job.finished();
  stop();
  expect(end.state.status).toBe('completed');
  const midway = seen.filter((p) => p.objectsDone > 0 && p.objectsDone < OBJECTS / 2);
  expect(midway.length).toBeGreaterThan(0);
  // Half way through, the listing has long ended: the total is known, not "counting…".
  expect(midway.every((p) => p.totalsKnown && p.objectsTotal === OBJECTS)).toBe(true);
  // And the pace is there: objects and bytes a second, and the time left.
  expect(
    midway.some(
      (p) => (p.objectsPerSecond ?? 0) > 0 && p.bytesPerSecond > 0 && p.etaSeconds !== undefined && p.etaSeconds > 0,
    ),
  ).toBe(true);
  expect(overall.some((rate) => rate > 0)).toBe(true);
  // Nothing runs now: the overall throughput is zero at once, not a fading average of the last seconds.
  expect(t.engine.stats()).toMatchObject({ bytesPerSecond: 0, objectsPerSecond: 0 });
  expect(end.progress).toMatchObject({ bytesPerSecond: 0, objectsPerSecond: 0 });
});
