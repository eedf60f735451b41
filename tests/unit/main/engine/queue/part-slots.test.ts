import { describe, expect, it } from 'vitest';
import { PartSlots } from '../../../../../main/engine/queue/part-slots.ts';

/** A promise and the function that settles it. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

describe('PartSlots', () => {
  it('runs at most the limit at once, and the next one as soon as a slot is given back, even by a failure', async () => {
    const slots = new PartSlots(() => 2);
    const works = [deferred(), deferred(), deferred()];
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const runs = works.map((work, index) =>
      slots.run(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        try {
          await work.promise;
        } finally {
          running -= 1;
        }
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    works[0]!.reject(new Error('part failed'));
    await expect(runs[0]).rejects.toThrow('part failed');
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    works[1]!.resolve();
    works[2]!.resolve();
    await Promise.all(runs.slice(1));
    expect(most).toBe(2);
  });

  it('reads the limit again as each slot is taken (the Threads setting lowered while the job runs)', async () => {
    let limit = 2;
    const slots = new PartSlots(() => limit);
    const first = deferred();
    const started: number[] = [];
    const one = slots.run(async () => {
      started.push(1);
      await first.promise;
    });
    limit = 1;
    const two = slots.run(async () => {
      started.push(2);
    });
    await Promise.resolve();
    expect(started).toEqual([1]);
    first.resolve();
    await Promise.all([one, two]);
    expect(started).toEqual([1, 2]);
  });
});
