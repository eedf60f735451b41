// What the store's requests are doing, measured once where every job's request runs.
//
// Auto (which sets Threads and Part size) and the readout of what limits a transfer both decide from
// the same few signals: how long requests take, how much of that is waiting for the store (the round
// trip and the server's work) and how much is moving the body, how many bytes they move, and how
// many the store turns away (503 SlowDown, 429). One collector keeps them, so the two never disagree.
//
// A request is timed from the moment it holds a slot to the moment it ends. The data path marks two
// moments inside it, found through the async context, so no call between the job and the socket
// carries a timer:
// - `answered`: the store's answer began (a GET's headers): the wait before it is the round trip;
// - `sent`: the request's body is all handed over (a PUT): the wait after it is the store's answer.
// A request that marks neither counts as all waiting (a HEAD, a small control request).
// The data path also tells a request how long it waited on the local disk (disk/disk-time.ts): the
// file reads of an upload's body, the file writes of a download's.
//
// Samples go in a ring of fixed size, so a million requests cost no more memory than a thousand.
//
// A request in flight for long counts too, for its time so far: one large GET or PUT on a slow link
// ends only when the transfer does, and until then it is the only evidence there is. (A short one
// in flight is left to count when it ends: it may yet fail, and a failure is no measure of the link.)

import { AsyncLocalStorage } from 'node:async_hooks';

/** A cancelled request counts for its time, as neither a failure nor a throttle. */
export type RequestOutcome = 'ok' | 'throttled' | 'failed' | 'cancelled';

export interface RequestSample {
  /** performance.now() when the request took its slot. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** Of its time, the part spent waiting for the store, not moving a body. */
  readonly waitMs: number;
  /** Body bytes moved, up or down. */
  readonly bytes: number;
  readonly outcome: RequestOutcome;
  /** Of its time, the part spent reading or writing the local file. */
  readonly diskReadMs?: number;
  readonly diskWriteMs?: number;
}

/** The requests that ended within the last `seconds`. */
export interface SignalSummary {
  readonly seconds: number;
  readonly requests: number;
  readonly throttled: number;
  readonly failed: number;
  readonly bytes: number;
  /** Body bytes a second over the window. */
  readonly bytesPerSecond: number;
  readonly requestsPerSecond: number;
  /**
   * Medians over the window's requests that succeeded; undefined when none did. A request turned
   * away, failed or cancelled counts in the counts, not in the times: it did no work to time.
   */
  readonly medianDurationMs: number | undefined;
  readonly medianWaitMs: number | undefined;
  /** Of the succeeded (and long in-flight) requests' time, the share spent waiting for the store (0..1). */
  readonly waitShare: number | undefined;
  /** Of all the requests' time, the share spent reading the local files (uploads) or writing them (downloads). */
  readonly diskReadShare: number | undefined;
  readonly diskWriteShare: number | undefined;
  /** Mean body bytes a request. */
  readonly meanBytes: number | undefined;
  /** Requests in flight, on average over the window (the sum of their times over its length). */
  readonly meanInFlight: number;
  /** Requests in flight now that have run at least LONG_REQUEST_MS: each says as much as several short ones. */
  readonly longInFlight: number;
  /** Requests in flight now that have moved body bytes (a GET's answer arriving, a PUT's body going out). */
  readonly bodiesInFlight: number;
}

/** One request being timed; the data path marks it, the job ends it. */
export interface RequestTimer {
  /** The store's answer began (a GET's headers arrived). */
  answered(): void;
  /** The body is all handed over (a PUT's last byte written). */
  sent(): void;
  /** Body bytes moved so far are added to the sample. */
  moved(bytes: number): void;
  /** Time spent on the local file for this request, reading its body or writing its answer. */
  disk(ms: number, direction: 'read' | 'write'): void;
}

const RING_SIZE = 8_192;
/** A request in flight this long counts as evidence of its own (the wait and body shares include it). */
export const LONG_REQUEST_MS = 2_000;
const context = new AsyncLocalStorage<RequestTimer>();

/** The request running in this async context, for the data path to mark. */
export function currentRequest(): RequestTimer | undefined {
  return context.getStore();
}

/** A request being timed: its marks so far. */
interface OpenRequest {
  readonly startedAt: number;
  answeredAt?: number;
  sentAt?: number;
  /** When its first body byte moved (a PUT's body going out before it is all sent). */
  movedAt?: number;
  bytes: number;
  diskReadMs: number;
  diskWriteMs: number;
}

