// A job's budget of part bytes held in memory at once, across all its objects.
//
// A copy between two connections holds each part between its GET and its PUT. Counting parts is not
// enough: threads objects side by side, each with parts in flight, and parts that grow for very large
// objects, held threads × part size and more (64 × 16 MiB: 1 GiB). So the job holds at most a budget
// of bytes; a part waits until its bytes fit. The budget always admits two parts of any size (one
// could not overlap its GET with another's PUT), so the largest parts still go, two at a time.
//
// The parts' buffers are used again: a 16 MiB buffer for each of a 1 GiB copy's 64 parts waited for
// the garbage collector, and the process held twice its budget (537 MiB for 256). A buffer given back
// is kept while the held and the kept bytes fit in the budget together, and lent to the next part of
// its size or smaller.

import { MIB } from '../../../src/byte-units.ts';

/** The bytes of parts a copy between connections holds at once, whatever the threads and part size. */
export const STREAMED_COPY_MEMORY_BYTES = 256 * MIB;

export class PartSlots {
  private heldBytes = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly budgetBytes: () => number;
  /** Buffers given back, to lend again; their bytes are `spareBytes`. */
  private readonly spare: Buffer[] = [];
  private spareBytes = 0;

  constructor(budgetBytes: () => number = () => STREAMED_COPY_MEMORY_BYTES) {
    this.budgetBytes = budgetBytes;
  }

  /**
   * Run `work`, which holds `bytes` (in the buffer it is lent, exactly that long), once they fit in
   * the budget; they are given back when it settles. The buffer's bytes are not zeroed: `work` fills it.
   */
  async run<T>(bytes: number, work: (buffer: Buffer) => Promise<T>): Promise<T> {
    while (this.heldBytes > 0 && this.heldBytes + bytes > Math.max(this.budgetBytes(), 2 * bytes))
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.heldBytes += bytes;
    const buffer = this.lend(bytes);
    try {
      return await work(buffer.subarray(0, bytes));
    } finally {
      this.heldBytes -= bytes;
      this.keep(buffer);
      // Every waiting part looks again: a small one may fit where a large one does not.
      for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /** A buffer kept of at least `bytes` (the smallest such), else a new one. */
  private lend(bytes: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.spare.length; i++)
      if (this.spare[i]!.length >= bytes && (best < 0 || this.spare[i]!.length < this.spare[best]!.length)) best = i;
    // Its own memory (never a slice of Node's shared pool of small buffers): it is kept and lent again.
    if (best < 0) return Buffer.allocUnsafeSlow(bytes);
    const [buffer] = this.spare.splice(best, 1);
    this.spareBytes -= buffer!.length;
    return buffer!;
  }

  /** Kept for the next part while what is held and kept fits in the budget; else left to the collector. */
  private keep(buffer: Buffer): void {
    if (this.heldBytes + this.spareBytes + buffer.length > this.budgetBytes()) return;
    this.spare.push(buffer);
    this.spareBytes += buffer.length;
  }
}
