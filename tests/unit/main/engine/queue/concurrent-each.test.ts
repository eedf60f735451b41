import { describe, expect, it } from 'vitest';
import { concurrentEach } from '../../../../../main/engine/queue/concurrent-each.ts';
import { mostSubscriptionsToOnePromise } from '../../../../support/promise-subscriptions.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('concurrentEach', () => {
  it('keeps at most `limit` workers in flight and pulls items lazily', async () => {
    let inFlight = 0;
    let peak = 0;
    let pulled = 0;
    function* items() {
      for (let i = 0; i < 50; i++) {
        pulled += 1;
        yield i;
      }
    }
    await concurrentEach(
      items(),
      () => 4,
      async () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        expect(pulled).toBeLessThanOrEqual(50);
        await tick();
        inFlight -= 1;
      },
    );
    expect(peak).toBe(4);
    expect(pulled).toBe(50);
  });

  it('follows a limit that changes while it runs', async () => {
    let limit = 2;
    let inFlight = 0;
    const peaks: number[] = [];
    await concurrentEach(
      Array.from({ length: 40 }, (_, i) => i),
      () => limit,
      async (i) => {
        if (i === 10) limit = 8;
        inFlight += 1;
        peaks.push(inFlight);
        await tick();
        inFlight -= 1;
      },
    );
    expect(Math.max(...peaks.slice(0, 10))).toBe(2);
    expect(Math.max(...peaks)).toBe(8);
  });

  it('when the sequence itself throws, waits for the work already started before rethrowing', async () => {
    let running = 0;
    async function* failingAfterThree() {
      yield 1;
      yield 2;
      yield 3;
      throw new Error('listing failed');
    }
    const done = concurrentEach(
      failingAfterThree(),
      () => 10,
      async () => {
        running += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
      },
    );
    await expect(done).rejects.toThrow('listing failed');
    expect(running).toBe(0);
  });

  it('stops starting items after a failure and rethrows it once the rest finish', async () => {
    const started: number[] = [];
    const failure = concurrentEach(
      Array.from({ length: 100 }, (_, i) => i),
      () => 3,
      async (i) => {
        started.push(i);
        await tick();
        if (i === 5) throw new Error('boom');
      },
    );
    await expect(failure).rejects.toThrow('boom');
    expect(started.length).toBeLessThan(12);
  });

  it('leaves nothing on a worker in flight for each other item that ends (memory stays flat with the items)', async () => {
    let finishFirst!: () => void;
    const first = new Promise<void>((resolve) => (finishFirst = resolve));
    let done = 0;
    const most = await mostSubscriptionsToOnePromise(() =>
      concurrentEach(
        Array.from({ length: 300 }, (_, i) => i),
        () => 4,
        async (i) => {
          // The first worker runs until the last item has started; the others end one by one beside it.
          if (i === 0) await first;
          else await tick();
          done += 1;
          if (i === 299) finishFirst();
        },
      ),
    );
    expect(done).toBe(300);
    // Waiting on a race of the workers in flight subscribed to the first one for every item: ~300.
    expect(most).toBeLessThan(10);
  });
});
