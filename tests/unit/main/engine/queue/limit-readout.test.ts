import { describe, expect, it } from 'vitest';
import { readLimit } from '../../../../../main/engine/queue/limit-readout.ts';
import type { LimitSignals } from '../../../../../main/engine/queue/limit-readout.ts';
import type { SignalSummary } from '../../../../../main/engine/queue/request-signals.ts';

const MIB = 1024 * 1024;

/** Five seconds of 100 requests, 40% of their time waiting: no one condition. */
function requests(patch: Partial<SignalSummary> = {}): SignalSummary {
  return {
    seconds: 5,
    requests: 100,
    throttled: 0,
    failed: 0,
    bytes: 100 * MIB,
    bytesPerSecond: 20 * MIB,
    requestsPerSecond: 20,
    medianDurationMs: 200,
    medianWaitMs: 80,
    waitShare: 0.5,
    diskReadShare: 0.05,
    diskWriteShare: 0,
    meanBytes: MIB,
    meanInFlight: 4,
    longInFlight: 0,
    bodiesInFlight: 0,
    ...patch,
  };
}

function signals(patch: Partial<LimitSignals> = {}, summary: Partial<SignalSummary> = {}): LimitSignals {
  return {
    running: true,
    requests: requests(summary),
    inFlight: 4,
    cpu: { eventLoop: 0.3, process: 0.3 },
    bytesPerSecond: 20 * MIB,
    maxRate: 0,
    gateHeld: false,
    ...patch,
  };
}

describe('names each condition from its signal', () => {
  it.each<[string, LimitSignals, string, string]>([
    ['latency', signals({}, { waitShare: 0.9, meanBytes: 16 * 1024, medianWaitMs: 52 }), 'latency', 'Latency-bound'],
    ['bandwidth', signals({}, { waitShare: 0.1 }), 'bandwidth', 'Bandwidth-bound'],
    ['throttling', signals({}, { throttled: 10, waitShare: 0.9 }), 'throttled', 'Throttled by the store'],
    [
      'the cap',
      signals({ maxRate: 20 * MIB, bytesPerSecond: 19 * MIB, gateHeld: true }, { waitShare: 0.1 }),
      'max-speed',
      'Your Max speed',
    ],
    ['the CPU', signals({ cpu: { eventLoop: 0.97, process: 0.5 } }, { waitShare: 0.1 }), 'cpu', "This computer's CPU"],
    ['a hashing worker', signals({ workers: 0.95 }), 'cpu', "This computer's CPU"],
    ['every core it may use', signals({ cpu: { eventLoop: 0.6, process: 0.97 } }), 'cpu', "This computer's CPU"],
    ['the disk, reading', signals({}, { diskReadShare: 0.7 }), 'disk', 'The local disk: reading'],
    ['the disk, writing', signals({}, { diskWriteShare: 0.7, diskReadShare: 0 }), 'disk', 'The local disk: writing'],
  ])('%s', (_name, input, kind, words) => {
    const readout = readLimit(input);
    expect(readout?.kind).toBe(kind);
    expect(readout?.words.startsWith(words)).toBe(true);
    expect(readout?.figures.length).toBeGreaterThan(0);
  });

  it('gives the figures behind a latency readout, for scripts and in words', () => {
    const readout = readLimit(signals({ inFlight: 64 }, { waitShare: 0.84, meanBytes: 16 * 1024, medianWaitMs: 52 }));
    expect(readout?.figures).toEqual([
      { name: 'waitShare', value: 0.84, text: '84% of request time waiting for the store' },
      { name: 'medianWaitMs', value: 52, text: 'median wait 52 ms' },
      { name: 'meanBytes', value: 16 * 1024, text: '16.0 KiB a request' },
      { name: 'requestsInFlight', value: 64, text: '64 in flight' },
    ]);
  });
});

describe('the order when several hold', () => {
  it("the user's cap first: a capped transfer also moves bodies slowly", () => {
    expect(
      readLimit(
        signals(
          { maxRate: MIB, bytesPerSecond: MIB, gateHeld: true, cpu: { eventLoop: 0.95, process: 0.5 } },
          { throttled: 20 },
        ),
      )?.kind,
    ).toBe('max-speed');
  });

  it('throttling before latency: refused requests also wait', () => {
    expect(readLimit(signals({}, { throttled: 20, waitShare: 0.95 }))?.kind).toBe('throttled');
  });

  it('the CPU before the disk and the network: a busy loop slows every measured time', () => {
    expect(
      readLimit(signals({ cpu: { eventLoop: 0.95, process: 0.6 } }, { diskReadShare: 0.8, waitShare: 0.9 }))?.kind,
    ).toBe('cpu');
  });

  it('a cap the throughput is near but the gate never held bytes back for is not the limit', () => {
    expect(
      readLimit(signals({ maxRate: 20 * MIB, bytesPerSecond: 19 * MIB, gateHeld: false }, { waitShare: 0.1 }))?.kind,
    ).toBe('bandwidth');
  });

  it('a cap far above the throughput is not the limit', () => {
    expect(readLimit(signals({ maxRate: 100 * MIB }, { waitShare: 0.9 }))?.kind).toBe('latency');
  });
});

