import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryEntry } from '../../../src/history.ts';
import { HISTORY_PAGE_SIZE, useHistory } from '../../../renderer/store/history-store.ts';
import { useJobs } from '../../../renderer/store/jobs-store.ts';
import { outcomeInWords, specInWords } from '../../../renderer/history-text.ts';
import { jobSnapshot, useFakeApi } from './fake-api.ts';

const saved: { fileName: string; text: string | readonly BlobPart[]; type: string }[] = [];
vi.mock('../../../renderer/save-file.ts', () => ({
  saveFile: (fileName: string, text: string | readonly BlobPart[], type: string) =>
    saved.push({ fileName, text, type }),
}));

function entry(id: string, over: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id,
    kind: 'delete',
    name: `Delete s3://b/${id}/`,
    host: 'web',
    connectionId: 'c1',
    connection: 'Store (http://minio)',
    status: 'completed',
    createdAt: 1000,
    endedAt: 2000,
    spec: { bucket: 'b', prefixes: [`${id}/`] },
    removed: 3,
    versioning: 'enabled',
    undo: { possible: true },
    listed: true,
    ...over,
  };
}

const initialJobs = useJobs.getState();
beforeEach(() => {
  saved.length = 0;
  useHistory.getState().close();
  useJobs.setState(initialJobs, true);
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    queueMicrotask(() => callback(0));
    return 1;
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('the History view', () => {
  it('lists a page of the history newest first, and asks again with the kind and failed-only filters', async () => {
    const api = useFakeApi({
      'history.list': (params) => ({ jobs: [entry('j1')], total: params.failedOnly ? 1 : 250 }),
    });
    await useHistory.getState().show();
    expect(useHistory.getState()).toMatchObject({ open: true, total: 250, offset: 0 });
    expect(api.calls.at(-1)).toEqual({
      method: 'history.list',
      params: { failedOnly: false, offset: 0, limit: HISTORY_PAGE_SIZE },
    });

    await useHistory.getState().page(HISTORY_PAGE_SIZE);
    expect(api.calls.at(-1)!.params).toMatchObject({ offset: HISTORY_PAGE_SIZE });

    // A filter starts again from the newest.
    await useHistory.getState().setKinds('delete');
    expect(api.calls.at(-1)!.params).toEqual({ kinds: ['delete'], failedOnly: false, offset: 0, limit: 100 });
    await useHistory.getState().setFailedOnly(true);
    expect(api.calls.at(-1)!.params).toEqual({ kinds: ['delete'], failedOnly: true, offset: 0, limit: 100 });
    expect(useHistory.getState().total).toBe(1);
  });

  it('keeps only the newest answer when pages are asked for quickly', async () => {
    const answers: ((value: { jobs: HistoryEntry[]; total: number }) => void)[] = [];
    useFakeApi();
    const { setApi } = await import('../../../renderer/store/api.ts');
    setApi({
      call: () => new Promise((resolve) => answers.push((value) => resolve({ ok: true, value } as never))),
      subscribe: () => () => undefined,
      watchHost: () => () => undefined,
      uploadFiles: async () => ({ ok: false, error: { code: 'NotSet', message: 'not used' } }),
      pickFolder: async () => undefined,
    });
    const first = useHistory.getState().show();
    const second = useHistory.getState().setKinds('upload');
    answers[1]!({ jobs: [entry('new', { kind: 'upload' })], total: 1 });
    await second;
    answers[0]!({ jobs: [entry('old')], total: 9 });
    await first;
    expect(useHistory.getState().jobs.map((j) => j.id)).toEqual(['new']);
    expect(useHistory.getState().total).toBe(1);
  });

  it('exports what a delete removed as one CSV file, page by page', async () => {
    const api = useFakeApi({
      'history.list': { jobs: [entry('j1')], total: 1 },
      'history.job': entry('j1'),
      'history.removals': (params) =>
        params.offset === 0
          ? { fileName: 'barge-removed-delete-j1.csv', text: 'key,version_id\na,\n', total: 2, next: 1 }
          : { fileName: 'barge-removed-delete-j1.csv', text: 'b,\n', total: 2 },
    });
    await useHistory.getState().show();
    await useHistory.getState().select('j1');
    await useHistory.getState().exportRemovals();
    expect(api.calls.filter((c) => c.method === 'history.removals').map((c) => c.params)).toEqual([
      { id: 'j1', format: 'csv', offset: 0 },
      { id: 'j1', format: 'csv', offset: 1 },
    ]);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.fileName).toBe('barge-removed-delete-j1.csv');
    const text = await new Blob(saved[0]!.text as BlobPart[]).text();
    expect(text).toBe('key,version_id\na,\nb,\n');
    expect(useHistory.getState().notice).toBe('Saved barge-removed-delete-j1.csv (2 objects).');
  });

  it('undoes the picked delete as a job of its own, shown in Transfers, and reads the job again', async () => {
    let undone = false;
    const api = useFakeApi({
      'history.list': { jobs: [entry('j1')], total: 1 },
      'history.job': () =>
        undone ? entry('j1', { undo: { possible: false, why: 'undone already' }, undoneBy: 'u1' }) : entry('j1'),
      'history.undo': () => {
        undone = true;
        return jobSnapshot('u1', { kind: 'undo', name: 'Undo j1' });
      },
    });
    await useHistory.getState().show();
    await useHistory.getState().select('j1');
    await useHistory.getState().undo();
    expect(api.calls.find((c) => c.method === 'history.undo')!.params).toEqual({ id: 'j1' });
    expect(useHistory.getState().selected?.undoneBy).toBe('u1');
    expect(useHistory.getState().notice).toMatch(/^Undo started/);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(useJobs.getState().jobs.get('u1')?.kind).toBe('undo');
  });

  it('says why an undo or a retry was refused', async () => {
    useFakeApi({
      'history.list': { jobs: [entry('j1')], total: 1 },
      'history.job': entry('j1', { status: 'failed' }),
      'history.undo': new Error('Job j1 ran on another connection'),
      'history.retry': new Error('Job j1 ran on the command line: run the command again'),
    });
    await useHistory.getState().show();
    await useHistory.getState().select('j1');
    await useHistory.getState().undo();
    expect(useHistory.getState()).toMatchObject({ error: 'Job j1 ran on another connection', busy: false });
    await useHistory.getState().retry();
    expect(useHistory.getState().error).toBe('Job j1 ran on the command line: run the command again');
  });

  it('retries the failed items of the picked job, which comes back into Transfers', async () => {
    const api = useFakeApi({
      'history.list': { jobs: [], total: 0 },
      'history.job': entry('j1', { status: 'failed', listed: false }),
      'history.retry': jobSnapshot('j1', { kind: 'delete' }),
    });
    await useHistory.getState().show();
    await useHistory.getState().select('j1');
    await useHistory.getState().retry();
    expect(api.calls.find((c) => c.method === 'history.retry')!.params).toEqual({ id: 'j1' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(useJobs.getState().jobs.has('j1')).toBe(true);
  });
});

describe('a job of the history in words', () => {
  it('says what a delete was asked: bucket, folders, objects named, filter, every version', () => {
    expect(
      specInWords({
        kind: 'delete',
        spec: {
          bucket: 'photos',
          prefixes: ['logs/', ''],
          keys: ['a', 'b'],
          filter: { include: ['*.gz'] },
          allVersions: true,
        },
      }),
    ).toBe('bucket photos; 2 folders (logs/, the whole bucket); 2 objects named; filter --include *.gz; every version');
    expect(specInWords({ kind: 'undo', spec: { bucket: 'b', undoes: 'j1' } })).toBe('bucket b; undoes job j1');
    expect(specInWords({ kind: 'upload', spec: undefined })).toBe('nothing recorded');
  });

  it('names the outcome: undone, failed with its count, unfinished', () => {
    expect(outcomeInWords({ status: 'completed', undoneBy: 'u1' })).toBe('undone');
    expect(
      outcomeInWords({
        status: 'failed',
        progress: { ...jobSnapshot('x').progress, objectsFailed: 3 },
      }),
    ).toBe('failed (3)');
    expect(outcomeInWords({ status: 'active' })).toBe('unfinished');
  });
});
