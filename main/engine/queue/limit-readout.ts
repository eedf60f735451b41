// What limits the running transfers now, in words a user acts on, from measured signals.
//
// One condition is named, the first that holds in this order: the user's own cap (nothing else
// matters while it holds bytes back), the store turning requests away, the client's CPU, the local
// disk, then the network or the store, latency-bound or bandwidth-bound. Where none holds, or
// nothing runs, the readout says nothing rather than guess.
//
// Each condition is entered at one level and left at a lower one (a Schmitt trigger): a signal that
// wavers around a threshold keeps the condition it had, so the readout does not flicker between two.

import { formatBytes, formatRate } from '../../../src/byte-units.ts';
import type { LimitFigure, LimitKind, LimitReadout } from '../../../src/contract/models.ts';
import type { CpuShares } from './cpu-load.ts';
import type { SignalSummary } from './request-signals.ts';

export interface LimitSignals {
  /** A transfer is running (not paused, not only waiting for files to arrive). */
  readonly running: boolean;
  /** The requests that ended in the readout's window. */
  readonly requests: SignalSummary;
  /** Requests in flight now. */
  readonly inFlight: number;
  /** How busy the client's CPU was over the window (cpu-load.ts); undefined before it is known. */
  readonly cpu: CpuShares | undefined;
  /** The busiest share of a worker pool's threads (0..1), where one hashes. */
  readonly workers?: number | undefined;
  /** The running jobs' throughput now, bytes a second. */
  readonly bytesPerSecond: number;
  /** The Max speed setting, bytes a second; 0 when there is none. */
  readonly maxRate: number;
  /** The byte gate held a chunk back for the Max speed within the window. */
  readonly gateHeld: boolean;
}

/** Entered at `enter`, kept while at least `stay`. */
interface Level {
  readonly enter: number;
  readonly stay: number;
}

/** Throughput at this share of the Max speed: the gate is what holds the bytes back. */
export const AT_CAP: Level = { enter: 0.8, stay: 0.6 };
/** Requests the store turned away (503 SlowDown, 429), as a share of those that ended. */
export const THROTTLED: Level = { enter: 0.05, stay: 0.02 };
/** The busiest of the event loop's share, the process's share of its cores, a hashing worker's share. */
export const CPU_BUSY: Level = { enter: 0.9, stay: 0.75 };
/** The requests' time spent reading or writing the local files. */
export const DISK_SHARE: Level = { enter: 0.5, stay: 0.35 };
/** The requests' time spent waiting for the store's answer: above, latency-bound. */
export const WAIT_SHARE: Level = { enter: 0.6, stay: 0.45 };
/** The requests' time spent moving bodies (1 - the wait share): above, bandwidth-bound. */
export const BODY_SHARE: Level = { enter: 0.6, stay: 0.5 };
/** Requests this large that wait mostly wait for the store's work, not for the round trip. */
export const LARGE_REQUEST_BYTES = 4 * 1024 * 1024;
/**
 * Fewer requests than this in the window say nothing of the network or the store, unless one in
 * flight has run long (request-signals.ts LONG_REQUEST_MS): a large GET or PUT is read while it runs.
 */
export const MIN_REQUESTS = 3;

/** The window holds enough to say what the network or the store does. */
export function enoughRequests(requests: SignalSummary): boolean {
  if (requests.longInFlight > 0) return true;
  // Only bodiless requests ended (a HEAD, a listing, a multipart upload's creation) while bodies are
  // moving: a large transfer's first seconds. All waiting, they would read "latency-bound"; the GETs
  // and PUTs say what limits it once they end or have run LONG_REQUEST_MS.
  if (requests.bytes === 0 && requests.bodiesInFlight > 0) return false;
  return requests.requests >= MIN_REQUESTS;
}

function holds(value: number | undefined, level: Level, held: boolean): boolean {
  return value !== undefined && value >= (held ? level.stay : level.enter);
}

const percent = (share: number) => `${Math.round(share * 100)}%`;
const figure = (name: string, value: number, text: string): LimitFigure => ({ name, value, text });

/**
 * The condition that limits the running transfers, or undefined; `previous` is the last readout's
 * kind, which is kept while its signal stays above its lower level.
 */
