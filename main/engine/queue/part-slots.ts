// A job's budget of part bytes held in memory at once, across all its objects.
//
// A copy between two connections holds each part between its GET and its PUT. Counting parts is not
// enough: threads objects side by side, each with parts in flight, and parts that grow for very large
// objects, held threads × part size and more (64 × 16 MiB: 1 GiB). So the job holds at most a budget
// of bytes; a part waits until its bytes fit. The budget always admits two parts of any size (one
// could not overlap its GET with another's PUT), so the largest parts still go, two at a time.

import { MIB } from '../../../src/byte-units.ts';

/** The bytes of parts a copy between connections holds at once, whatever the threads and part size. */
export const STREAMED_COPY_MEMORY_BYTES = 256 * MIB;

export class PartSlots {
  private heldBytes = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly budgetBytes: () => number;

  constructor(budgetBytes: () => number = () => STREAMED_COPY_MEMORY_BYTES) {
    this.budgetBytes = budgetBytes;
  }

  /** Run `work`, which holds `bytes`, once they fit in the budget; they are given back when it settles. */
  async run<T>(bytes: number, work: () => Promise<T>): Promise<T> {
    while (this.heldBytes > 0 && this.heldBytes + bytes > Math.max(this.budgetBytes(), 2 * bytes))
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.heldBytes += bytes;
    try {
      return await work();
    } finally {
      this.heldBytes -= bytes;
      // Every waiting part looks again: a small one may fit where a large one does not.
      for (const wake of this.waiting.splice(0)) wake();
    }
  }
}
