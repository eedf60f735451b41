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

  it('lends each part a buffer of its size, used again by the next part rather than left to the collector', async () => {
    const slots = new PartSlots(() => 100);
    const lent: Buffer[] = [];
    const lendOne = (bytes: number) => slots.run(bytes, async (buffer) => void lent.push(buffer));
    await lendOne(40);
    await lendOne(40);
    await lendOne(30);
    expect(lent.map((buffer) => buffer.length)).toEqual([40, 40, 30]);
    // One memory for all three: the second and third parts had the first's buffer.
    expect(lent[1]!.buffer).toBe(lent[0]!.buffer);
    expect(lent[2]!.buffer).toBe(lent[0]!.buffer);
    // Two at once cannot share one: each holds its own while it runs.
    const release = deferred();
    const both = [0, 1].map(() => slots.run(40, async (buffer) => (lent.push(buffer), await release.promise)));
    await settle();
    expect(lent[3]!.buffer).not.toBe(lent[4]!.buffer);
    release.resolve();
    await Promise.all(both);
  });

  it('keeps no more spare buffers than its budget: what is held and kept fits in it together', async () => {
    const slots = new PartSlots(() => 100);
    const release = deferred();
    const lent: Buffer[] = [];
    // Three parts of 40 (two admitted, the third waits), then each given back in turn.
    const runs = [0, 1, 2].map(() => slots.run(40, async (buffer) => (lent.push(buffer), await release.promise)));
    await settle();
    release.resolve();
    await Promise.all(runs);
    // Two buffers were made (80 bytes kept at most of 100); a third part of 40 reuses one, a fourth another.
    const after: Buffer[] = [];
    const hold = deferred();
    const again = [0, 1].map(() => slots.run(40, async (buffer) => (after.push(buffer), await hold.promise)));
    await settle();
    hold.resolve();
    await Promise.all(again);
    const made = new Set(lent.map((buffer) => buffer.buffer));
    expect(made.size).toBe(2);
    expect(after.every((buffer) => made.has(buffer.buffer))).toBe(true);
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
