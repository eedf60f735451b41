import { describe, expect, it } from 'vitest';
import { AutoTune } from '../../../../../main/engine/queue/auto-tune.ts';
import type { SignalSummary } from '../../../../../main/engine/queue/request-signals.ts';
import { KIB, MIB } from '../../../../../src/byte-units.ts';

// A simulated store: what it does at each concurrency, in steady state. The tuner reads it through
// the same summary the engine's signals give, on a clock the test moves.

interface StoreModel {
  /** Body bytes a request moves. */
  readonly objectBytes: number;
  /** Requests a second at `threads` in flight (throttled ones included). */
  requestsPerSecond(threads: number): number;
  /** The share of requests answered 503 SlowDown at `threads` in flight. */
  throttleShare?(threads: number): number;
  /** Of a request's time, the share spent waiting for the store. */
  readonly waitShare?: number;
  /** Requests in flight at a limit of `threads` (fewer when throttled ones sit out a backoff); default all. */
  inFlight?(threads: number): number;
}

function simulate(
  model: StoreModel,
  options: { start?: number; seconds?: number; waiting?: () => number; cpuBusy?: (threads: number) => number } = {},
) {
  let now = 0;
  const tuner: AutoTune = new AutoTune({
    now: () => now,
    start: options.start,
    waiting: options.waiting ?? (() => 1_000),
    cpuBusy: options.cpuBusy && (() => options.cpuBusy!(tuner.threads)),
    signals: { summary: (seconds): SignalSummary => summaryAt(model, tuner.threads, seconds) },
  });
  const levels: number[] = [];
  const ticks = ((options.seconds ?? 120) * 1000) / 250;
  for (let tick = 0; tick < ticks; tick++) {
    now += 250;
    tuner.tick();
    levels.push(tuner.threads);
  }
  return { tuner, levels };
}

function summaryAt(model: StoreModel, threads: number, seconds: number): SignalSummary {
  const requestsPerSecond = model.requestsPerSecond(threads);
  const requests = Math.round(requestsPerSecond * seconds);
  const throttled = Math.round(requests * (model.throttleShare?.(threads) ?? 0));
  const bytes = (requests - throttled) * model.objectBytes;
  const durationMs = (threads / requestsPerSecond) * 1000;
  return {
    seconds,
    requests,
    throttled,
    failed: 0,
    bytes,
    bytesPerSecond: bytes / seconds,
    requestsPerSecond: requests / seconds,
    medianDurationMs: durationMs,
    medianWaitMs: durationMs * (model.waitShare ?? 0.9),
    waitShare: model.waitShare ?? 0.9,
    meanBytes: requests > 0 ? bytes / requests : undefined,
    meanInFlight: model.inFlight?.(threads) ?? threads,
    diskReadShare: 0,
    diskWriteShare: 0,
    longInFlight: 0,
    bodiesInFlight: 0,
  };
}

/** Latency-bound up to a knee (each request 50 ms), flat past it. */
function kneeStore(knee: number, objectBytes = 16 * KIB): StoreModel {
  return { objectBytes, requestsPerSecond: (threads) => Math.min(threads, knee) / 0.05 };
}

function best(model: StoreModel): number {
  let top = 0;
  for (const threads of [1, 4, 16, 64, 256]) top = Math.max(top, goodput(model, threads));
  return top;
}

function goodput(model: StoreModel, threads: number): number {
  return model.requestsPerSecond(threads) * (1 - (model.throttleShare?.(threads) ?? 0));
}

