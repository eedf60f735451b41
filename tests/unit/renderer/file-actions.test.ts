import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { folderOnScreenMenu, selectionMenu } from '../../../renderer/components/browser-menu.ts';
import type { BrowserActions } from '../../../renderer/components/browser-menu.ts';
import { asksForMenu } from '../../../renderer/components/ContextMenu.tsx';
import { useFileActions } from '../../../renderer/store/file-actions-store.ts';
import { useBrowser } from '../../../renderer/store/browser-store.ts';
import { useFakeApi } from './fake-api.ts';

const nothing = () => undefined;
const act: BrowserActions = {
  download: nothing,
  copyLink: nothing,
  details: nothing,
  rename: nothing,
  copyTo: nothing,
  delete: nothing,
  sync: nothing,
  calculateSize: nothing,
  newFolder: nothing,
  restoreTo: nothing,
  refresh: nothing,
};
const labels = (items: readonly { label: string }[]) => items.map((item) => item.label);

describe('the browser context menus', () => {
  it('offer what applies: to one object, one folder, several rows, the folder on screen', () => {
    expect(labels(selectionMenu([{ kind: 'object', key: 'p/a.txt', name: 'a.txt' }], act))).toEqual([
      'Download…',
      'Copy link',
      'Details',
      'Rename…',
      'Copy to…',
      'Move to…',
      'Delete…',
    ]);
    expect(labels(selectionMenu([{ kind: 'folder', key: 'p/d/', name: 'd' }], act))).toEqual([
      'Download…',
      'Rename…',
      'Copy to…',
      'Move to…',
      'Delete…',
      'New folder…',
      'Sync with a folder…',
      'Calculate size',
      'Restore to…',
    ]);
    const two = [
      { kind: 'object' as const, key: 'p/a.txt', name: 'a.txt' },
      { kind: 'folder' as const, key: 'p/d/', name: 'd' },
    ];
    expect(labels(selectionMenu(two, act))).toEqual(['Download…', 'Copy to…', 'Move to…', 'Delete…']);
    expect(labels(folderOnScreenMenu('p/', act))).toEqual([
      'New folder…',
      'Sync with a folder…',
      'Calculate size',
      'Restore to…',
      'Refresh',
    ]);
  });

  it('open on the ContextMenu key and on Shift+F10 only', () => {
    expect(asksForMenu({ key: 'ContextMenu', shiftKey: false })).toBe(true);
    expect(asksForMenu({ key: 'F10', shiftKey: true })).toBe(true);
    expect(asksForMenu({ key: 'F10', shiftKey: false })).toBe(false);
  });
});

describe('the file actions store', () => {
  beforeEach(() => vi.stubGlobal('requestAnimationFrame', () => 0));
  afterEach(() => vi.unstubAllGlobals());

  it('renames by a move job to the new name in the same folder', async () => {
    const fake = useFakeApi({
      'jobs.copy': { id: 'j1', kind: 'copy' } as never,
    });
    await useFileActions.getState().rename('c1', 'b', 'p/', { kind: 'folder', key: 'p/old/', name: 'old' }, 'new');
    expect(fake.calls.find((call) => call.method === 'jobs.copy')?.params).toEqual({
      connectionId: 'c1',
      sourceBucket: 'b',
      prefixes: ['p/old/'],
      bucket: 'b',
      destination: 'p/new',
      move: true,
      // Never a silent replace: the dialog asked first, and only its Replace sends 'overwrite'.
      ifExists: 'fail',
    });
  });

  it("previews a folder's rename: the first keys and the key each becomes, and whether there are more", async () => {
    useFakeApi({
      'objects.list': {
        objects: [
          { key: 'p/old/a', size: 1 },
          { key: 'p/old/x/b', size: 1 },
        ],
        prefixes: [],
        nextToken: 't',
      } as never,
    });
    expect(await useFileActions.getState().renamePreview('c1', 'b', 'p/old/', 'new')).toEqual({
      moves: [
        { from: 'p/old/a', to: 'p/new/a' },
        { from: 'p/old/x/b', to: 'p/new/x/b' },
      ],
      more: true,
    });
  });

  it('refuses a drop of a folder into itself, in words, and starts nothing', async () => {
    const fake = useFakeApi();
    useBrowser.setState({ connectionId: 'c1' });
    const sources = { connectionId: 'c1', bucket: 'b', keys: [], prefixes: ['d/'] };
    await useFileActions.getState().drop(sources, 'b', 'd/', false);
    expect(useFileActions.getState().dropProblem).toBe(
      'Cannot copy s3://b/d/ into itself (to s3://b/d/d/): choose a destination outside it.',
    );
    expect(fake.calls.filter((call) => call.method === 'jobs.copy')).toEqual([]);
  });
});
