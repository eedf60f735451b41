// Auto Threads: the limit on requests in flight, found from what the requests measure.
//
// The best count moves with object size and latency (25 ms each way: 16 KiB objects gain 6x from 4 to
// 64 threads and flatten past 256; 2 MiB objects flatten at 16), and a store that throttles wants
// fewer. So the limit climbs while throughput climbs, goes back to the last level that paid when
// more gives nothing, backs off when the store says SlowDown (unless fewer threads are throttled as
// much: then the throttling is not about load, and backing off would only slow the transfer), holds,
// and looks again above now and then. Each level is held long enough to be judged: one request's time
// to settle, then three to measure, and never while nothing waits for a slot (more threads cannot
// help a queue that is empty). The clock, the signals and the queue are injected: tests drive it on
// a simulated store.

import { MAX_THREADS, MIN_THREADS } from '../../../src/settings.ts';
import { MIB } from '../../../src/byte-units.ts';
import type { SignalSummary } from './request-signals.ts';
import { CPU_BUSY } from './limit-readout.ts';

/** Where Auto starts without a better starting point: the fixed default it replaces. */
export const AUTO_START_THREADS = 64;
/** A raise pays when throughput grows by at least this share; less is noise on a shared machine. */
const GAIN_SHARE = 0.05;
/** More that costs this share of throughput means past the knee: fewer is tried (a smaller loss is noise). */
const LOSS_SHARE = 0.15;
/** Throttled answers past this share of requests are the store asking for less. */
const THROTTLE_SHARE = 0.02;
/** After a back-off, a share at least this much of the one before means fewer threads did not help. */
const THROTTLE_STILL_SHARE = 0.7;
/** A back-off keeps the limit below where the store throttled for this long. */
const THROTTLE_CEILING_MS = 30_000;
/** Each back-off keeps this share of the threads. */
const BACKOFF_FACTOR = 0.7;
/** Each raise while throughput climbs; below where the store throttled lately, gentler. */
const RAISE_FACTOR = 1.5;
const RAISE_BELOW_THROTTLE_FACTOR = 1.15;
/** A level that is held is probed above after this long. */
const PROBE_EVERY_MS = 15_000;
const PROBE_FACTOR = 1.25;
/** A level settles for one request's time (at least this), then is measured for three (at least this). */
const MIN_SETTLE_MS = 200;
const MIN_MEASURE_MS = 500;
const MEASURED_REQUEST_TIMES = 3;
/** Fewer requests than this (or than two a thread) in a measurement judge nothing. */
const MIN_REQUESTS = 16;
/** A measurement counts only if work waited for a slot at this share of its looks. */
const BUSY_SHARE = 0.8;
/** Requests below this mean size are small objects, judged by objects a second; above, by bytes a second. */
export const SMALL_OBJECT_BYTES = 1 * MIB;
const LARGE_OBJECT_BYTES = 8 * MIB;
/** A request spending more than this share of its time waiting for the store is latency-bound. */
const LATENCY_BOUND_SHARE = 0.5;
/**
 * A CPU this busy has no room for more requests: more threads only queue more work behind the busy loop, and
 * each costs memory and sockets (on loopback, climbing past 64 made a 2,000-file upload 28% slower). The same
 * share at which the limit readout names "this computer's CPU".
 */
const CPU_BUSY_SHARE = CPU_BUSY.enter;

export interface AutoTuneOptions {
  /** Milliseconds, as performance.now() gives them (the signals' clock). */
  readonly now: () => number;
  readonly signals: { summary(seconds: number): SignalSummary };
  /** Requests waiting for a slot now. */
  readonly waiting: () => number;
  /**
   * How busy this computer's CPU was over the last `seconds` (the busier of the event loop and the process's
   * share of its cores, 0..1), as the limit readout reads it; undefined while it cannot say.
   */
  readonly cpuBusy?: (seconds: number) => number | undefined;
  readonly start?: number;
}

/** One level, measured. */
interface Measured {
  readonly threads: number;
  /** Objects a second for small objects, bytes a second for large (`judgedBy`). */
  readonly rate: number;
  readonly judgedBy: 'objects' | 'bytes';
  readonly throttleShare: number;
  /** Requests in flight on average: below the limit when requests sit out a retry's backoff. */
  readonly inFlight: number;
}

