// How busy the client's CPU is over the last few seconds, two ways:
// - the event loop's busy share (`performance.eventLoopUtilization()`): near 1, every callback
//   waits for the one before, and more threads only queue more work behind it;
// - the process's CPU time (every thread: the loop, the pool's file reads, the kernel's sends) against
//   the cores it may run on (`os.availableParallelism()` follows its CPU affinity). Pinned to one core
//   with a checksum load, the loop measured 50-80% busy while the core was full: the pool's reads took
//   the rest, and the disk looked slow when the CPU was.
// Read on demand, with no timer of its own: each reading keeps a snapshot, and the next one measures
// from the snapshot nearest its window's start.

import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { EventLoopUtilization } from 'node:perf_hooks';

/** Snapshots older than this are dropped: no window asked for is longer. */
const KEEP_MS = 60_000;
/** A window shorter than this says nothing yet: a few callbacks would swing it from 0 to 1. */
const MIN_SPAN_MS = 500;

export interface CpuSample {
  /** performance.now() */
  readonly at: number;
  readonly loop: EventLoopUtilization;
  /** CPU time of every thread of the process, in microseconds (user and system). */
  readonly cpuMicros: number;
  /** The cores the process may run on. */
  readonly cores: number;
}

export interface CpuShares {
  /** The event loop's busy share, 0..1. */
  readonly eventLoop: number;
  /** The process's CPU time as a share of the cores it may use, 0..1. */
  readonly process: number;
}

function realSample(): CpuSample {
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    loop: performance.eventLoopUtilization(),
    cpuMicros: usage.user + usage.system,
    cores: os.availableParallelism(),
  };
}

export class CpuLoad {
  private readonly samples: CpuSample[] = [];
  private readonly sample: () => CpuSample;

  /** Its first snapshot is taken now: the first reading, a second later, already has a window. */
  constructor(sample: () => CpuSample = realSample) {
    this.sample = sample;
    this.samples.push(sample());
  }

  /** Both shares over the last `seconds`; undefined until half a second is seen. */
  shares(seconds: number): CpuShares | undefined {
    const now = this.sample();
    while (this.samples.length > 0 && this.samples[0]!.at < now.at - KEEP_MS) this.samples.shift();
    // The newest snapshot from before the window's start (so it spans the whole window), else the oldest inside.
    const since = now.at - seconds * 1000;
    let from = this.samples.find((snapshot) => snapshot.at >= since);
    for (const snapshot of this.samples) if (snapshot.at < since) from = snapshot;
    this.samples.push(now);
    const spanMs = from ? now.at - from.at : 0;
    if (!from || spanMs < MIN_SPAN_MS) return undefined;
    const busy = now.loop.active - from.loop.active;
    const idle = now.loop.idle - from.loop.idle;
    return {
      eventLoop: busy + idle > 0 ? busy / (busy + idle) : 0,
      process: Math.min(1, (now.cpuMicros - from.cpuMicros) / 1000 / (spanMs * Math.max(1, now.cores))),
    };
  }
}
