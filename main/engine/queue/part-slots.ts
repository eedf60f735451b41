// A job's budget of parts held in memory at once, across all its objects.
//
// A copy between two connections holds each part between its GET and its PUT. Each object already
// sends at most `threads` parts at once, but `threads` objects run side by side: without one budget
// for the job, a job of large objects held threads × threads parts (16 × 16 × 16 MiB: 4 GiB). The
// limit is read again as each slot is taken, so it follows the Threads setting while the job runs.

export class PartSlots {
  private held = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly limit: () => number;

  constructor(limit: () => number) {
    this.limit = limit;
  }

  /** Run `work` once a slot is free; the slot is given back when it settles, whichever way. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    while (this.held >= Math.max(1, this.limit())) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held += 1;
    try {
      return await work();
    } finally {
      this.held -= 1;
      this.waiting.shift()?.();
    }
  }
}