export class AutoTune {
  private level: number;
  private peak: number;
  private why: string;
  /** The last move: from which level (measured), up or down. What the new level must beat. */
  private probe: { readonly from: Measured; readonly up: boolean } | undefined;
  /** Fewer was tried since the last start or throttling (once: past the knee, fewer may pay). */
  private triedFewer = false;
  /** The last back-off for throttling: where the back-offs began, and what the level it left measured. */
  private backoff: { readonly top: number; readonly left: Measured } | undefined;
  /** Throttling that fewer threads did not lessen: backed off from only when clearly above this share. */
  private throttleFloor = 0;
  /** No raise to this level or above until `ceilingUntil`. */
  private ceiling = MAX_THREADS + 1;
  private ceilingUntil = 0;
  /** This level is a resting point (the knee, or where throttling stopped): probed above now and then only. */
  private settled = false;
  private changedAt: number;
  private heldSince: number;
  private looks = 0;
  private busyLooks = 0;
  /** The last measurement's median request time: how long a level settles and is measured. */
  private requestMs = 0;

  private readonly options: AutoTuneOptions;

  constructor(options: AutoTuneOptions) {
    this.options = options;
    this.level = clampThreads(options.start ?? AUTO_START_THREADS);
    this.peak = this.level;
    this.changedAt = options.now();
    this.heldSince = this.changedAt;
    this.why = startWords(this.level);
  }

  get threads(): number {
    return this.level;
  }

  /** The most threads Auto used since it started (or was started again). */
  get peakThreads(): number {
    return this.peak;
  }

  /** What Auto decided last, and why, in words for the window and the command line. */
  get reason(): string {
    return this.why;
  }

  /** Start again from `threads` (a speed test's best, or the value the user had pinned); `source` says whose. */
  startFrom(threads: number, source?: string): void {
    this.level = clampThreads(threads);
    this.peak = this.level;
    this.probe = undefined;
    this.triedFewer = false;
    this.backoff = undefined;
    this.throttleFloor = 0;
    this.ceiling = MAX_THREADS + 1;
    this.settled = false;
    this.restart();
    this.heldSince = this.changedAt;
    this.why = startWords(this.level, source);
  }

  /** Look once (a few times a second); true when the limit changed. */
  tick(): boolean {
    const now = this.options.now();
    this.looks += 1;
    if (this.options.waiting() > 0) this.busyLooks += 1;
    const settleMs = Math.max(MIN_SETTLE_MS, this.requestMs);
    const measureMs = Math.max(MIN_MEASURE_MS, MEASURED_REQUEST_TIMES * this.requestMs);
    if (now - this.changedAt < settleMs + measureMs) return false;
    const summary = this.options.signals.summary(Math.min(now - this.changedAt - settleMs, measureMs) / 1000);
    this.requestMs = summary.medianDurationMs ?? this.requestMs;
    if (summary.requests < Math.min(MIN_REQUESTS, 2 * this.level)) {
      // Too few to judge: nothing runs (measure afresh), or very large parts (measure longer).
      if (summary.requests === 0) this.restart();
      return false;
    }
    const busy = this.busyLooks >= BUSY_SHARE * this.looks;
    const cpu = this.options.cpuBusy?.(summary.seconds);
    return this.decide(now, measure(this.level, summary), busy, describe(summary), cpu);
  }

  private decide(now: number, measured: Measured, busy: boolean, traits: string, cpu?: number): boolean {
    if (measured.throttleShare >= Math.max(THROTTLE_SHARE, this.throttleFloor * 1.5))
      return this.throttled(now, measured);
    const probe = this.probe;
    this.probe = undefined;
    if (probe && probe.from.judgedBy === measured.judgedBy) {
      const from = probe.from;
      if (measured.rate >= from.rate * (1 + GAIN_SHARE)) {
        this.why = `${this.level} threads: throughput rose with ${probe.up ? 'more' : 'fewer'}, ${traits}`;
        if (!probe.up && busy) return this.lower(now, measured, traits);
      } else if (probe.up && !this.triedFewer && measured.rate < from.rate * (1 - LOSS_SHARE)) {
        // More cost throughput: past the knee, so fewer than where it was may pay.
        this.triedFewer = true;
        return this.lower(now, from, traits);
      } else {
        // The move gave nothing (or cost): the level it left is the knee.
        const words = `${from.threads} threads: ${traits}; ${probe.up ? 'more' : 'fewer'} gave no gain`;
        return this.change(now, from.threads, words, true);
      }
    }
    if (!busy) {
      this.why = `${this.level} threads: nothing waits for a slot`;
      return this.hold();
    }
    if (cpu !== undefined && cpu >= CPU_BUSY_SHARE) {
      this.why = `${this.level} threads: this computer's CPU is busy (${Math.round(cpu * 100)}%), more would not help`;
      this.heldSince = now;
      return this.hold();
    }
    if (!this.settled) return this.raise(now, measured, RAISE_FACTOR, traits);
    if (now - this.heldSince >= PROBE_EVERY_MS) return this.raise(now, measured, PROBE_FACTOR, traits);
    return this.hold();
  }

