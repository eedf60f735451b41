import { expect, it } from 'vitest';
import { currentRequest, RequestSignals } from '../../../../../main/engine/queue/request-signals.ts';

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const failedAs = () => 'failed' as const;

it('splits a GET into its wait for the answer and its body, from marks made deep in the call', async () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  await signals.measure(async () => {
    time.advance(30);
    await Promise.resolve();
    currentRequest()!.answered();
    time.advance(10);
    currentRequest()!.moved(4096);
  }, failedAs);
  const summary = signals.summary(1);
  expect(summary).toMatchObject({ requests: 1, bytes: 4096, medianDurationMs: 40, medianWaitMs: 30 });
  expect(summary.waitShare).toBeCloseTo(0.75);
  expect(summary.meanInFlight).toBeCloseTo(0.04);
});

it("counts a PUT's wait after its body is sent", async () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  await signals.measure(async () => {
    time.advance(50);
    currentRequest()!.sent();
    time.advance(20);
  }, failedAs);
  expect(signals.summary(1).medianWaitMs).toBe(20);
});

it('counts throttled and failed requests by how their failure is named, and rethrows', async () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  const slowDown = Object.assign(new Error('SlowDown'), { throttled: true });
  const outcome = (error: unknown) => ((error as { throttled?: boolean }).throttled ? 'throttled' : 'failed');
  await expect(signals.measure(() => Promise.reject(slowDown), outcome)).rejects.toBe(slowDown);
  await expect(signals.measure(() => Promise.reject(new Error('reset')), outcome)).rejects.toThrow('reset');
  await signals.measure(() => Promise.resolve(), outcome);
  expect(signals.summary(1)).toMatchObject({ requests: 3, throttled: 1, failed: 1 });
  expect(signals.active).toBe(0);
});

it('summarises only the requests that ended within the window', async () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  await signals.measure(async () => {
    time.advance(10);
    currentRequest()!.moved(100);
  }, failedAs);
  time.advance(5_000);
  await signals.measure(async () => {
    time.advance(10);
    currentRequest()!.moved(7);
  }, failedAs);
  expect(signals.summary(1)).toMatchObject({ requests: 1, bytes: 7, bytesPerSecond: 7 });
  expect(signals.summary(10)).toMatchObject({ requests: 2, bytes: 107 });
});

it('keeps a bounded number of samples however many requests run', async () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  for (let i = 0; i < 20_000; i++) await signals.measure(async () => void time.advance(0.01), failedAs);
  const summary = signals.summary(1_000);
  expect(summary.requests).toBeGreaterThan(1_000);
  expect(summary.requests).toBeLessThan(20_000);
});

it('leaves no request current outside a measured call', () => {
  expect(currentRequest()).toBeUndefined();
});

it("counts a request's time on the local disk, reading and writing apart, as shares of all requests' time", async () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  await signals.measure(async () => {
    time.advance(100);
    currentRequest()!.disk(30, 'read');
    currentRequest()!.disk(20, 'read');
  }, failedAs);
  await signals.measure(async () => {
    time.advance(100);
    currentRequest()!.disk(40, 'write');
  }, failedAs);
  const summary = signals.summary(1);
  expect(summary.diskReadShare).toBeCloseTo(0.25);
  expect(summary.diskWriteShare).toBeCloseTo(0.2);
});

it('reads a request still in flight for its time so far: a long GET is mostly body, before it ends', async () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  let finish!: () => void;
  const running = signals.measure(async () => {
    time.advance(50);
    currentRequest()!.answered();
    currentRequest()!.moved(1024);
    await new Promise<void>((resolve) => (finish = resolve));
  }, failedAs);
  await Promise.resolve();
  time.advance(2_950);
  const summary = signals.summary(5);
  expect(summary).toMatchObject({ requests: 0, longInFlight: 1, bodiesInFlight: 1 });
  expect(summary.waitShare).toBeCloseTo(50 / 3_000);
  finish();
  await running;
});

it("times only the requests that succeeded: a failed one's wait is no measure of the link", async () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  const failing = signals.measure(async () => {
    time.advance(40);
    throw new Error('InternalError');
  }, failedAs);
  await expect(failing).rejects.toThrow('InternalError');
  await signals.measure(async () => {
    time.advance(5);
    currentRequest()!.answered();
    time.advance(15);
  }, failedAs);
  expect(signals.summary(1)).toMatchObject({ requests: 2, failed: 1, medianWaitMs: 5 });
  expect(signals.summary(1).waitShare).toBeCloseTo(0.25);
});

it('counts the bodies moving now, however short: a HEAD, or a GET of an empty object, is not one', async () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  const finishes: (() => void)[] = [];
  const hold = () => new Promise<void>((resolve) => finishes.push(resolve));
  const running = [
    signals.measure(async () => {
      currentRequest()!.answered();
      currentRequest()!.moved(4096);
      await hold();
    }, failedAs),
    signals.measure(async () => {
      currentRequest()!.answered();
      await hold();
    }, failedAs),
    signals.measure(async () => {
      currentRequest()!.moved(1);
      await hold();
    }, failedAs),
    signals.measure(hold, failedAs),
  ];
  await Promise.resolve();
  time.advance(10);
  expect(signals.summary(5)).toMatchObject({ longInFlight: 0, bodiesInFlight: 2 });
  for (const finish of finishes) finish();
  await Promise.all(running);
  expect(signals.summary(5).bodiesInFlight).toBe(0);
});

it('leaves out the requests that started before a given moment: an ended job is not what runs now', () => {
  const time = clock();
  const signals = new RequestSignals(time.now);
  time.advance(10_000);
  const sample = (startedAt: number, bytes: number) =>
    signals.record({ startedAt, endedAt: startedAt + 100, waitMs: 90, bytes, outcome: 'ok' });
  sample(8_000, 5);
  sample(8_500, 7);
  sample(9_500, 11);
  expect(signals.summary(5)).toMatchObject({ requests: 3, bytes: 23 });
  expect(signals.summary(5, 8_500)).toMatchObject({ requests: 2, bytes: 18 });
  expect(signals.summary(5, 9_900)).toMatchObject({ requests: 0, waitShare: undefined });
});