export function readLimit(signals: LimitSignals, previous?: LimitKind): LimitReadout | undefined {
  const { requests } = signals;
  if (!signals.running || (signals.inFlight === 0 && requests.requests === 0)) return undefined;
  const held = (kind: LimitKind) => previous === kind;
  const inFlight = figure('requestsInFlight', signals.inFlight, `${signals.inFlight} in flight`);

  // At the cap and held there: a link that happens to be as slow as the cap holds nothing back.
  const capped = signals.maxRate > 0 && signals.gateHeld;
  if (capped && holds(signals.bytesPerSecond / signals.maxRate, AT_CAP, held('max-speed')))
    return {
      kind: 'max-speed',
      words: 'Your Max speed: the transfers run at the cap you set; raise or remove it to go faster.',
      figures: [
        figure('bytesPerSecond', signals.bytesPerSecond, formatRate(signals.bytesPerSecond)),
        figure('maxBytesPerSecond', signals.maxRate, `of a ${formatRate(signals.maxRate)} cap`),
      ],
    };

  const throttledShare = requests.requests > 0 ? requests.throttled / requests.requests : undefined;
  if (requests.throttled > 0 && holds(throttledShare, THROTTLED, held('throttled')))
    return {
      kind: 'throttled',
      words:
        'Throttled by the store: it turns requests away (503 SlowDown or 429) and they are sent again ' +
        'after a pause; fewer threads may help.',
      figures: [
        figure('throttledRequests', requests.throttled, `${requests.throttled} of ${requests.requests} requests`),
        figure('throttledShare', throttledShare!, `${percent(throttledShare!)} turned away`),
        figure('windowSeconds', requests.seconds, `in the last ${requests.seconds} s`),
      ],
    };

  const { cpu, workers } = signals;
  const busiest = Math.max(cpu?.eventLoop ?? 0, cpu?.process ?? 0, workers ?? 0);
  if (holds(cpu === undefined && workers === undefined ? undefined : busiest, CPU_BUSY, held('cpu')))
    return {
      kind: 'cpu',
      words:
        "This computer's CPU: Barge is busy nearly all the time (hashing, signing, copying bytes); " +
        'more threads will not help, fewer other programs or a faster CPU would.',
      figures: [
        ...(cpu === undefined
          ? []
          : [
              figure('eventLoopUtilisation', cpu.eventLoop, `main thread busy ${percent(cpu.eventLoop)}`),
              figure('processCpuShare', cpu.process, `${percent(cpu.process)} of the cores it may use`),
            ]),
        ...(workers === undefined
          ? []
          : [figure('workerUtilisation', workers, `hashing threads busy ${percent(workers)}`)]),
      ],
    };

  if (!enoughRequests(requests)) return undefined;

  const reading = (requests.diskReadShare ?? 0) >= (requests.diskWriteShare ?? 0);
  const diskShare = reading ? requests.diskReadShare : requests.diskWriteShare;
  // A file read's or write's time includes its wait for the event loop: with the loop near full,
  // that wait is the CPU's, and the disk only looks slow.
  const loopHasRoom = (cpu?.eventLoop ?? 0) < CPU_BUSY.stay;
  if (loopHasRoom && holds(diskShare, DISK_SHARE, held('disk')))
    return {
      kind: 'disk',
      words:
        `The local disk: ${reading ? 'reading' : 'writing'} the files takes most of the transfer's time; ` +
        'more threads will not help, a faster disk (or another folder on one) would.',
      figures: [
        figure(
          reading ? 'diskReadShare' : 'diskWriteShare',
          diskShare!,
          `${percent(diskShare!)} of request time ${reading ? 'reading' : 'writing'} files`,
        ),
        inFlight,
      ],
    };

  const wait = requests.waitShare;
  const medianWait =
    requests.medianWaitMs === undefined
      ? []
      : [figure('medianWaitMs', requests.medianWaitMs, `median wait ${Math.round(requests.medianWaitMs)} ms`)];
  const perRequest =
    requests.meanBytes === undefined
      ? []
      : [figure('meanBytes', requests.meanBytes, `${formatBytes(requests.meanBytes)} a request`)];
  if (holds(wait, WAIT_SHARE, held('latency')))
    return {
      kind: 'latency',
      words:
        (requests.meanBytes ?? 0) < LARGE_REQUEST_BYTES
          ? "Latency-bound: requests spend most of their time waiting for the store's answer (many small " +
            'requests); more threads would help.'
          : "Latency-bound: requests spend most of their time waiting for the store's answer after their " +
            'bodies (the store is slow to take them); more threads may not help.',
      figures: [
        figure('waitShare', wait!, `${percent(wait!)} of request time waiting for the store`),
        ...medianWait,
        ...perRequest,
        inFlight,
      ],
    };
  if (holds(wait === undefined ? undefined : 1 - wait, BODY_SHARE, held('bandwidth')))
    return {
      kind: 'bandwidth',
      words:
        'Bandwidth-bound: moving the bytes takes most of the time, not waiting for the store; ' +
        'more threads will not help.',
      figures: [
        figure('bytesPerSecond', signals.bytesPerSecond, formatRate(signals.bytesPerSecond)),
        figure('bodyShare', 1 - wait!, `${percent(1 - wait!)} of request time moving bytes`),
        ...perRequest,
        inFlight,
      ],
    };
  return undefined;
}
