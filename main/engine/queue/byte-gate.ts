// The one gate every body byte passes, up (request bodies) or down (response bodies): it counts
// them, and holds them back to a rate (the Max speed setting) shared by every running job.
//
// Bytes pass by the chunk (a body's write, a download's 1 MiB buffer), never by the byte: uncapped,
// a chunk costs two additions and no promise. Capped, it is a token bucket that may run into debt:
// a chunk passes while the bucket is not in debt (so a chunk larger than the bucket still passes),
// and the chunks behind it wait in turn, first come first served, until the debt is paid at the
// rate. A new rate applies to the debt at once: the waiting chunks go at the new pace.

/** Bytes the bucket holds at most, in time at the rate: a pause is made up for this much, no more. */
export const BURST_MS = 100;

export interface GateClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const REAL_CLOCK: GateClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface Waiter {
  readonly bytes: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

export class ByteGate {
  /** Bytes that passed the gate, ever: request bodies and response bodies. */
  bytesUp = 0;
  bytesDown = 0;
  /** When a chunk last had to wait for the rate (the clock's time): the cap is what holds bytes back. */
  heldAt: number | undefined;
  private bytesPerSecond = 0;
  /** The bucket: may fall below zero (a debt the waiting chunks pay off first). */
  private tokens = 0;
  private refilledAt: number;
  private readonly waiting: Waiter[] = [];
  private timer: unknown;
  private readonly clock: GateClock;

  constructor(bytesPerSecond = 0, clock: GateClock = REAL_CLOCK) {
    this.clock = clock;
    this.refilledAt = clock.now();
    this.rate = bytesPerSecond;
  }

  /** The cap in bytes a second; 0 lets every byte through at once. */
  get rate(): number {
    return this.bytesPerSecond;
  }

  set rate(bytesPerSecond: number) {
    this.refill();
    this.bytesPerSecond = Math.max(0, bytesPerSecond);
    if (this.bytesPerSecond === 0) {
      this.tokens = 0;
      this.release();
    } else {
      this.tokens = Math.min(this.tokens, this.capacity());
    }
    this.schedule();
  }

  /** A request body's chunk: undefined when it may go now, else a promise resolved when it may. */
  up(bytes: number, signal?: AbortSignal): Promise<void> | undefined {
    this.bytesUp += bytes;
    return this.bytesPerSecond === 0 ? undefined : this.take(bytes, signal);
  }

  /** A response body's chunk: undefined when it may go on now, else a promise resolved when it may. */
  down(bytes: number, signal?: AbortSignal): Promise<void> | undefined {
    this.bytesDown += bytes;
    return this.bytesPerSecond === 0 ? undefined : this.take(bytes, signal);
  }

  private take(bytes: number, signal: AbortSignal | undefined): Promise<void> | undefined {
    this.refill();
    if (this.waiting.length === 0 && this.tokens >= 0) {
      this.tokens -= bytes;
      return undefined;
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.heldAt = this.clock.now();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        bytes,
        resolve,
        reject,
        signal,
        onAbort: () => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
      this.schedule();
    });
  }

  private capacity(): number {
    return (this.bytesPerSecond * BURST_MS) / 1000;
  }

  private refill(): void {
    const now = this.clock.now();
    const earned = ((now - this.refilledAt) * this.bytesPerSecond) / 1000;
    this.refilledAt = now;
    this.tokens = Math.min(this.capacity(), this.tokens + earned);
  }

  /** Let the waiting chunks go while the bucket is out of debt (all of them at no cap). */
  private release(): void {
    while (this.waiting.length > 0 && (this.tokens >= 0 || this.bytesPerSecond === 0)) {
      const waiter = this.waiting.shift()!;
      if (this.bytesPerSecond > 0) this.tokens -= waiter.bytes;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve();
    }
  }

  /** One timer, for when the debt is paid: then the next chunks go. */
  private schedule(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting.length === 0 || this.bytesPerSecond === 0) return;
    const ms = Math.max(1, Math.ceil((-this.tokens * 1000) / this.bytesPerSecond));
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.refill();
      this.release();
      this.schedule();
    }, ms);
  }
}