export class RequestSignals {
  private readonly ring: (RequestSample | undefined)[] = new Array(RING_SIZE);
  private next = 0;
  private readonly open = new Set<OpenRequest>();
  private readonly now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.now = now;
  }

  /** Requests being timed now. */
  get active(): number {
    return this.open.size;
  }

  /** Run `send` as one timed request; `outcomeOf` names how a failure ended. */
  async measure<T>(send: () => Promise<T>, outcomeOf: (error: unknown) => RequestOutcome): Promise<T> {
    const open: OpenRequest = { startedAt: this.now(), bytes: 0, diskReadMs: 0, diskWriteMs: 0 };
    const timer: RequestTimer = {
      answered: () => {
        open.answeredAt ??= this.now();
      },
      sent: () => {
        open.sentAt ??= this.now();
      },
      moved: (count) => {
        open.movedAt ??= this.now();
        open.bytes += count;
      },
      disk: (ms, direction) => {
        if (direction === 'read') open.diskReadMs += ms;
        else open.diskWriteMs += ms;
      },
    };
    this.open.add(open);
    let outcome: RequestOutcome = 'ok';
    try {
      return await context.run(timer, send);
    } catch (error) {
      outcome = outcomeOf(error);
      throw error;
    } finally {
      this.open.delete(open);
      const endedAt = this.now();
      const { startedAt, bytes, diskReadMs, diskWriteMs } = open;
      this.record({ startedAt, endedAt, waitMs: waitSoFar(open, endedAt), bytes, outcome, diskReadMs, diskWriteMs });
    }
  }

  record(sample: RequestSample): void {
    this.ring[this.next] = sample;
    this.next = (this.next + 1) % RING_SIZE;
  }

  /**
   * The requests that ended in the last `seconds` (as many as the ring still holds), of those that
   * started at `startedFrom` or later (performance.now()): a readout of what runs now leaves out the
   * requests of jobs that ended before it began.
   */
  summary(seconds: number, startedFrom = -Infinity): SignalSummary {
    const windowMs = seconds * 1000;
    const since = this.now() - windowMs;
    const durations: number[] = [];
    const waits: number[] = [];
    let throttled = 0;
    let failed = 0;
    let bytes = 0;
    let busyMs = 0;
    let waitMs = 0;
    let diskReadMs = 0;
    let diskWriteMs = 0;
    let requests = 0;
    let sharesMs = 0;
    for (const sample of this.ring) {
      if (!sample || sample.endedAt < since || sample.startedAt < startedFrom) continue;
      requests += 1;
      const duration = sample.endedAt - sample.startedAt;
      bytes += sample.bytes;
      busyMs += duration;
      if (sample.outcome === 'throttled') throttled += 1;
      else if (sample.outcome === 'failed') failed += 1;
      if (sample.outcome !== 'ok') continue;
      durations.push(duration);
      waits.push(sample.waitMs);
      sharesMs += duration;
      waitMs += sample.waitMs;
      diskReadMs += sample.diskReadMs ?? 0;
      diskWriteMs += sample.diskWriteMs ?? 0;
    }
    // The long ones in flight, for their time so far: in the shares, not in the counts or medians.
    let longInFlight = 0;
    let bodiesInFlight = 0;
    const now = this.now();
    for (const open of this.open) {
      if (open.bytes > 0) bodiesInFlight += 1;
      if (now - open.startedAt < LONG_REQUEST_MS) continue;
      longInFlight += 1;
      sharesMs += now - open.startedAt;
      waitMs += waitSoFar(open, now);
      diskReadMs += open.diskReadMs;
      diskWriteMs += open.diskWriteMs;
    }
    return {
      seconds,
      requests,
      throttled,
      failed,
      bytes,
      bytesPerSecond: bytes / seconds,
      requestsPerSecond: requests / seconds,
      medianDurationMs: median(durations),
      medianWaitMs: median(waits),
      waitShare: sharesMs > 0 ? waitMs / sharesMs : undefined,
      diskReadShare: sharesMs > 0 ? diskReadMs / sharesMs : undefined,
      diskWriteShare: sharesMs > 0 ? diskWriteMs / sharesMs : undefined,
      meanBytes: requests > 0 ? bytes / requests : undefined,
      meanInFlight: busyMs / windowMs,
      longInFlight,
      bodiesInFlight,
    };
  }
}

/**
 * Of a request's time until `at`, the part spent waiting for the store. A body sent: the wait is
 * after it. A body received: before it. A body going out (not all sent yet): before its first byte.
 * None of these: all of it.
 */
function waitSoFar(open: OpenRequest, at: number): number {
  if (open.sentAt !== undefined) return at - open.sentAt;
  if (open.answeredAt !== undefined) return open.answeredAt - open.startedAt;
  if (open.movedAt !== undefined) return open.movedAt - open.startedAt;
  return at - open.startedAt;
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  values.sort((a, b) => a - b);
  const middle = values.length >> 1;
  return values.length % 2 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
}
