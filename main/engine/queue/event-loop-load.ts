// How busy the client's main thread is: the share of time the event loop spent running code rather
// than waiting for I/O, over the last few seconds (`performance.eventLoopUtilization()`).
//
// Near 1, every callback waits for the one before: the client's CPU is what holds the transfer back,
// and more threads only queue more work behind it. Read on demand, with no timer of its own: each
// reading keeps a snapshot, and the next one measures from the snapshot nearest its window's start.

import { performance } from 'node:perf_hooks';
import type { EventLoopUtilization } from 'node:perf_hooks';

/** Snapshots older than this are dropped: no window asked for is longer. */
const KEEP_MS = 60_000;
/** A window shorter than this says nothing yet: a few callbacks would swing it from 0 to 1. */
const MIN_SPAN_MS = 500;

type Measure = (now?: EventLoopUtilization, before?: EventLoopUtilization) => EventLoopUtilization;

export class EventLoopLoad {
  private readonly snapshots: { readonly at: number; readonly load: EventLoopUtilization }[] = [];
  private readonly now: () => number;
  private readonly measure: Measure;

  constructor(
    now: () => number = () => performance.now(),
    measure: Measure = performance.eventLoopUtilization.bind(performance),
  ) {
    this.now = now;
    this.measure = measure;
  }

  /** The share (0..1) of the last `seconds` the event loop was busy; undefined until half a second is seen. */
  utilisation(seconds: number): number | undefined {
    const at = this.now();
    const load = this.measure();
    while (this.snapshots.length > 0 && this.snapshots[0]!.at < at - KEEP_MS) this.snapshots.shift();
    // The newest snapshot from before the window's start (so it spans the whole window), else the oldest inside.
    const since = at - seconds * 1000;
    let from = this.snapshots.find((snapshot) => snapshot.at >= since);
    for (const snapshot of this.snapshots) if (snapshot.at < since) from = snapshot;
    this.snapshots.push({ at, load });
    if (!from || at - from.at < MIN_SPAN_MS) return undefined;
    return this.measure(load, from.load).utilization;
  }
}
