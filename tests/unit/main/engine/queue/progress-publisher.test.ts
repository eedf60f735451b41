import { describe, expect, it } from 'vitest';
import { ProgressPublisher } from '../../../../../main/engine/queue/progress-publisher.ts';
import type { Timer } from '../../../../../main/engine/queue/progress-publisher.ts';

/** A timer the test fires by hand. */
function manualTimer() {
  const pending = new Map<number, () => void>();
  let next = 0;
  const timer: Timer = {
    setTimeout: (callback) => {
      pending.set(++next, callback);
      return next;
    },
    clearTimeout: (handle) => pending.delete(handle as number),
  };
  return {
    timer,
    pending,
    fire: () => {
      for (const [id, cb] of [...pending]) {
        pending.delete(id);
        cb();
      }
    },
  };
}

describe('ProgressPublisher', () => {
  it('sends one batch per interval however many changes arrive', () => {
    const { timer, pending, fire } = manualTimer();
    const batches: string[][] = [];
    const publisher = new ProgressPublisher<string, string>({
      snapshot: (id) => `snap:${id}`,
      publish: (b) => batches.push(b),
      timer,
    });
    for (let i = 0; i < 1000; i++) publisher.changed(i % 2 ? 'a' : 'b');
    expect(pending.size).toBe(1);
    expect(batches).toEqual([]);
    fire();
    expect(batches).toEqual([['snap:b', 'snap:a']]);
    fire();
    expect(batches).toHaveLength(1);
  });

  it('flushes at once on demand and skips jobs that are gone', () => {
    const { timer, pending } = manualTimer();
    const batches: string[][] = [];
    const publisher = new ProgressPublisher<string, string>({
      snapshot: (id) => (id === 'gone' ? undefined : id),
      publish: (b) => batches.push(b),
      timer,
    });
    publisher.changed('a');
    publisher.changed('gone');
    publisher.flush();
    expect(batches).toEqual([['a']]);
    expect(pending.size).toBe(0);
  });
});
