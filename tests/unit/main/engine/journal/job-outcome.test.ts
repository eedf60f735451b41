import { expect, it } from 'vitest';
import { outcomeRecord, parseOutcome } from '../../../../../main/engine/journal/job-outcome.ts';
import type { JobOutcome } from '../../../../../main/engine/journal/job-outcome.ts';

const failed: JobOutcome = {
  state: { status: 'failed', error: { code: 'FileExists', message: '1 of 3 failed; first: b.txt is already there' } },
  progress: {
    objectsDone: 2,
    objectsFailed: 1,
    objectsTotal: 3,
    bytesDone: 20,
    bytesTotal: 30,
    totalsKnown: true,
    bytesPerSecond: 123,
    etaSeconds: 4,
    waitingForStore: false,
    retries: 2,
  },
  startedAt: 1000,
  endedAt: 2000,
  itemErrors: [{ item: 's3://b/in/b.txt', code: 'FileExists', message: 'b.txt is already there' }],
  itemWarnings: [],
};

it("keeps a job's state, counts, times and items, without the rate and ETA of its last moment", () => {
  expect(parseOutcome(outcomeRecord(failed))).toEqual({
    ...failed,
    progress: { ...failed.progress, bytesPerSecond: 0, etaSeconds: undefined, waitingForStore: undefined },
  });
});

it('reads a damaged or foreign record as none: the job then comes back as after a crash', () => {
  for (const text of [
    undefined,
    null,
    '',
    '{',
    '[]',
    '{"state":{"status":"exploded"}}',
    JSON.stringify({ ...failed, progress: { ...failed.progress, objectsDone: -1 } }),
    JSON.stringify({ ...failed, itemErrors: 'no' }),
  ]) {
    expect(parseOutcome(text)).toBeUndefined();
  }
});
