import { describe, expect, it } from 'vitest';
import { MIB } from '../../../../../src/byte-units.ts';
import { PartSlots, STREAMED_COPY_MEMORY_BYTES } from '../../../../../main/engine/queue/part-slots.ts';

/** A promise and the function that settles it. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

/** Start a part of `bytes` that holds until its deferred settles; `started` records its index. */
function holding(slots: PartSlots, bytes: number, index: number, started: number[], until: Promise<void>) {
  return slots.run(bytes, async () => {
    started.push(index);
    await until;
  });
}

/** Let every settled promise's continuation run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('PartSlots', () => {
  it('holds at most its budget of bytes, and lets the next part in when bytes are given back, even by a failure', async () => {
    const slots = new PartSlots(() => 10);
    const works = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = works.map((work, index) => holding(slots, 4, index, started, work.promise));
    await settle();
    expect(started).toEqual([0, 1]);
    works[0]!.reject(new Error('part failed'));
    await expect(runs[0]).rejects.toThrow('part failed');
    await settle();
    expect(started).toEqual([0, 1, 2]);
    works[1]!.resolve();
    works[2]!.resolve();
    await Promise.all(runs.slice(1));
  });

  it('bounds a copy by its memory budget, not threads × part size: 64 parts of 16 MiB are not all held', async () => {
    const slots = new PartSlots();
    const release = deferred();
    const started: number[] = [];
    const runs = Array.from({ length: 64 }, (_, index) => holding(slots, 16 * MIB, index, started, release.promise));
    await settle();
    expect(started.length * 16 * MIB).toBe(STREAMED_COPY_MEMORY_BYTES);
    release.resolve();
    await Promise.all(runs);
    expect(started.length).toBe(64);
  });

  it('always admits two parts, however large (the parts of a very large object)', async () => {
    const slots = new PartSlots(() => 10);
    const release = deferred();
    const started: number[] = [];
    const runs = [0, 1, 2].map((index) => holding(slots, 100, index, started, release.promise));
    await settle();
    expect(started).toEqual([0, 1]);
    release.resolve();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2]);
  });
});