describe('says nothing rather than guess', () => {
  it('when nothing runs', () => {
    expect(readLimit(signals({ running: false }, { waitShare: 0.9 }))).toBeUndefined();
  });

  it('when no request is in flight or ended', () => {
    expect(readLimit(signals({ inFlight: 0 }, { requests: 0, waitShare: undefined }))).toBeUndefined();
  });

  it('when no condition dominates', () => {
    expect(readLimit(signals())).toBeUndefined();
  });

  it('of the network from too few requests', () => {
    expect(readLimit(signals({}, { requests: 2, waitShare: 0.95 }))).toBeUndefined();
  });

  it("of the network from a large transfer's bodiless first requests, while its bodies move", () => {
    const start = { requests: 4, bytes: 0, meanBytes: 0, waitShare: 1, bodiesInFlight: 8 };
    expect(readLimit(signals({ inFlight: 8 }, start))).toBeUndefined();
    // A GET that has run long says what limits it; so do bodiless requests with no body moving (a delete).
    expect(readLimit(signals({ inFlight: 8 }, { ...start, longInFlight: 1, waitShare: 0.1 }))?.kind).toBe('bandwidth');
    expect(readLimit(signals({ inFlight: 8 }, { ...start, bodiesInFlight: 0 }))?.kind).toBe('latency');
  });

  it('of one throttled request among many', () => {
    expect(readLimit(signals({}, { throttled: 1, waitShare: 0.5 }))).toBeUndefined();
  });
});

describe('does not flicker between two conditions', () => {
  it('keeps latency-bound while the wait share wavers below where it began', () => {
    const wavering = [0.62, 0.5, 0.58, 0.47, 0.55];
    const kinds: (string | undefined)[] = [];
    let previous: ReturnType<typeof readLimit>;
    for (const waitShare of wavering) {
      previous = readLimit(signals({}, { waitShare }), previous?.kind);
      kinds.push(previous?.kind);
    }
    expect(kinds).toEqual(['latency', 'latency', 'latency', 'latency', 'latency']);
  });

  it('keeps bandwidth-bound through the same wavering, and leaves it once the waits clearly dominate', () => {
    expect(readLimit(signals({}, { waitShare: 0.48 }), 'bandwidth')?.kind).toBe('bandwidth');
    expect(readLimit(signals({}, { waitShare: 0.48 }))).toBeUndefined();
    expect(readLimit(signals({}, { waitShare: 0.65 }), 'bandwidth')?.kind).toBe('latency');
  });

  it('keeps the CPU while the loop stays busy, not from the first quiet reading', () => {
    expect(readLimit(signals({ cpu: { eventLoop: 0.8, process: 0.5 } }), 'cpu')?.kind).toBe('cpu');
    expect(readLimit(signals({ cpu: { eventLoop: 0.8, process: 0.5 } }))).toBeUndefined();
    expect(readLimit(signals({ cpu: { eventLoop: 0.6, process: 0.5 } }), 'cpu')).toBeUndefined();
  });

  it('keeps throttling and the cap at their lower levels', () => {
    expect(readLimit(signals({}, { throttled: 3 }), 'throttled')?.kind).toBe('throttled');
    expect(readLimit(signals({}, { throttled: 3 }))).toBeUndefined();
    expect(readLimit(signals({ maxRate: 20 * MIB, bytesPerSecond: 14 * MIB, gateHeld: true }), 'max-speed')?.kind).toBe(
      'max-speed',
    );
    expect(readLimit(signals({ maxRate: 20 * MIB, bytesPerSecond: 14 * MIB, gateHeld: true }))).toBeUndefined();
  });
});

it('says a wait after large bodies is the store being slow to take them, which more threads may not cure', () => {
  expect(readLimit(signals({}, { waitShare: 0.8, meanBytes: 8 * MIB }))?.words).toMatch(
    /^Latency-bound: .*the store is slow to take them\); more threads may not help/,
  );
});

it('does not blame the disk while the event loop is nearly full: the reads and writes waited for the loop', () => {
  expect(readLimit(signals({ cpu: { eventLoop: 0.85, process: 0.5 } }, { diskWriteShare: 0.8 }))).toBeUndefined();
});
