// Test this endpoint's store: the saved result shown on opening, a run followed by its events, and a
// Cancel (or a close) that reaches the host even when it comes before the run's ID does.

import { beforeEach, expect, it } from 'vitest';
import { shownResult, useSpeedTest } from '../../../renderer/store/speed-test-store.ts';
import type { SavedSpeedTest, SpeedTestResult } from '../../../src/speed-test.ts';
import { useFakeApi } from './fake-api.ts';

const target = { connectionId: 'c1', bucket: 'b', prefix: 'bench/' };
const cleanup = { place: 's3://b/bench/.barge-speedtest-x/', clean: true, objectsLeft: 0, uploadsLeft: 0 };
const result: SpeedTestResult = {
  id: 'x',
  endpoint: 'loopback:9000',
  bucket: 'b',
  prefix: 'bench/',
  measuredAt: 1,
  budgetMs: 15_000,
  elapsedMs: 15_000,
  cells: [],
  runningJobs: 0,
};
const saved: SavedSpeedTest = {
  threads: 64,
  partSizeBytes: undefined,
  partConcurrency: undefined,
  threadsBySize: [],
  measuredAt: 1,
  result,
};

beforeEach(() => {
  useSpeedTest.setState({ target: undefined, running: undefined, outcome: undefined, saved: undefined });
});

it('shows the saved result on opening, runs with the chosen budget, and follows the run by its events', async () => {
  const api = useFakeApi({ 'speedtest.saved': saved, 'speedtest.start': { runId: 'r1' } });
  await useSpeedTest.getState().open(target);
  expect(shownResult(useSpeedTest.getState())).toBe(result);
  useSpeedTest.getState().setBudget(30_000);
  await useSpeedTest.getState().run();
  expect(api.calls.at(-1)).toEqual({ method: 'speedtest.start', params: { ...target, budgetMs: 30_000 } });
  // While it runs, no old result shows under the progress bar; another run's events are not this one's.
  const progress = { phase: 'measuring' as const, fraction: 0.5, cellsDone: 35, cellsTotal: 70, place: cleanup.place };
  useSpeedTest.getState().received({ type: 'speedtest', runId: 'other', progress: { ...progress, fraction: 0.9 } });
  useSpeedTest.getState().received({ type: 'speedtest', runId: 'r1', progress });
  expect(useSpeedTest.getState().running?.progress?.fraction).toBe(0.5);
  const measured = { ...result, id: 'new', measuredAt: 2 };
  useSpeedTest
    .getState()
    .received({ type: 'speedtest', runId: 'r1', outcome: { state: 'done', result: measured, cleanup } });
  expect(useSpeedTest.getState().running).toBeUndefined();
  expect(shownResult(useSpeedTest.getState())).toBe(measured);
});

it('a Cancel before the host has answered the start is sent once the run has its ID; a close cancels too', async () => {
  let answer: (value: { runId: string }) => void = () => undefined;
  const started = new Promise<{ runId: string }>((resolve) => (answer = resolve));
  const api = useFakeApi({ 'speedtest.saved': null, 'speedtest.cancel': null });
  api.call = (async (method: string, params: unknown) => {
    api.calls.push({ method, params });
    if (method === 'speedtest.start') return { ok: true, value: await started };
    return { ok: true, value: null };
  }) as typeof api.call;
  await useSpeedTest.getState().open(target);
  const running = useSpeedTest.getState().run();
  useSpeedTest.getState().cancel();
  answer({ runId: 'r2' });
  await running;
  expect(api.calls.filter((call) => call.method === 'speedtest.cancel')).toEqual([
    { method: 'speedtest.cancel', params: { runId: 'r2' } },
  ]);
  useSpeedTest.getState().received({ type: 'speedtest', runId: 'r2', outcome: { state: 'cancelled', cleanup } });
  expect(useSpeedTest.getState().outcome?.state).toBe('cancelled');

  useSpeedTest.setState({ running: { runId: 'r3' } });
  useSpeedTest.getState().close();
  expect(api.calls.at(-1)).toEqual({ method: 'speedtest.cancel', params: { runId: 'r3' } });
  expect(useSpeedTest.getState().target).toBeUndefined();
});
