import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ListingView, rowName, RowTable, useBrowser, visibleRows } from '../../../renderer/store/browser-store.ts';
import type { Row, RowList } from '../../../renderer/store/browser-store.ts';
import { nearestStep, PART_SIZE_STEPS } from '../../../renderer/part-size-steps.ts';
import { jobSnapshot, useFakeApi } from './fake-api.ts';
import { readUploadChoice, useUploadChoice } from '../../../renderer/store/upload-choice-store.ts';
import type { DroppedItems } from '../../../src/contract/api.ts';

const object = (key: string, size: number, lastModified = 0): Row => ({
  kind: 'object',
  key,
  name: rowName(key, 'p/'),
  size,
  lastModified,
});
const folder = (key: string): Row => ({ kind: 'folder', key, name: rowName(key, 'p/') });

describe('browser rows', () => {
  const rows = [
    object('p/b10.txt', 5, 3),
    object('p/b9.txt', 50, 1),
    folder('p/z/'),
    object('p/a.txt', 500, 2),
    folder('p/m/'),
  ];

  it('names rows relative to the prefix', () => {
    expect(rowName('p/z/', 'p/')).toBe('z');
    expect(rowName('p/a.txt', 'p/')).toBe('a.txt');
  });

  it('puts folders first and sorts names naturally', () => {
    expect(visibleRows(rows, { column: 'name', descending: false }, '').map((r) => r.name)).toEqual([
      'm',
      'z',
      'a.txt',
      'b9.txt',
      'b10.txt',
    ]);
  });

  it('sorts by size and date, both ways', () => {
    expect(
      visibleRows(rows, { column: 'size', descending: true }, '')
        .filter((r) => r.kind === 'object')
        .map((r) => r.name),
    ).toEqual(['a.txt', 'b9.txt', 'b10.txt']);
    expect(
      visibleRows(rows, { column: 'modified', descending: false }, '')
        .filter((r) => r.kind === 'object')
        .map((r) => r.name),
    ).toEqual(['b9.txt', 'a.txt', 'b10.txt']);
  });

  it('filters by name, case-insensitively', () => {
    expect(visibleRows(rows, { column: 'name', descending: false }, ' B1').map((r) => r.name)).toEqual(['b10.txt']);
  });

  it('filters by a glob over the whole name: * any characters, ? one', () => {
    const sort = { column: 'name', descending: false } as const;
    expect(visibleRows(rows, sort, '*.TXT').map((r) => r.name)).toEqual(['a.txt', 'b9.txt', 'b10.txt']);
    expect(visibleRows(rows, sort, 'b?.txt').map((r) => r.name)).toEqual(['b9.txt']);
    expect(visibleRows(rows, sort, 'b*').map((r) => r.name)).toEqual(['b9.txt', 'b10.txt']);
    expect(visibleRows(rows, sort, '*.tmp')).toEqual([]);
  });

  it('sorts 100,000 rows', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => object(`p/k${i}`, i));
    const sorted = visibleRows(many, { column: 'name', descending: true }, '');
    expect(sorted[0]!.name).toBe('k99999');
  });
});

describe('part size slider', () => {
  it('steps logarithmically from 5 MiB to 5 GiB and snaps to the nearest step', () => {
    expect(PART_SIZE_STEPS[0]).toBe(5 * 1024 ** 2);
    expect(PART_SIZE_STEPS.at(-1)).toBe(5 * 1024 ** 3);
    expect(PART_SIZE_STEPS[nearestStep(60 * 1024 ** 2)]).toBe(64 * 1024 ** 2);
  });
});