  private throttled(now: number, measured: Measured): boolean {
    const last = this.backoff;
    if (
      last &&
      this.level < last.left.threads &&
      measured.throttleShare >= last.left.throttleShare * THROTTLE_STILL_SHARE
    ) {
      // Fewer threads were throttled as much: the store throttles whatever the load (one request in ten),
      // and fewer would only slow the transfer.
      // Back to where the back-offs began; backed off again only from a share clearly above this one.
      this.throttleFloor = measured.throttleShare;
      this.backoff = undefined;
      this.ceiling = MAX_THREADS + 1;
      this.ceilingUntil = 0;
      const words = `${last.top} threads: the store throttles as much with fewer (SlowDown), so fewer would not help`;
      // Not settled: it climbs on from there, throttling below the floor no longer holding it back.
      return this.change(now, last.top, words, false);
    }
    this.backoff = { top: last && this.level < last.top ? last.top : this.level, left: measured };
    this.probe = undefined;
    // What follows a back-off is measured among retries coming back: no ground to try fewer still.
    this.triedFewer = true;
    this.ceiling = this.level;
    this.ceilingUntil = now + THROTTLE_CEILING_MS;
    // From what was in flight, not from the limit: throttled requests sit out their backoff without a
    // slot, so a limit above what flies would change nothing.
    const flying = Math.min(this.level, Math.max(MIN_THREADS, Math.round(measured.inFlight)));
    const fewer = Math.max(MIN_THREADS, Math.floor(flying * BACKOFF_FACTOR));
    return this.change(now, fewer, `Fewer threads (${fewer}): the store is throttling (503 SlowDown or 429)`, false);
  }

  private raise(now: number, measured: Measured, factor: number, traits: string): boolean {
    const throttledLately = now < this.ceilingUntil;
    const ceiling = throttledLately ? this.ceiling : MAX_THREADS + 1;
    if (throttledLately) factor = Math.min(factor, RAISE_BELOW_THROTTLE_FACTOR);
    const next = Math.min(MAX_THREADS, ceiling - 1, Math.max(this.level + 1, Math.ceil(this.level * factor)));
    if (next <= this.level) {
      this.why =
        this.level >= MAX_THREADS
          ? `${this.level} threads, the most there are: ${traits}`
          : `${this.level} threads: the store throttled above, ${traits}`;
      this.heldSince = now;
      return this.hold();
    }
    this.probe = { from: measured, up: true };
    return this.change(now, next, `${next} threads: trying more, ${traits}`, false);
  }

  /** Try fewer than the level `from` measured (which the new level must beat). */
  private lower(now: number, from: Measured, traits: string): boolean {
    const next = Math.max(MIN_THREADS, Math.floor(from.threads * BACKOFF_FACTOR));
    if (next >= from.threads) return this.change(now, from.threads, `${from.threads} threads: ${traits}`, true);
    this.probe = { from, up: false };
    return this.change(now, next, `${next} threads: trying fewer, ${traits}`, false);
  }

  /** Stay, and measure this level again. */
  private hold(): boolean {
    this.restart();
    return false;
  }

  private change(now: number, threads: number, why: string, settled: boolean): boolean {
    const changed = threads !== this.level;
    this.level = clampThreads(threads);
    this.peak = Math.max(this.peak, this.level);
    this.why = why;
    this.settled = settled;
    this.heldSince = now;
    this.restart();
    return changed;
  }

  /** Measure this level afresh from now. */
  private restart(): void {
    this.changedAt = this.options.now();
    this.looks = 0;
    this.busyLooks = 0;
  }
}

function startWords(threads: number, source?: string): string {
  return `${threads} threads: the starting point${source ? ` (${source})` : ''}, measuring`;
}

function clampThreads(threads: number): number {
  return Math.min(MAX_THREADS, Math.max(MIN_THREADS, Math.round(threads)));
}

function measure(threads: number, summary: SignalSummary): Measured {
  const ok = summary.requests - summary.throttled - summary.failed;
  const judgedBy = (summary.meanBytes ?? 0) < SMALL_OBJECT_BYTES ? 'objects' : 'bytes';
  return {
    threads,
    rate: judgedBy === 'objects' ? ok / summary.seconds : summary.bytesPerSecond,
    judgedBy,
    throttleShare: summary.requests > 0 ? summary.throttled / summary.requests : 0,
    inFlight: summary.meanInFlight,
  };
}

/** "latency-bound, small objects": what the requests were waiting on, and how big they were. */
export function describe(summary: SignalSummary): string {
  const bound = (summary.waitShare ?? 1) > LATENCY_BOUND_SHARE ? 'latency-bound' : 'bandwidth-bound';
  const bytes = summary.meanBytes ?? 0;
  const size =
    bytes < SMALL_OBJECT_BYTES ? 'small objects' : bytes < LARGE_OBJECT_BYTES ? 'medium objects' : 'large parts';
  return `${bound}, ${size}`;
}
