import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  HISTORY_POINTS,
  MAX_ITEMS,
  isPreview,
  mergeJobs,
  onJobsCompleted,
  pushBounded,
  useJobs,
} from '../../../renderer/store/jobs-store.ts';
import type { JobSnapshot } from '../../../src/jobs.ts';
import { jobSnapshot, useFakeApi } from './fake-api.ts';

const saved: { fileName: string; text: string; type: string }[] = [];
vi.mock('../../../renderer/save-file.ts', () => ({
  saveFile: (fileName: string, text: string, type: string) => saved.push({ fileName, text, type }),
}));

function job(id: string, createdAt: number, bytesPerSecond = 0): JobSnapshot {
  return {
    id,
    kind: 'upload',
    name: id,
    state: { status: 'running' },
    itemErrors: [],
    createdAt,
    progress: {
      objectsDone: 0,
      objectsFailed: 0,
      objectsTotal: 1,
      bytesDone: 0,
      bytesTotal: 1,
      totalsKnown: true,
      bytesPerSecond,
      etaSeconds: undefined,
    },
  };
}

describe('jobs store', () => {
  it('keeps a bounded speed history', () => {
    let history: number[] = [];
    for (let i = 0; i < HISTORY_POINTS + 10; i++) history = pushBounded(history, i);
    expect(history).toHaveLength(HISTORY_POINTS);
    expect(history.at(-1)).toBe(HISTORY_POINTS + 9);
    expect(history[0]).toBe(10);
  });

  it('takes numbers over a job it knows, keeps its name and items, and leaves numbers of an unknown job to be loaded whole', () => {
    const known = mergeJobs(new Map(), [], new Map(), [job('a', 1)]);
    const withItems = new Map(known.jobs);
    withItems.set('a', { ...withItems.get('a')!, itemErrors: [{ item: 'x', code: 'AccessDenied', message: 'no' }] });
    const update = {
      id: 'a',
      state: { status: 'failed', error: { code: 'AccessDenied', message: 'no' } },
      progress: { ...job('a', 1).progress, objectsFailed: 1 },
    } as const;
    const merged = mergeJobs(withItems, known.order, known.history, [
      update,
      { id: 'z', state: { status: 'running' }, progress: job('z', 2).progress },
    ]);
    expect(merged.jobs.get('a')).toMatchObject({
      name: 'a',
      kind: 'upload',
      state: { status: 'failed' },
      progress: { objectsFailed: 1 },
      itemErrors: [{ item: 'x' }],
    });
    expect(merged.jobs.has('z')).toBe(false);
    expect(merged.unknown).toBe(true);
    expect(mergeJobs(withItems, known.order, known.history, [update]).unknown).toBe(false);
  });

  it('keeps item errors and warnings as they arrive, bounded, and none for a job it does not know', () => {
    useJobs.getState().replaceAll([jobSnapshot('j1')]);
    const error = (n: number) => ({ item: `k${n}`, code: 'AccessDenied', message: `k${n}: no` });
    useJobs.getState().addItems('j1', [error(1)], []);
    useJobs.getState().addItems(
      'j1',
      Array.from({ length: MAX_ITEMS + 5 }, (_, n) => error(n + 2)),
      [{ item: 'k', code: 'SizeOnly', message: 'size only' }],
    );
    useJobs.getState().addItems('nobody', [error(0)], []);
    const kept = useJobs.getState().jobs.get('j1')!;
    expect(kept.itemErrors).toHaveLength(MAX_ITEMS);
    expect(kept.itemErrors[0]).toMatchObject({ item: 'k1' });
    expect(kept.itemWarnings).toEqual([{ item: 'k', code: 'SizeOnly', message: 'size only' }]);
    expect(useJobs.getState().jobs.has('nobody')).toBe(false);
  });

  it('merges batches: new jobs first (newest on top), updates in place, history per job', () => {
    let state = mergeJobs(new Map(), [], new Map(), [job('a', 1, 10), job('b', 2, 20)]);
    expect(state.order).toEqual(['b', 'a']);
    state = mergeJobs(state.jobs, state.order, state.history, [job('a', 1, 30), job('c', 3)]);
    expect(state.order).toEqual(['c', 'b', 'a']);
    expect(state.jobs.get('a')!.progress.bytesPerSecond).toBe(30);
    expect(state.history.get('a')).toEqual([10, 30]);
    expect(state.history.get('b')).toEqual([20]);
  });

  it('handles a thousand jobs in one batch', () => {
    const batch = Array.from({ length: 1000 }, (_, i) => job(`j${i}`, i));
    const state = mergeJobs(new Map(), [], new Map(), batch);
    expect(state.order).toHaveLength(1000);
    expect(state.order[0]).toBe('j999');
  });
});

