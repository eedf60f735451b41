// A job's first phase: its files on their way to this host (a browser's upload through the web
// host), before anything goes to the store.
//
// A browser's 1 GiB file took 6.5 s to reach the host on loopback, minutes over an SSH tunnel, and
// the window showed no job until all of it had. Now the job is there from the first byte, with the
// bytes, a rate and Cancel, and its time includes them. Where the files come from is the host's
// (the service's staging area): the job waits for them, counting.

import type { JobPhase } from '../../../src/jobs.ts';
import { ThroughputMeter } from '../../../src/throughput-meter.ts';

export interface Arrival {
  readonly filesTotal: number;
  readonly bytesTotal: number;
  /**
   * Resolves once every file is here; rejects with why (a BargeError) when they will not all come:
   * the browser went away, the host refused a file, or `signal` (the job cancelled) stopped them.
   * `received` is told the files and bytes here so far, as they grow.
   */
  wait(received: (files: number, bytes: number) => void, signal: AbortSignal): Promise<void>;
}

/** The files and bytes of an arrival so far, and their rate. */
export class ArrivalCount {
  private files = 0;
  private bytes = 0;
  private readonly meter = new ThroughputMeter();
  private readonly arrival: Arrival;

  constructor(arrival: Arrival) {
    this.arrival = arrival;
  }

  /** The totals so far. */
  received(files: number, bytes: number, nowMs: number): void {
    if (bytes > this.bytes) this.meter.add(bytes - this.bytes, nowMs);
    this.files = Math.max(this.files, files);
    this.bytes = Math.max(this.bytes, bytes);
  }

  phase(nowMs: number): JobPhase {
    const bytesPerSecond = this.meter.bytesPerSecond(nowMs);
    return {
      kind: 'receiving',
      filesDone: this.files,
      filesTotal: this.arrival.filesTotal,
      bytesDone: this.bytes,
      bytesTotal: this.arrival.bytesTotal,
      bytesPerSecond,
      etaSeconds: this.meter.etaSeconds(this.arrival.bytesTotal - this.bytes, nowMs),
    };
  }
}
