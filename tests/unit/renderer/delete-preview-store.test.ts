import { beforeEach, expect, it } from 'vitest';
import type { BargeApi } from '../../../src/contract/api.ts';
import type { ObjectPage } from '../../../src/contract/models.ts';
import { setApi } from '../../../renderer/store/api.ts';
import { useDeletePreview } from '../../../renderer/store/delete-preview-store.ts';
import type { PreviewScan } from '../../../renderer/store/delete-preview-store.ts';

/** A listing request the test answers when it chooses. */
interface Pending {
  readonly params: Record<string, unknown>;
  answer(page: ObjectPage): Promise<void>;
}

let pending: Pending[];

beforeEach(() => {
  pending = [];
  const api: BargeApi = {
    call: (_method, params) =>
      new Promise((resolve) => {
        pending.push({
          params: params as Record<string, unknown>,
          answer: async (page) => {
            resolve({ ok: true, value: page } as never);
            // Let the store take the answer in.
            for (let i = 0; i < 5; i++) await Promise.resolve();
          },
        });
      }),
    subscribe: () => () => undefined,
    watchHost: () => () => undefined,
    uploadFiles: async () => ({ ok: false, error: { code: 'NotSet', message: 'not used' } }),
    pickFolder: async () => undefined,
  };
  setApi(api);
  useDeletePreview.getState().cancel();
});

const scan = (over: Partial<PreviewScan> = {}): PreviewScan => ({
  connectionId: 'c1',
  bucket: 'b',
  keys: [],
  prefixes: ['logs'],
  filter: { largerThan: 10 },
  ...over,
});
const objects = (...keys: string[]): ObjectPage['objects'] => keys.map((key) => ({ key, size: 100 }));

it('lists the folders page by page with the filter, counting as the pages arrive', async () => {
  const preview = useDeletePreview.getState();
  void preview.preview(scan({ keys: ['top.txt'], keySizes: [7] }));
  expect(pending[0]!.params).toMatchObject({
    prefix: 'logs/',
    recursive: true,
    pageSize: 1000,
    filter: { largerThan: 10 },
  });
  expect(useDeletePreview.getState()).toMatchObject({ count: 1, bytes: 7, scanning: true, finished: false });
  await pending[0]!.answer({ objects: objects('logs/a', 'logs/b'), prefixes: [], nextToken: 'next' });
  expect(useDeletePreview.getState()).toMatchObject({ count: 3, bytes: 207, scanning: true, finished: false });
  expect(pending[1]!.params).toMatchObject({ token: 'next' });
  await pending[1]!.answer({ objects: objects('logs/c'), prefixes: [], unreadable: ['logs/%zz'] });
  const state = useDeletePreview.getState();
  expect(state).toMatchObject({ count: 4, bytes: 307, unreadable: 1, scanning: false, finished: true });
  expect(state.rows.slice(0, state.count).map((row) => row.key)).toEqual(['top.txt', 'logs/a', 'logs/b', 'logs/c']);
  expect(pending).toHaveLength(2);
});

it('stops asking for pages once cancelled (the dialog closed), and forgets the rows', async () => {
  void useDeletePreview.getState().preview(scan());
  await pending[0]!.answer({ objects: objects('logs/a'), prefixes: [], nextToken: 'next' });
  useDeletePreview.getState().cancel();
  await pending[1]!.answer({ objects: objects('logs/b'), prefixes: [], nextToken: 'more' });
  expect(pending).toHaveLength(2);
  expect(useDeletePreview.getState()).toMatchObject({ scan: undefined, count: 0, scanning: false, finished: false });
});

it('takes no page of an earlier scan into a new one (the filters changed)', async () => {
  void useDeletePreview.getState().preview(scan());
  const wider = scan({ filter: undefined });
  void useDeletePreview.getState().preview(wider);
  await pending[0]!.answer({ objects: objects('logs/old'), prefixes: [], nextToken: 'next' });
  await pending[1]!.answer({ objects: objects('logs/new'), prefixes: [] });
  const state = useDeletePreview.getState();
  expect(state.scan).toBe(wider);
  expect(state.rows.slice(0, state.count).map((row) => row.key)).toEqual(['logs/new']);
  expect(state.finished).toBe(true);
  expect(pending).toHaveLength(2);
});

/** The rows the list keeps (delete-preview-store.ts). */
const PREVIEW_ROWS_KEPT = 10_000;

it('keeps only the first rows of a huge folder, counting objects and bytes to the end of the listing', async () => {
  void useDeletePreview.getState().preview(scan({ keys: ['top.txt'], keySizes: [7] }));
  const pages = PREVIEW_ROWS_KEPT / 1000 + 2;
  for (let page = 0; page < pages; page++) {
    const keys = Array.from({ length: 1000 }, (_, i) => `logs/${page}/${i}`);
    await pending[page]!.answer({
      objects: objects(...keys),
      prefixes: [],
      ...(page < pages - 1 ? { nextToken: `t${page}` } : {}),
    });
  }
  const state = useDeletePreview.getState();
  expect(state).toMatchObject({ count: pages * 1000 + 1, bytes: pages * 100_000 + 7, finished: true });
  expect(state.listed).toBe(PREVIEW_ROWS_KEPT);
  expect(state.rows).toHaveLength(PREVIEW_ROWS_KEPT);
  expect(state.rows[0]!.key).toBe('top.txt');
  expect(state.rows.at(-1)!.key).toBe(`logs/${PREVIEW_ROWS_KEPT / 1000 - 1}/998`);
});