describe('jobs actions', () => {
  const initial = useJobs.getState();
  beforeEach(() => {
    useJobs.setState(initial, true);
    saved.length = 0;
    // Frames come at once (after the current task), as a visible window's would.
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      queueMicrotask(() => callback(0));
      return 1;
    });
  });
  afterEach(() => vi.unstubAllGlobals());
  const frame = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('a window that was not there when items went out asks for the lists of the jobs that have any', async () => {
    const failed = jobSnapshot('failed', {
      state: { status: 'failed', error: { code: 'AccessDenied', message: 'no' } },
      progress: { ...jobSnapshot('x').progress, objectsFailed: 1 },
    });
    const error = { item: 's3://b/k', code: 'AccessDenied', message: 'k: no' };
    const api = useFakeApi({
      'jobs.snapshot': [failed, jobSnapshot('fine')],
      'jobs.items': ({ list }) => ({ items: list === 'errors' ? [error] : [], total: list === 'errors' ? 1 : 0 }),
    });
    await useJobs.getState().load();
    await frame();
    expect(api.calls.filter((call) => call.method === 'jobs.items').map((call) => call.params)).toEqual([
      { id: 'failed', list: 'errors' },
      { id: 'failed', list: 'warnings' },
    ]);
    expect(useJobs.getState().jobs.get('failed')!.itemErrors).toEqual([error]);
    expect(useJobs.getState().jobs.get('fine')!.itemErrors).toEqual([]);
  });

  it('keeps the items of a job that appeared but is not shown yet (a hidden tab gets no frames)', async () => {
    let run: FrameRequestCallback | undefined;
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      run = callback;
      return 1;
    });
    useJobs.getState().apply([jobSnapshot('new1')]);
    useJobs.getState().addItems('new1', [{ item: 'k', code: 'AccessDenied', message: 'no' }], []);
    expect(useJobs.getState().jobs.has('new1')).toBe(false);
    run!(0);
    expect(useJobs.getState().jobs.get('new1')!.itemErrors).toEqual([
      { item: 'k', code: 'AccessDenied', message: 'no' },
    ]);
  });

  it("keeps a delete's count apart as a preview, never as a transfer; the delete itself is one", async () => {
    useFakeApi({ 'jobs.delete': ({ dryRun }) => jobSnapshot(dryRun ? 'count' : 'delete', { kind: 'delete' }) });
    await useJobs.getState().delete({ connectionId: 'c', bucket: 'b', keys: ['k'], dryRun: true });
    await useJobs.getState().delete({ connectionId: 'c', bucket: 'b', keys: ['k'] });
    expect([...useJobs.getState().previews]).toEqual(['count']);
  });

  it('loads every job the engine knows, newest first', async () => {
    const api = useFakeApi({
      'jobs.snapshot': [jobSnapshot('old', { createdAt: 1 }), jobSnapshot('new', { createdAt: 2 })],
    });
    await useJobs.getState().load();
    await frame();
    expect(api.calls).toEqual([{ method: 'jobs.snapshot', params: {} }]);
    expect(useJobs.getState().order).toEqual(['new', 'old']);
  });

  it('tells the jobs an event says completed, once merged with their summaries; a snapshot of finished jobs is no news', async () => {
    const heard: { id: string; bucket?: string; prefix?: string }[][] = [];
    const unheard = onJobsCompleted((jobs) =>
      heard.push(jobs.map(({ id, bucket, prefix }) => ({ id, bucket, prefix }))),
    );
    // Announced and completed within one frame: told with where it acted.
    const started = jobSnapshot('up', { bucket: 'b', prefix: 'p/' });
    useJobs.getState().apply([started], { live: true });
    useJobs
      .getState()
      .apply([{ id: 'up', state: { status: 'completed' }, progress: started.progress }], { live: true });
    await frame();
    expect(heard).toEqual([[{ id: 'up', bucket: 'b', prefix: 'p/' }]]);
    useJobs.getState().apply([jobSnapshot('old', { state: { status: 'completed' } })]);
    await frame();
    expect(heard).toHaveLength(1);
    unheard();
  });

  it('pauses, resumes, cancels and retries one job, or all without an id', async () => {
    const api = useFakeApi({ 'jobs.pause': null, 'jobs.resume': null, 'jobs.cancel': null, 'jobs.retry': null });
    const { control } = useJobs.getState();
    await control('pause');
    await control('resume', 'j1');
    await control('cancel', 'j2');
    await control('retry', 'j3');
    expect(api.calls).toEqual([
      { method: 'jobs.pause', params: { id: undefined } },
      { method: 'jobs.resume', params: { id: 'j1' } },
      { method: 'jobs.cancel', params: { id: 'j2' } },
      { method: 'jobs.retry', params: { id: 'j3' } },
    ]);
  });

  it('clears finished jobs: the list becomes what the engine kept', async () => {
    useJobs.getState().replaceAll([jobSnapshot('done', { state: { status: 'completed' } }), jobSnapshot('running')]);
    const api = useFakeApi({ 'jobs.clearFinished': [jobSnapshot('running')] });
    await useJobs.getState().clearFinished();
    expect(api.calls).toEqual([{ method: 'jobs.clearFinished', params: {} }]);
    expect(useJobs.getState().order).toEqual(['running']);
    expect([...useJobs.getState().jobs.keys()]).toEqual(['running']);
  });

  it("passes the user's word on a file already there", async () => {
    const api = useFakeApi({ 'jobs.resolveConflict': null });
    await useJobs.getState().resolveConflict('j1', 'c7', 'rename', true);
    expect(api.calls).toEqual([
      { method: 'jobs.resolveConflict', params: { id: 'j1', conflictId: 'c7', choice: 'rename', applyToAll: true } },
    ]);
  });

  it("saves a job's receipt as a CSV file", async () => {
    const api = useFakeApi({ 'jobs.receipt': { fileName: 'receipt-j1.csv', text: 'key,path\n' } });
    await useJobs.getState().saveReceipt('j1');
    expect(api.calls).toEqual([{ method: 'jobs.receipt', params: { id: 'j1', format: 'csv' } }]);
    expect(saved).toEqual([{ fileName: 'receipt-j1.csv', text: 'key,path\n', type: 'text/csv' }]);
  });

  it('starts a download and answers with its job, or rejects with the reason', async () => {
    const params = {
      connectionId: 'c1',
      bucket: 'b',
      keys: ['a.txt'],
      prefixes: ['docs/'],
      targetFolder: '/tmp/x',
      requireVerified: false,
      ifExists: 'ask' as const,
    };
    let api = useFakeApi({ 'jobs.download': jobSnapshot('d1', { kind: 'download' }) });
    expect((await useJobs.getState().download(params)).id).toBe('d1');
    expect(api.calls).toEqual([{ method: 'jobs.download', params }]);
    api = useFakeApi({ 'jobs.download': new Error('Downloads through this host go only below /srv') });
    await expect(useJobs.getState().download(params)).rejects.toThrow('Downloads through this host go only below /srv');
  });

  it('starts a copy or a move in the store, shows its job, and says why one is refused', async () => {
    const params = {
      connectionId: 'c1',
      sourceBucket: 'a',
      keys: ['x.txt'],
      prefixes: [],
      bucket: 'b',
      destination: 'in/',
      move: true,
    };
    let api = useFakeApi({ 'jobs.copy': jobSnapshot('m1', { kind: 'copy' }) });
    expect((await useJobs.getState().copy(params)).id).toBe('m1');
    expect(useJobs.getState().jobs.has('m1')).toBe(true);
    expect(api.calls).toEqual([{ method: 'jobs.copy', params }]);
    api = useFakeApi({ 'jobs.copy': new Error('Cannot move s3://a/x.txt onto itself') });
    await expect(useJobs.getState().copy(params)).rejects.toThrow('onto itself');
  });

  it('starts a delete or its dry run, and answers with its job', async () => {
    const api = useFakeApi({ 'jobs.delete': (p) => jobSnapshot(p.dryRun ? 'count' : 'delete', { kind: 'delete' }) });
    const spec = { connectionId: 'c1', bucket: 'b', keys: [], prefixes: ['bulk/'], allVersions: false };
    expect((await useJobs.getState().delete({ ...spec, dryRun: true })).id).toBe('count');
    expect((await useJobs.getState().delete({ ...spec, dryRun: false })).id).toBe('delete');
    expect(api.calls).toEqual([
      { method: 'jobs.delete', params: { ...spec, dryRun: true } },
      { method: 'jobs.delete', params: { ...spec, dryRun: false } },
    ]);
  });
});

it('takes a dry run for a preview, whoever started it, and a real job for a transfer', () => {
  expect(isPreview({ id: 'a', dryRun: true }, new Set())).toBe(true);
  expect(isPreview({ id: 'b' }, new Set(['b']))).toBe(true);
  expect(isPreview({ id: 'c', dryRun: false }, new Set(['b']))).toBe(false);
  expect(isPreview(undefined, new Set())).toBe(false);
});
