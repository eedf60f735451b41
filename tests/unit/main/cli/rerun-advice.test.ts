// The command line's advice after failed items, from what the engine says of each failure.

import { describe, expect, it } from 'vitest';
import { toJobError } from '../../../../main/engine/errors.ts';
import { rerunAdvice } from '../../../../main/cli/rerun-advice.ts';
import type { ItemError, JobSnapshot } from '../../../../src/jobs.ts';
import { BargeError } from '../../../../src/errors.ts';

function ended(errors: readonly unknown[], failed = errors.length, kind: JobSnapshot['kind'] = 'upload') {
  const itemErrors: ItemError[] = errors.map((error, n) => ({ item: `f${n}`, ...toJobError(error, `upload f${n}`) }));
  const progress = {
    objectsDone: 1,
    objectsFailed: failed,
    objectsTotal: failed + 1,
    bytesDone: 0,
    bytesTotal: 0,
    totalsKnown: true,
    bytesPerSecond: 0,
    etaSeconds: undefined,
    retries: 0,
  };
  return {
    kind,
    state: { status: 'failed' as const, error: itemErrors[0] ?? { code: 'X', message: 'x' } },
    progress,
    itemErrors,
  };
}

const storeError = (name: string, status: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });

describe('advice after failed items', () => {
  it("says nothing of running it again after a store's 501 for a feature it lacks", () => {
    expect(rerunAdvice(ended([storeError('NotImplemented', 501)]))).toEqual([]);
  });

  it('counts items past those kept as ones that may pass', () => {
    expect(rerunAdvice(ended([storeError('NotImplemented', 501)], 3))).toEqual([
      'To retry the 2 items that may pass now, run the same command again: what was done is skipped (the other 1 item would fail the same way, as said above).',
    ]);
  });

  it('names objects for an upload and files for a download already there', () => {
    const exists = new BargeError('FileExists', 'a.txt is already there; it was not replaced.');
    expect(rerunAdvice(ended([exists, exists], 2, 'download'))).toEqual([
      '2 files were already there and not replaced: to decide for them, run the same command again with --if-exists overwrite, skip, rename or newer.',
    ]);
    expect(rerunAdvice(ended([exists], 1, 'upload'))).toEqual([
      '1 object was already there and not replaced: to decide for it, run the same command again with --if-exists overwrite, skip, rename or newer.',
    ]);
  });

  it('says nothing after a job that failed as a whole', () => {
    const whole = ended([storeError('SlowDown', 503)]);
    expect(rerunAdvice({ ...whole, state: { ...whole.state, whole: true } })).toEqual([]);
  });
});
