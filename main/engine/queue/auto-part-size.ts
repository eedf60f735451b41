// Auto Part size: chosen per file from its size, the threads, and what a request moves while it waits.
//
// A file up to 16 MiB goes whole: a multipart upload would add two round trips to it (create and
// complete), and many files side by side fill the threads anyway. A larger one is cut so the threads
// can share it (size / threads: a 1 GiB file at 64 threads in 16 MiB parts, as the fixed default
// did), never below 16 MiB (a 256 MiB file in 8 MiB parts went at 50 MiB/s through 25 ms each way,
// in 16 MiB parts at 73: each request costs a signature, a round trip and the client's CPU), nor
// so small that a part spends most of its time waiting for the store (four waits' worth of one
// request's bandwidth), and otherwise not so large that the parts in flight pass 1 GiB (a streamed copy
// holds its parts in memory; the floors win over it: 256 threads of 16 MiB parts are 4 GiB); within
// S3's 5 MiB to 5 GiB and 10,000 parts.

import { plural } from '../../../src/plural.ts';
import { formatBytes, GIB, MIB } from '../../../src/byte-units.ts';
import { choosePartSize } from '../../../src/part-size.ts';
import type { SignalSummary } from './request-signals.ts';

/** Files up to this size go in one request. */
export const AUTO_WHOLE_FILE_BYTES = 16 * MIB;
export const AUTO_MIN_PART_BYTES = 16 * MIB;
/** Threads × part size stays within this. */
export const AUTO_PARTS_IN_FLIGHT_BYTES = 1 * GIB;
/** A part moves at least this many of its request's waits' worth of bytes. */
const WAITS_PER_PART = 4;

export interface PartSizeInputs {
  readonly threads: number;
  /** What the requests measured lately (asked only for a file that is cut: a summary reads every sample). */
  readonly summary?: () => SignalSummary;
  /** A speed test's best part size: parts are at least this. */
  readonly preferredBytes?: number;
}

export interface PartSizeChoice {
  readonly partSizeBytes: number;
  readonly reason: string;
}

export function autoPartSize(size: number, inputs: PartSizeInputs): PartSizeChoice {
  if (size <= AUTO_WHOLE_FILE_BYTES)
    return {
      partSizeBytes: AUTO_WHOLE_FILE_BYTES,
      reason: `Files up to ${sizeWords(AUTO_WHOLE_FILE_BYTES)} go whole, in one request`,
    };
  const threads = Math.max(1, inputs.threads);
  const shared = size / threads;
  const waitFloor = waitWorthBytes(inputs.summary?.()) * WAITS_PER_PART;
  const lower = Math.max(AUTO_MIN_PART_BYTES, waitFloor, inputs.preferredBytes ?? 0);
  const upper = Math.max(lower, AUTO_PARTS_IN_FLIGHT_BYTES / threads);
  const chosen = Math.ceil(Math.min(upper, Math.max(lower, shared)) / MIB) * MIB;
  const partSizeBytes = choosePartSize(size, chosen);
  const why =
    partSizeBytes > chosen
      ? 'raised to stay within 10,000 parts'
      : chosen === Math.ceil(shared / MIB) * MIB
        ? `a ${sizeWords(size)} file shared by ${plural(threads, 'thread')}`
        : chosen < shared && chosen * threads <= AUTO_PARTS_IN_FLIGHT_BYTES
          ? `${plural(threads, 'thread')} × part size within ${sizeWords(AUTO_PARTS_IN_FLIGHT_BYTES)}`
          : waitFloor >= Math.max(AUTO_MIN_PART_BYTES, inputs.preferredBytes ?? 0)
            ? "large enough that a part is not mostly waiting for the store's answer"
            : 'not smaller, so fewer requests carry the file';
  return { partSizeBytes, reason: `${sizeWords(partSizeBytes)} parts: ${why}` };
}

/** "16 MiB", "1 GiB": a whole number of units where it is one. */
function sizeWords(bytes: number): string {
  if (bytes % GIB === 0) return `${bytes / GIB} GiB`;
  if (bytes % MIB === 0) return `${bytes / MIB} MiB`;
  return formatBytes(bytes);
}

/** The bytes one request moves in the time it waits for the store: bandwidth per request × its wait. */
function waitWorthBytes(summary: SignalSummary | undefined): number {
  if (!summary || summary.meanInFlight <= 0 || summary.medianWaitMs === undefined) return 0;
  return (summary.bytesPerSecond / summary.meanInFlight) * (summary.medianWaitMs / 1000);
}
