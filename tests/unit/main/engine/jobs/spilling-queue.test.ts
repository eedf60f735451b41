import { expect, it } from 'vitest';
import { SpillingQueue } from '../../../../../main/engine/jobs/spilling-queue.ts';

it('gives items back first in, first out, moving those past its limit to disk and back', () => {
  const queue = new SpillingQueue<{ n: number }>(3);
  const taken: number[] = [];
  for (let n = 0; n < 5; n++) queue.push({ n });
  expect(queue.spilled).toBe(true);
  expect(queue.length).toBe(5);
  taken.push(queue.shift()!.n, queue.shift()!.n);
  // Pushed while some wait on disk: after them.
  for (let n = 5; n < 9; n++) queue.push({ n });
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) taken.push(item.n);
  expect(taken).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  expect(queue.length).toBe(0);
  expect(queue.spilled).toBe(false);
  queue.close();
});

it('stays in memory, in order, while it is emptied as fast as it fills', () => {
  const queue = new SpillingQueue<{ n: number }>(4);
  const taken: number[] = [];
  for (let n = 0; n < 20_000; n += 2) {
    queue.push({ n });
    queue.push({ n: n + 1 });
    taken.push(queue.shift()!.n, queue.shift()!.n);
  }
  expect(queue.spilled).toBe(false);
  expect(taken.every((n, i) => n === i)).toBe(true);
  expect(queue.shift()).toBeUndefined();
  queue.close();
});
