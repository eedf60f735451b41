import { describe, expect, it } from 'vitest';
import { RequestScheduler } from '../../../../../main/engine/queue/request-scheduler.ts';
import type { ReleaseSlot } from '../../../../../main/engine/queue/request-scheduler.ts';

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Ask for `count` slots for `job`, recording grants in `granted`. */
function ask(
  scheduler: RequestScheduler,
  job: string,
  count: number,
  granted: { job: string; release: ReleaseSlot }[],
  signal?: AbortSignal,
) {
  return Array.from({ length: count }, () =>
    scheduler.acquire(job, signal).then((release) => {
      granted.push({ job, release });
    }),
  );
}

describe('RequestScheduler', () => {
  it('never has more requests in flight than the limit', async () => {
    const scheduler = new RequestScheduler(3);
    const granted: { job: string; release: ReleaseSlot }[] = [];
    void ask(scheduler, 'a', 10, granted);
    await flush();
    expect(scheduler.active).toBe(3);
    expect(scheduler.waiting()).toBe(7);
    granted[0]!.release();
    granted[0]!.release(); // twice is harmless
    await flush();
    expect(scheduler.active).toBe(3);
    expect(granted).toHaveLength(4);
  });

  it('grants waiting requests at once when the limit rises, and drains down when it falls', async () => {
    const scheduler = new RequestScheduler(2);
    const granted: { job: string; release: ReleaseSlot }[] = [];
    void ask(scheduler, 'a', 10, granted);
    await flush();
    scheduler.threads = 6;
    await flush();
    expect(scheduler.active).toBe(6);
    scheduler.threads = 1;
    for (const g of granted.slice(0, 3)) g.release();
    await flush();
    expect(scheduler.active).toBe(3);
    for (const g of granted.slice(3)) g.release();
    await flush();
    expect(scheduler.active).toBe(1);
  });

  it('lets jobs take turns, so a big job does not starve a small one', async () => {
    const scheduler = new RequestScheduler(1);
    const granted: { job: string; release: ReleaseSlot }[] = [];
    void ask(scheduler, 'big', 100, granted);
    await flush();
    void ask(scheduler, 'small', 2, granted);
    for (let i = 0; i < 4; i++) {
      granted.at(-1)!.release();
      await flush();
    }
    expect(granted.slice(0, 5).map((g) => g.job)).toEqual(['big', 'big', 'small', 'big', 'small']);
  });

  it('passes over a paused job and picks it up again on resume', async () => {
    const scheduler = new RequestScheduler(2);
    const granted: { job: string; release: ReleaseSlot }[] = [];
    scheduler.pause('a');
    void ask(scheduler, 'a', 3, granted);
    void ask(scheduler, 'b', 1, granted);
    await flush();
    expect(granted.map((g) => g.job)).toEqual(['b']);
    scheduler.resume('a');
    await flush();
    expect(granted.map((g) => g.job)).toEqual(['b', 'a']);
  });

  it('rejects the waiting requests of a removed job and of an aborted signal', async () => {
    const scheduler = new RequestScheduler(1);
    const granted: { job: string; release: ReleaseSlot }[] = [];
    void ask(scheduler, 'x', 1, granted);
    const controller = new AbortController();
    const aborted = scheduler.acquire('y', controller.signal);
    const removed = scheduler.acquire('z');
    controller.abort();
    scheduler.removeJob('z');
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    await expect(removed).rejects.toMatchObject({ name: 'AbortError' });
    expect(scheduler.waiting()).toBe(0);
  });
});
