// The byte gate: every body byte counted, and held to the Max speed across everything that passes it.

import { describe, expect, it } from 'vitest';
import { BURST_MS, ByteGate } from '../../../../../main/engine/queue/byte-gate.ts';
import type { GateClock } from '../../../../../main/engine/queue/byte-gate.ts';

/** A clock the test moves by hand: timers fire as it passes them. */
class ManualClock implements GateClock {
  time = 0;
  private timers: { at: number; run: () => void; handle: number }[] = [];
  private next = 0;
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): unknown {
    const handle = ++this.next;
    this.timers.push({ at: this.time + ms, run, handle });
    return handle;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.handle !== handle);
  }
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.time = due.at;
      this.timers = this.timers.filter((timer) => timer !== due);
      due.run();
      await Promise.resolve();
    }
    this.time = end;
    await Promise.resolve();
  }
}

/** Push chunks through the gate back to back, as one body does, counting what passed. */
function stream(gate: ByteGate, chunkBytes: number, passed: { bytes: number }, stop: { now: boolean }): Promise<void> {
  const next = async (): Promise<void> => {
    while (!stop.now) {
      const held = gate.up(chunkBytes);
      if (held) await held;
      passed.bytes += chunkBytes;
    }
  };
  return next();
}

describe('ByteGate', () => {
  it('lets every chunk through at once, counted, when no cap is set', () => {
    const gate = new ByteGate(0, new ManualClock());
    expect(gate.up(1024)).toBeUndefined();
    expect(gate.down(4096)).toBeUndefined();
    expect(gate.up(10)).toBeUndefined();
    expect(gate.bytesUp).toBe(1034);
    expect(gate.bytesDown).toBe(4096);
  });

  it('remembers when it last held a chunk back, and holds none back under no cap or within the bucket', async () => {
    const clock = new ManualClock();
    const free = new ByteGate(0, clock);
    free.up(10 * 1024 * 1024);
    expect(free.heldAt).toBeUndefined();
    const gate = new ByteGate(1_000_000, clock);
    await clock.advance(1_000);
    expect(gate.up(1000)).toBeUndefined();
    expect(gate.heldAt).toBeUndefined();
    gate.up(1_000_000);
    await clock.advance(250);
    const held = gate.up(1000);
    expect(held).toBeInstanceOf(Promise);
    expect(gate.heldAt).toBe(1_250);
    gate.rate = 0;
    await held;
  });

  it('holds several bodies together to the cap: 10 s at 1 MB/s passes 10 MB, within a chunk', async () => {
    const clock = new ManualClock();
    const gate = new ByteGate(1_000_000, clock);
    const passed = { bytes: 0 };
    const stop = { now: false };
    const bodies = [1, 2, 3, 4].map(() => stream(gate, 64 * 1024, passed, stop));
    await clock.advance(10_000);
    const chunk = 64 * 1024;
    // The first chunk of each body goes at once (the bucket starts empty, never in debt to begin with).
    expect(passed.bytes).toBeGreaterThanOrEqual(10_000_000 - chunk);
    expect(passed.bytes).toBeLessThanOrEqual(10_000_000 + 4 * chunk + (1_000_000 * BURST_MS) / 1000);
    stop.now = true;
    gate.rate = 0;
    await Promise.all(bodies);
  });

  it('applies a new rate to the chunks already waiting, at once', async () => {
    const clock = new ManualClock();
    const gate = new ByteGate(100_000, clock);
    const passed = { bytes: 0 };
    const stop = { now: false };
    const bodies = [1, 2, 3, 4, 5, 6, 7, 8].map(() => stream(gate, 100_000, passed, stop));
    await clock.advance(1_000);
    // Eight chunks went at once, then the debt holds the rest: at 100 kB/s, seconds per chunk.
    const before = passed.bytes;
    gate.rate = 10_000_000;
    await clock.advance(1_000);
    // At the new rate the waiting debt (700 kB) is paid in 70 ms; the second that follows moves ~10 MB.
    expect(passed.bytes - before).toBeGreaterThanOrEqual(9_000_000);
    expect(passed.bytes - before).toBeLessThanOrEqual(11_500_000);
    const fast = passed.bytes;
    gate.rate = 200_000;
    await clock.advance(2_000);
    expect(passed.bytes - fast).toBeLessThanOrEqual(2 * 200_000 + 8 * 100_000 + 10_000_000 * (BURST_MS / 1000));
    stop.now = true;
    gate.rate = 0;
    await Promise.all(bodies);
  });

  it('lets everything waiting go when the cap is lifted', async () => {
    const clock = new ManualClock();
    const gate = new ByteGate(1_000, clock);
    expect(gate.up(10_000)).toBeUndefined();
    const waiting = [gate.up(10_000), gate.down(10_000)];
    expect(waiting.every((held) => held instanceof Promise)).toBe(true);
    gate.rate = 0;
    await Promise.all(waiting);
    expect(gate.up(1)).toBeUndefined();
  });

  it('lets a waiting chunk go when its request is aborted, and keeps the others in line', async () => {
    const clock = new ManualClock();
    const gate = new ByteGate(1_000, clock);
    gate.up(1_000);
    const abort = new AbortController();
    const dropped = gate.up(1_000, abort.signal)!;
    const kept = gate.up(1_000)!;
    let keptGone = false;
    void kept.then(() => (keptGone = true));
    abort.abort(new Error('cancelled'));
    await expect(dropped).rejects.toThrow('cancelled');
    await clock.advance(999);
    expect(keptGone).toBe(false);
    await clock.advance(2);
    expect(keptGone).toBe(true);
  });
});
