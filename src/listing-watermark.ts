// How far down a listing a job has got with nothing left behind: the last key such that it and every
// key listed before it are done. Items finish out of order (many in flight); the watermark moves only
// over a contiguous run of finished ones, so a resumed listing that starts after it skips nothing.
//
// A failed item stops it for good (a resumed run must try that item again), and from then on
// nothing is kept: a failure early in a million-key listing must not hold every later entry.

export interface ListingPosition {
  /** List again after this key. */
  readonly afterKey: string;
  /** Objects and bytes at or before it, for progress. */
  readonly objects: number;
  readonly bytes: number;
}

export class ListingWatermark {
  private issued = 0;
  private passed = 0;
  private stopped = false;
  private readonly pending = new Map<number, { readonly key: string; readonly size: number; done: boolean }>();
  private position: ListingPosition | undefined;

  constructor(start?: ListingPosition) {
    this.position = start;
  }

  /** A listed item, in listing order; returns its ticket. */
  listed(key: string, size: number): number {
    const ticket = this.issued++;
    if (!this.stopped) this.pending.set(ticket, { key, size, done: false });
    return ticket;
  }

  /** The item is done; returns the new position when the watermark moved. */
  done(ticket: number): ListingPosition | undefined {
    const entry = this.pending.get(ticket);
    if (!entry || this.stopped) return undefined;
    entry.done = true;
    let moved = false;
    for (let next = this.pending.get(this.passed); next?.done; next = this.pending.get(this.passed)) {
      this.pending.delete(this.passed);
      this.passed += 1;
      this.position = { afterKey: next.key, objects: (this.position?.objects ?? 0) + 1, bytes: (this.position?.bytes ?? 0) + next.size };
      moved = true;
    }
    return moved ? this.position : undefined;
  }

  /** The item failed: the watermark stays where it is for the rest of this run. */
  failed(): void {
    this.stopped = true;
    this.pending.clear();
  }
}
