// Progress leaves the engine in batches: at most one message per interval, whatever the job count.
//
// Jobs report every chunk they move; sending each report to a window (or a terminal) would flood it.
// The publisher collects which jobs changed and sends their snapshots together once per interval.
// The timer is injected so tests drive it without real time.

export const PUBLISH_INTERVAL_MS = 100;

export interface Timer {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimer: Timer = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class ProgressPublisher<Id, Snapshot> {
  private readonly dirty = new Set<Id>();
  private pending: unknown;
  private readonly snapshot: (id: Id) => Snapshot | undefined;
  private readonly publish: (batch: Snapshot[]) => void;
  private readonly timer: Timer;
  private readonly intervalMs: number;

  constructor(options: {
    snapshot: (id: Id) => Snapshot | undefined;
    publish: (batch: Snapshot[]) => void;
    timer?: Timer;
    intervalMs?: number;
  }) {
    this.snapshot = options.snapshot;
    this.publish = options.publish;
    this.timer = options.timer ?? realTimer;
    this.intervalMs = options.intervalMs ?? PUBLISH_INTERVAL_MS;
  }

  /** Note that `id` changed; it goes out with the next batch. */
  changed(id: Id): void {
    this.dirty.add(id);
    this.pending ??= this.timer.setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Send what is pending now (used when a job finishes, so the last state is never late). */
  flush(): void {
    if (this.pending !== undefined) this.timer.clearTimeout(this.pending);
    this.pending = undefined;
    if (this.dirty.size === 0) return;
    const batch: Snapshot[] = [];
    for (const id of this.dirty) {
      const snapshot = this.snapshot(id);
      if (snapshot !== undefined) batch.push(snapshot);
    }
    this.dirty.clear();
    if (batch.length > 0) this.publish(batch);
  }

  dispose(): void {
    if (this.pending !== undefined) this.timer.clearTimeout(this.pending);
    this.pending = undefined;
    this.dirty.clear();
  }
}