describe('browser actions', () => {
  const initial = useBrowser.getState();
  const writeText = vi.fn(async (_text: string) => undefined);
  const dropped = (...names: string[]): DroppedItems => {
    const files = names.map((name) => new File(['x'], name));
    return {
      topLevel: files,
      count: files.length,
      files: async () => files.map((file) => ({ file, relativePath: file.name })),
    };
  };

  beforeEach(() => {
    useBrowser.setState(
      { ...initial, connectionId: 'c1', buckets: [{ name: 'b' }, { name: 'gone' }], bucket: 'b', prefix: 'p/' },
      true,
    );
    writeText.mockClear();
    vi.stubGlobal('navigator', { clipboard: { writeText } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('uploads what was dropped into the prefix on screen and says the job started', async () => {
    const api = useFakeApi();
    api.uploadAnswer = { ok: true, value: jobSnapshot('j1', { name: '2 items to s3://b/p/' }) };
    const items = dropped('a.txt', 'b.txt');
    const done = useBrowser.getState().upload(items);
    expect(useBrowser.getState().notice).toBe('Uploading 2 items…');
    await done;
    // Nothing already there is replaced unless the user said so: the window asks by default.
    expect(api.calls).toEqual([
      {
        method: 'uploadFiles',
        params: { connectionId: 'c1', bucket: 'b', prefix: 'p/', dropped: items, ifExists: 'ask' },
      },
    ]);
    expect(useBrowser.getState().notice).toBe('Upload started: 2 items to s3://b/p/');
  });

  it('uploads with the answer chosen up front for objects already there, remembered on this computer', async () => {
    const stored = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => stored.set(key, value),
    });
    const api = useFakeApi();
    api.uploadAnswer = { ok: true, value: jobSnapshot('j1', { name: 'a.txt' }) };
    useUploadChoice.getState().setIfExists('rename');
    try {
      await useBrowser.getState().upload(dropped('a.txt'));
      expect(api.calls[0]).toMatchObject({ method: 'uploadFiles', params: { ifExists: 'rename' } });
      expect(readUploadChoice(stored.get('barge.uploads.ifExists') ?? null)).toBe('rename');
    } finally {
      useUploadChoice.getState().setIfExists('ask');
    }
    // Nothing remembered, or something that is no answer (an older build's): ask.
    expect(readUploadChoice(null)).toBe('ask');
    expect(readUploadChoice('sometimes')).toBe('ask');
  });

  it("shows a refused upload's reason, and uploads nothing without files", async () => {
    const api = useFakeApi();
    api.uploadAnswer = { ok: false, error: { code: 'AccessDenied', message: 'Access denied' } };
    await useBrowser.getState().upload(dropped('a.txt'));
    expect(useBrowser.getState().notice).toBe('Access denied');
    await useBrowser.getState().upload(dropped());
    expect(api.calls).toHaveLength(1);
  });

  it('keeps a notice to the folder it speaks of: gone in another folder, bucket or connection, and not brought back', async () => {
    const api = useFakeApi({ 'objects.list': { objects: [], prefixes: [] }, 'buckets.list': [{ name: 'b' }] });
    api.uploadAnswer = { ok: true, value: jobSnapshot('j1', { name: 'a.txt → s3://b/p/' }) };
    await useBrowser.getState().upload(dropped('a.txt'));
    expect(useBrowser.getState().notice).toBe('Upload started: a.txt → s3://b/p/');
    // Listed again in place (Refresh, a job's completion): still its folder.
    useBrowser.getState().open('b', 'p/');
    expect(useBrowser.getState().notice).toBe('Upload started: a.txt → s3://b/p/');
    useBrowser.getState().open('b', 'q/');
    expect(useBrowser.getState().notice).toBeUndefined();
    useBrowser.getState().open('b', 'p/');
    expect(useBrowser.getState().notice).toBeUndefined();
    await useBrowser.getState().upload(dropped('a.txt'));
    useBrowser.getState().open('gone', '');
    expect(useBrowser.getState().notice).toBeUndefined();
    useBrowser.getState().open('b', 'p/');
    await useBrowser.getState().upload(dropped('a.txt'));
    await useBrowser.getState().useConnection('c2');
    expect(useBrowser.getState().notice).toBeUndefined();
  });

  it('does not say an upload started in a folder the user has left by the time it answers; a refusal is said wherever they are, naming its folder', async () => {
    const api = useFakeApi({ 'objects.list': { objects: [], prefixes: [] } });
    let answer!: (result: typeof api.uploadAnswer) => void;
    api.uploadFiles = () =>
      new Promise((resolve) => {
        answer = resolve;
      });
    const started = useBrowser.getState().upload(dropped('a.txt'));
    useBrowser.getState().open('b', 'elsewhere/');
    answer({ ok: true, value: jobSnapshot('j1', { name: 'a.txt → s3://b/p/' }) });
    await started;
    expect(useBrowser.getState().notice).toBeUndefined();
    useBrowser.getState().open('b', 'p/');
    const refused = useBrowser.getState().upload(dropped('a.txt'));
    useBrowser.getState().open('b', 'elsewhere/');
    answer({ ok: false, error: { code: 'AccessDenied', message: 'Access denied.' } });
    await refused;
    expect(useBrowser.getState().notice).toBe('The upload to s3://b/p/ failed: Access denied.');
    // Where it was asked, the folder on screen is its place: said as it is.
    const here = useBrowser.getState().upload(dropped('a.txt'));
    answer({ ok: false, error: { code: 'AccessDenied', message: 'Access denied.' } });
    await here;
    expect(useBrowser.getState().notice).toBe('Access denied.');
  });

  it('Refresh lists the buckets again: one deleted elsewhere goes from the list', async () => {
    useFakeApi({
      'buckets.list': [{ name: 'b' }],
      'objects.list': { objects: [], prefixes: [], nextToken: undefined },
    });
    useBrowser.getState().refresh();
    await expect.poll(() => useBrowser.getState().buckets.map((bucket) => bucket.name)).toEqual(['b']);
  });

  it('copies a presigned link, valid one hour, and shows it', async () => {
    const api = useFakeApi({ 'objects.presign': { url: 'http://s3/b/p/a.txt?X-Amz-Signature=1' } });
    await useBrowser.getState().copyLink('p/a.txt');
    expect(api.calls).toEqual([
      {
        method: 'objects.presign',
        params: { connectionId: 'c1', bucket: 'b', key: 'p/a.txt', expiresInSeconds: 3600 },
      },
    ]);
    expect(writeText).toHaveBeenCalledWith('http://s3/b/p/a.txt?X-Amz-Signature=1');
    expect(useBrowser.getState().notice).toBe('Link copied (valid one hour): http://s3/b/p/a.txt?X-Amz-Signature=1');
  });

  it('shows why a link could not be made', async () => {
    useFakeApi({ 'objects.presign': new Error('No such key') });
    await useBrowser.getState().copyLink('p/a.txt');
    expect(writeText).not.toHaveBeenCalled();
    expect(useBrowser.getState().notice).toBe('No such key');
  });

  it('creates a bucket in the current connection and lists the buckets again', async () => {
    const api = useFakeApi({
      'buckets.create': null,
      'buckets.list': [{ name: 'b' }, { name: 'gone' }, { name: 'new' }],
    });
    await useBrowser.getState().createBucket('new');
    expect(api.calls.map((c) => c.method)).toEqual(['buckets.create', 'buckets.list']);
    expect(api.calls[0]!.params).toEqual({ connectionId: 'c1', name: 'new' });
    expect(useBrowser.getState().buckets.map((b) => b.name)).toEqual(['b', 'gone', 'new']);
  });

  it('rejects with the reason a bucket was not created, and lists nothing again', async () => {
    const api = useFakeApi({ 'buckets.create': new Error('Bucket already exists') });
    await expect(useBrowser.getState().createBucket('b')).rejects.toThrow('Bucket already exists');
    expect(api.calls.map((c) => c.method)).toEqual(['buckets.create']);
    expect(useBrowser.getState().buckets).toHaveLength(2);
  });

  it('deletes a bucket: the browser closes and the buckets are listed again', async () => {
    const api = useFakeApi({ 'buckets.delete': null, 'buckets.list': [{ name: 'b' }] });
    await useBrowser.getState().deleteBucket('gone');
    expect(api.calls.map((c) => c.method)).toEqual(['buckets.delete', 'buckets.list']);
    expect(api.calls[0]!.params).toEqual({ connectionId: 'c1', name: 'gone' });
    expect(useBrowser.getState().bucket).toBeUndefined();
    expect(useBrowser.getState().buckets).toEqual([{ name: 'b' }]);
  });

  it('keeps the bucket open when it could not be deleted', async () => {
    useFakeApi({ 'buckets.delete': new Error('The bucket is not empty') });
    await expect(useBrowser.getState().deleteBucket('b')).rejects.toThrow('The bucket is not empty');
    expect(useBrowser.getState().bucket).toBe('b');
  });
});

const keysOf = (rows: RowList) => Array.from({ length: rows.length }, (_, i) => rows.at(i)!.key);

describe('a listing that keeps up', () => {
  const initial = useBrowser.getState();
  const page = (keys: string[]) => ({
    prefixes: keys.filter((k) => k.endsWith('/')),
    objects: keys.filter((k) => !k.endsWith('/')).map((key) => ({ key, size: 1 })),
    nextToken: undefined,
  });

  beforeEach(() => {
    const table = new RowTable('p/');
    table.append(page(['p/a.txt', 'p/gone.txt']));
    useBrowser.setState(
      {
        ...initial,
        connectionId: 'c1',
        bucket: 'b',
        prefix: 'p/',
        view: new ListingView(table, Int32Array.of(0, 1)),
        selection: new Set(['p/a.txt', 'p/gone.txt']),
        anchor: 'p/gone.txt',
      },
      true,
    );
  });

  it('lists the folder on screen again when a job that changed it completes, keeping the selection of what is still there', async () => {
    const api = useFakeApi({ 'objects.list': page(['p/sub/', 'p/a.txt', 'p/new.txt']) as never });
    useBrowser.getState().jobsCompleted([{ kind: 'upload', bucket: 'b', prefix: 'p/' }]);
    await vi.waitFor(() => expect(keysOf(useBrowser.getState().view)).toEqual(['p/sub/', 'p/a.txt', 'p/new.txt']));
    expect(api.calls).toEqual([
      { method: 'objects.list', params: { connectionId: 'c1', bucket: 'b', prefix: 'p/', token: undefined } },
    ]);
    expect([...useBrowser.getState().selection]).toEqual(['p/a.txt']);
    expect(useBrowser.getState().anchor).toBeUndefined();
  });

  it('an upload into a folder below also lists again (it may have made a folder here); other buckets, folders and downloads do not', () => {
    const api = useFakeApi({ 'objects.list': page([]) as never });
    useBrowser.getState().jobsCompleted([
      { kind: 'download', bucket: 'b', prefix: 'p/' },
      { kind: 'upload', bucket: 'other', prefix: 'p/' },
      { kind: 'delete', bucket: 'b', prefix: 'q/' },
      { kind: 'delete', bucket: 'b', prefix: undefined },
    ]);
    expect(api.calls).toHaveLength(0);
    useBrowser.getState().jobsCompleted([{ kind: 'upload', bucket: 'b', prefix: 'p/deeper/' }]);
    expect(api.calls).toHaveLength(1);
  });
});

describe('a listing as it streams', () => {
  const initial = useBrowser.getState();
  const pages = (count: number, perPage: number) => (params: { prefix: string; token?: string }) => {
    const at = Number(params.token ?? 0);
    const keys = Array.from({ length: perPage }, (_, i) => `${params.prefix}k${at * perPage + i}`);
    return {
      prefixes: at === 0 ? [`${params.prefix}sub/`] : [],
      objects: keys.map((key) => ({ key, size: 1 })),
      nextToken: at + 1 < count ? String(at + 1) : undefined,
    };
  };

  beforeEach(() => useBrowser.setState({ ...initial, connectionId: 'c1' }, true));

  it('shows every page in the sort on screen, then stops loading; the sort and the filter apply to what is there', async () => {
    useFakeApi({ 'objects.list': pages(5, 30) as never });
    useBrowser.getState().open('b', 'p/');
    expect(useBrowser.getState().listing).toBe(true);
    await vi.waitFor(() => expect(useBrowser.getState().listing).toBe(false));
    const view = useBrowser.getState().view;
    expect(view.length).toBe(151);
    expect([view.at(0)?.key, view.at(1)?.key, view.at(2)?.key, view.at(150)?.key]).toEqual([
      'p/sub/',
      'p/k0',
      'p/k1',
      'p/k149',
    ]);
    useBrowser.getState().setSort('name');
    await vi.waitFor(() => expect(useBrowser.getState().view.at(1)?.key).toBe('p/k149'));
    useBrowser.getState().setFilter('K14');
    await vi.waitFor(() =>
      expect(keysOf(useBrowser.getState().view)).toEqual([
        'p/k149',
        'p/k148',
        'p/k147',
        'p/k146',
        'p/k145',
        'p/k144',
        'p/k143',
        'p/k142',
        'p/k141',
        'p/k140',
        'p/k14',
      ]),
    );
  });

  it('selects a range between the anchor and the row shift-clicked, in the order on screen, and all rows shown', async () => {
    useFakeApi({ 'objects.list': pages(2, 10) as never });
    useBrowser.getState().open('b', 'p/');
    await vi.waitFor(() => expect(useBrowser.getState().listing).toBe(false));
    const { select, selectAll } = useBrowser.getState();
    select('p/k3', 'only', useBrowser.getState().view);
    select('p/k10', 'range', useBrowser.getState().view);
    expect([...useBrowser.getState().selection]).toEqual([
      'p/k3',
      'p/k4',
      'p/k5',
      'p/k6',
      'p/k7',
      'p/k8',
      'p/k9',
      'p/k10',
    ]);
    select('p/k1', 'toggle', useBrowser.getState().view);
    expect(useBrowser.getState().selection.has('p/k1')).toBe(true);
    selectAll(useBrowser.getState().view);
    expect(useBrowser.getState().selection.size).toBe(21);
  });

  it('says in the status line which keys the store listed with a broken URL encoding, until another folder is opened', async () => {
    useFakeApi({
      'objects.list': ((params: { prefix: string }) =>
        params.prefix === 'p/'
          ? { prefixes: [], objects: [{ key: 'p/good.txt', size: 1 }], unreadable: ['p/bad%zz.txt'] }
          : { prefixes: [], objects: [] }) as never,
    });
    useBrowser.getState().open('b', 'p/');
    await vi.waitFor(() => expect(useBrowser.getState().listing).toBe(false));
    expect(keysOf(useBrowser.getState().view)).toEqual(['p/good.txt']);
    expect(useBrowser.getState().notice).toBe(
      'Not shown: a key the store listed with a broken URL encoding, "p/bad%zz.txt". The store is faulty: tell its operator.',
    );
    useBrowser.getState().open('b', 'q/');
    expect(useBrowser.getState().notice).toBeUndefined();
  });

  it('leaves a listing that another one replaced', async () => {
    const api = useFakeApi({ 'objects.list': pages(3, 5) as never });
    useBrowser.getState().open('b', 'p/');
    useBrowser.getState().open('b', 'q/');
    await vi.waitFor(() => expect(useBrowser.getState().listing).toBe(false));
    expect(useBrowser.getState().prefix).toBe('q/');
    // The first listing stopped after its first page.
    expect(api.calls.filter((c) => (c.params as { prefix: string }).prefix === 'p/')).toHaveLength(1);
  });
});
