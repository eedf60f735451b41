// What limited a command-line run: the readout the engine named most often while the run went on,
// with the figures of its last reading of that kind. The engine reads once a second; a run too short
// for a reading, or one where no one thing dominated, says nothing rather than guess.

import type { LimitKind, LimitReadout } from '../../src/contract/models.ts';

export class LimitTally {
  private readonly counts = new Map<LimitKind, number>();
  private readonly latest = new Map<LimitKind, LimitReadout>();
  /** The last reading: what limits the run now (for the progress line). */
  now: LimitReadout | undefined;

  add(limit: LimitReadout | undefined): void {
    this.now = limit;
    if (!limit) return;
    this.counts.set(limit.kind, (this.counts.get(limit.kind) ?? 0) + 1);
    this.latest.set(limit.kind, limit);
  }

  /** The kind named most often (the later one of two named as often), as last read. */
  mostNamed(): LimitReadout | undefined {
    let best: LimitKind | undefined;
    for (const [kind, count] of this.counts) if (best === undefined || count >= this.counts.get(best)!) best = kind;
    return best === undefined ? undefined : this.latest.get(best);
  }
}
