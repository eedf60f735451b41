import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { HistoryEntry } from '../../../src/history.ts';
import { useJobs } from '../../../renderer/store/jobs-store.ts';
import { useUndoNote } from '../../../renderer/store/undo-note-store.ts';
import { jobSnapshot, useFakeApi } from './fake-api.ts';

const initialJobs = useJobs.getState();
beforeEach(() => {
  useJobs.setState(initialJobs, true);
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    queueMicrotask(() => callback(0));
    return 1;
  });
});
afterEach(() => vi.unstubAllGlobals());

const ended = (id: string, undo: HistoryEntry['undo']): Partial<HistoryEntry> => ({ id, status: 'completed', undo });

it("asks the history once whether a finished delete can be undone, however often it's asked", async () => {
  const api = useFakeApi({ 'history.job': (params) => ended(params.id, { possible: true }) as HistoryEntry });
  await Promise.all([useJobs.getState().learnUndo('d1'), useJobs.getState().learnUndo('d1')]);
  await useJobs.getState().learnUndo('d1');
  expect(api.calls.filter((c) => c.method === 'history.job')).toHaveLength(1);
  expect(useJobs.getState().undoable.get('d1')).toEqual({ possible: true });
});

it('asks again about a delete the history had not recorded as ended yet', async () => {
  let active = true;
  const api = useFakeApi({
    'history.job': (params) =>
      ({
        ...ended(params.id, { possible: false, why: 'not ended' }),
        status: active ? 'active' : 'completed',
      }) as HistoryEntry,
  });
  await useJobs.getState().learnUndo('d2');
  expect(useJobs.getState().undoable.has('d2')).toBe(false);
  active = false;
  await useJobs.getState().learnUndo('d2');
  expect(api.calls.filter((c) => c.method === 'history.job')).toHaveLength(2);
  expect(useJobs.getState().undoable.get('d2')).toEqual({ possible: false, why: 'not ended' });
});

it('undoes a delete: the undo job is listed like any, and the delete offers no second undo', async () => {
  const api = useFakeApi({
    'history.job': (params) => ended(params.id, { possible: true }) as HistoryEntry,
    'history.undo': jobSnapshot('u1', { kind: 'undo', name: 'Undo Delete s3://b/logs/' }),
  });
  await useJobs.getState().learnUndo('d3');
  const job = await useJobs.getState().undo('d3');
  expect(job.id).toBe('u1');
  expect(api.calls.at(-1)).toEqual({ method: 'history.undo', params: { id: 'd3' } });
  expect(useJobs.getState().undoable.get('d3')?.possible).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(useJobs.getState().order).toEqual(['u1']);
});

it("reads a bucket's versioning for the delete dialog, and turns it on", async () => {
  let state: 'off' | 'enabled' = 'off';
  const api = useFakeApi({
    'buckets.versioning': () => state,
    'buckets.setVersioning': (params) => {
      state = params.status === 'enabled' ? 'enabled' : state;
      return state;
    },
  });
  expect(await useUndoNote.getState().read('c1', 'b')).toBe('off');
  expect(useUndoNote.getState().versioning).toBe('off');
  expect(await useUndoNote.getState().turnOn()).toBe('enabled');
  expect(api.calls.at(-1)).toEqual({
    method: 'buckets.setVersioning',
    params: { connectionId: 'c1', name: 'b', status: 'enabled' },
  });
  expect(useUndoNote.getState()).toMatchObject({ versioning: 'enabled', turningOn: false });
});

it('says why versioning could not be turned on', async () => {
  useFakeApi({
    'buckets.versioning': 'suspended',
    'buckets.setVersioning': new Error('Access denied to PutBucketVersioning on b'),
  });
  await useUndoNote.getState().read('c1', 'b');
  expect(await useUndoNote.getState().turnOn()).toBeUndefined();
  expect(useUndoNote.getState()).toMatchObject({
    versioning: 'suspended',
    error: 'Access denied to PutBucketVersioning on b',
  });
});
