import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { JobItem } from '../../../src/jobs.ts';
import { futureProblem, useRestore } from '../../../renderer/store/restore-store.ts';
import { isPreview, useJobs } from '../../../renderer/store/jobs-store.ts';
import { jobSnapshot, useFakeApi } from './fake-api.ts';

const target = { connectionId: 'c1', bucket: 'b', prefix: 'logs/' };
const NOW = Date.UTC(2026, 10, 26, 9, 0, 0);
const item = (key: string): JobItem => ({
  source: `s3://b/${key}`,
  destination: '',
  state: 'done',
  message: 'would remove its delete marker',
});

const initialJobs = useJobs.getState();
beforeEach(() => {
  useRestore.getState().close();
  useJobs.setState(initialJobs, true);
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    queueMicrotask(() => callback(0));
    return 1;
  });
});
afterEach(() => vi.unstubAllGlobals());

it('refuses a moment in the future in the dialog, asking nothing of the host', async () => {
  const api = useFakeApi();
  useRestore.getState().open(target);
  await useRestore.getState().plan(NOW + 60_000, NOW);
  expect(useRestore.getState().error).toMatch(/is in the future: a restore brings a folder back to how it was/);
  expect(api.calls).toEqual([]);
  expect(futureProblem(NOW, NOW)).toBeUndefined();
});

it('runs a dry run first (never listed as a transfer), lists its changes once it ends, then restores', async () => {
  const to = NOW - 3_600_000;
  const api = useFakeApi({
    'jobs.restore': (params) =>
      jobSnapshot(params.dryRun ? 'plan' : 'real', {
        kind: 'restore',
        state: { status: 'running' },
        ...(params.dryRun ? { dryRun: true } : {}),
      }),
    'jobs.details': (params) => ({
      items: params.offset === 0 ? [item('logs/a'), item('logs/b')] : [],
      total: 2,
      unlisted: 0,
    }),
  });
  useRestore.getState().open(target);
  await useRestore.getState().plan(to, NOW);
  expect(api.calls[0]).toEqual({ method: 'jobs.restore', params: { ...target, to, dryRun: true } });
  expect(useRestore.getState()).toMatchObject({ planId: 'plan', planned: false });
  expect(isPreview(useJobs.getState().jobs.get('plan') ?? { id: 'plan' }, useJobs.getState().previews)).toBe(true);

  // Restore cannot run before the list is there.
  expect(await useRestore.getState().run()).toBeUndefined();

  await useRestore.getState().planMoved(jobSnapshot('plan', { kind: 'restore', state: { status: 'completed' } }));
  expect(useRestore.getState()).toMatchObject({ planned: true, total: 2 });
  expect(useRestore.getState().changes.map((c) => c.source)).toEqual(['s3://b/logs/a', 's3://b/logs/b']);
  expect(api.calls.find((c) => c.method === 'jobs.details')!.params).toEqual({
    id: 'plan',
    filter: 'all',
    offset: 0,
    limit: 1000,
  });

  const job = await useRestore.getState().run();
  expect(job?.id).toBe('real');
  expect(api.calls.at(-1)).toEqual({ method: 'jobs.restore', params: { ...target, to, dryRun: false } });
});

it("shows the dry run's refusal (versioning never enabled) as its error, and lists nothing", async () => {
  useFakeApi({ 'jobs.restore': jobSnapshot('plan', { kind: 'restore', dryRun: true }) });
  useRestore.getState().open(target);
  await useRestore.getState().plan(NOW - 1000, NOW);
  const why = 'The bucket b has never kept versions (versioning was never enabled): there is no earlier state.';
  await useRestore.getState().planMoved(
    jobSnapshot('plan', {
      kind: 'restore',
      state: { status: 'failed', error: { code: 'VersioningOff', message: why } },
    }),
  );
  expect(useRestore.getState()).toMatchObject({ error: why, planned: false, changes: [] });
});

it('cancels a dry run nobody will read (the dialog closed before it ended)', async () => {
  const api = useFakeApi({
    'jobs.restore': jobSnapshot('plan', { kind: 'restore', dryRun: true }),
    'jobs.cancel': null,
  });
  useRestore.getState().open(target);
  await useRestore.getState().plan(NOW - 1000, NOW);
  useRestore.getState().close();
  expect(api.calls.at(-1)).toEqual({ method: 'jobs.cancel', params: { id: 'plan' } });
  expect(useRestore.getState().target).toBeUndefined();
});