describe('Auto threads on a simulated store', () => {
  it('climbs from 64 to near the knee of small objects under latency, and reaches 90% of the best fixed setting', () => {
    const store = kneeStore(200);
    const { tuner } = simulate(store);
    expect(tuner.threads).toBeGreaterThanOrEqual(140);
    expect(tuner.threads).toBeLessThanOrEqual(256);
    expect(goodput(store, tuner.threads)).toBeGreaterThanOrEqual(0.9 * best(store));
    expect(tuner.reason).toMatch(/latency-bound, small objects/);
  });

  it('holds near 64 when more threads gain nothing (large objects, bandwidth-bound)', () => {
    const store: StoreModel = {
      objectBytes: 16 * MIB,
      waitShare: 0.1,
      requestsPerSecond: (threads) => Math.min(threads, 16) * 2,
    };
    const { tuner, levels } = simulate(store);
    expect(Math.max(...levels)).toBeLessThanOrEqual(96);
    expect(tuner.threads).toBeLessThanOrEqual(64);
    expect(tuner.reason).toMatch(/bandwidth-bound, large parts/);
  });

  it('goes below 64 when more threads cost throughput (past the knee, fewer pay)', () => {
    // Rises to 24 in flight, then each thread more costs 1%.
    const store: StoreModel = {
      objectBytes: 64 * KIB,
      requestsPerSecond: (threads) =>
        (Math.min(threads, 24) / 0.05) * Math.max(0.2, 1 - 0.01 * Math.max(0, threads - 24)),
    };
    const { tuner } = simulate(store);
    expect(tuner.threads).toBeLessThan(64);
    expect(goodput(store, tuner.threads)).toBeGreaterThan(goodput(store, 64));
  });

  it('backs off when the store throttles past a concurrency, and stays below it', () => {
    // Past 32 in flight, the store answers the rest with 503 SlowDown; the goodput stays that of 32.
    const store: StoreModel = {
      objectBytes: 256 * KIB,
      requestsPerSecond: (threads) => threads / 0.05,
      throttleShare: (threads) => Math.max(0, threads - 32) / threads,
    };
    const { tuner, levels } = simulate(store, { seconds: 300 });
    expect(tuner.threads).toBeLessThanOrEqual(44);
    // Most of the time below where the store throttles hard.
    const throttledLooks = levels.filter((level) => (store.throttleShare!(level) ?? 0) > 0.1).length;
    expect(throttledLooks / levels.length).toBeLessThan(0.2);
    expect(Math.min(...levels)).toBeGreaterThanOrEqual(1);
  });

  it('backs off from what was in flight, not from the limit, when throttled requests sit out their backoff', () => {
    // Past 16 in flight the store answers SlowDown; the throttled requests wait out a backoff without a
    // slot, so only about 20 fly at any limit above that.
    const store: StoreModel = {
      objectBytes: 16 * KIB,
      requestsPerSecond: (threads) => Math.min(threads, 20) / 0.05,
      throttleShare: (threads) => Math.max(0, Math.min(threads, 20) - 16) / Math.min(threads, 20),
      inFlight: (threads) => Math.min(threads, 20),
    };
    let now = 0;
    const tuner: AutoTune = new AutoTune({
      now: () => now,
      waiting: () => 100,
      signals: { summary: (seconds): SignalSummary => summaryAt(store, tuner.threads, seconds) },
    });
    while (tuner.threads === 64 && now < 10_000) {
      now += 250;
      tuner.tick();
    }
    expect(tuner.threads).toBe(14);
    // Afterwards, above what flies only when it looks above again now and then.
    const { levels } = simulate(store, { seconds: 300 });
    expect(levels.filter((level) => level > 20).length / levels.length).toBeLessThan(0.1);
  });

  it('says why it has fewer threads while the store throttles', () => {
    const store: StoreModel = {
      objectBytes: 16 * KIB,
      requestsPerSecond: (threads) => threads / 0.05,
      throttleShare: (threads) => (threads > 16 ? 0.5 : 0),
    };
    let now = 0;
    const tuner: AutoTune = new AutoTune({
      now: () => now,
      waiting: () => 100,
      signals: { summary: (seconds): SignalSummary => summaryAt(store, tuner.threads, seconds) },
    });
    while (tuner.threads === 64 && now < 10_000) {
      now += 250;
      tuner.tick();
    }
    expect(tuner.threads).toBe(44);
    expect(tuner.reason).toBe('Fewer threads (44): the store is throttling (503 SlowDown or 429)');
  });

  it('does not give up its threads to throttling that fewer threads do not lessen (one request in ten, at any load)', () => {
    const store: StoreModel = {
      objectBytes: 16 * KIB,
      requestsPerSecond: (threads) => Math.min(threads, 400) / 0.05,
      throttleShare: () => 0.1,
    };
    const { tuner, levels } = simulate(store, { seconds: 300 });
    expect(tuner.threads).toBeGreaterThanOrEqual(64);
    const meanLevel = levels.reduce((sum, level) => sum + level, 0) / levels.length;
    expect(meanLevel).toBeGreaterThanOrEqual(64);
  });

  it("adds no threads while this computer's CPU is busy, though the store would give more", () => {
    // A store with room up to 256 and a client whose CPU is full from 64 (loopback on two cores): the rate
    // the store would give is not what the client can take, and each thread more is only more overhead.
    const { tuner, levels } = simulate(kneeStore(256), { cpuBusy: (threads) => (threads >= 64 ? 0.95 : 0.5) });
    expect(Math.max(...levels)).toBe(64);
    expect(tuner.reason).toMatch(/^64 threads: this computer's CPU is busy \(95%\), more would not help/);
    // Below the busy point it climbs as before, up to where the CPU fills.
    const climbing = simulate(kneeStore(256), { start: 16, cpuBusy: (threads) => (threads >= 64 ? 0.95 : 0.5) });
    expect(climbing.levels.at(-1)).toBeGreaterThanOrEqual(54);
    expect(Math.max(...climbing.levels)).toBeLessThan(96);
  });

  it('changes nothing while no request waits for a slot', () => {
    const { tuner, levels } = simulate(kneeStore(256), { waiting: () => 0 });
    expect(new Set(levels)).toEqual(new Set([64]));
    expect(tuner.reason).toBe('64 threads: nothing waits for a slot');
  });

  it('looks above again now and then, and finds a knee that moved', () => {
    let knee = 64;
    const store: StoreModel = { objectBytes: 16 * KIB, requestsPerSecond: (threads) => Math.min(threads, knee) / 0.05 };
    let now = 0;
    const tuner: AutoTune = new AutoTune({
      now: () => now,
      waiting: () => 1_000,
      signals: { summary: (seconds): SignalSummary => summaryAt(store, tuner.threads, seconds) },
    });
    for (; now < 60_000; now += 250) tuner.tick();
    expect(tuner.threads).toBeLessThanOrEqual(96);
    knee = 256;
    for (; now < 240_000; now += 250) tuner.tick();
    expect(tuner.threads).toBeGreaterThanOrEqual(160);
  });

  it('starts from a given point (a speed test’s best)', () => {
    const { levels } = simulate(kneeStore(16), { start: 16, seconds: 1 });
    expect(levels[0]).toBe(16);
    let now = 0;
    const tuner: AutoTune = new AutoTune({
      now: () => now,
      waiting: () => 0,
      signals: { summary: () => summaryAt(kneeStore(8), 8, 1) },
    });
    tuner.startFrom(300);
    expect(tuner.threads).toBe(256);
    tuner.startFrom(0);
    expect(tuner.threads).toBe(1);
    now += 1;
  });

  it('never leaves 1..256, whatever the store does', () => {
    let seed = 29;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 40; round++) {
      const knee = 1 + Math.floor(random() * 400);
      const throttleAbove = Math.floor(random() * 300);
      const noise = random() * 0.3;
      const store: StoreModel = {
        objectBytes: Math.floor(random() * 64 * MIB),
        waitShare: random(),
        requestsPerSecond: (threads) => (Math.min(threads, knee) / 0.05) * (1 - noise + 2 * noise * random()) + 0.01,
        throttleShare: (threads) => (threads > throttleAbove ? random() : 0),
      };
      const { levels } = simulate(store, { start: 1 + Math.floor(random() * 256), seconds: 60 });
      expect(Math.min(...levels)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...levels)).toBeLessThanOrEqual(256);
      expect(levels.every(Number.isInteger)).toBe(true);
    }
  });
});
