// The desktop window's uploads: the dropped items' paths, never a walk of them in the window.

import { describe, expect, it, vi } from 'vitest';
import { createElectronClient } from '../../../renderer/api/electron-client.ts';
import type { DesktopBridge } from '../../../renderer/api/electron-client.ts';
import type { DroppedItems } from '../../../src/contract/api.ts';

/** A bridge whose files live where `paths` says, recording each call. */
function fakeBridge(paths: Map<File, string>) {
  const call = vi.fn(async () => ({ ok: true as const, value: null }));
  const bridge: DesktopBridge = {
    call: call as unknown as DesktopBridge['call'],
    subscribe: () => () => undefined,
    pathForFile: (file) => paths.get(file) ?? '',
    pickFolder: async () => undefined,
  };
  return { bridge, call };
}

describe('the Electron client', () => {
  it('uploads a dropped folder by its path, and never walks it', async () => {
    const folder = new File([], 'photos');
    const single = new File(['x'], 'notes.txt');
    const { bridge, call } = fakeBridge(
      new Map([
        [folder, '/home/me/photos'],
        [single, '/home/me/notes.txt'],
      ]),
    );
    const files = vi.fn(async () => [{ file: new File(['y'], 'a.jpg'), relativePath: 'photos/a.jpg' }]);
    const dropped: DroppedItems = { topLevel: [folder, single], count: 2, files };
    await createElectronClient(bridge).uploadFiles({ connectionId: 'c1', bucket: 'b', prefix: 'p/', dropped });
    expect(call).toHaveBeenCalledWith('jobs.upload', {
      connectionId: 'c1',
      bucket: 'b',
      prefix: 'p/',
      paths: ['/home/me/photos', '/home/me/notes.txt'],
    });
    expect(files).not.toHaveBeenCalled();
  });

  it("uploads a picked folder by its root, found from its files' paths", async () => {
    const a = new File(['a'], 'a.jpg');
    const b = new File(['b'], 'b.jpg');
    const { bridge, call } = fakeBridge(
      new Map([
        [a, '/home/me/photos/a.jpg'],
        [b, '/home/me/photos/2024/b.jpg'],
      ]),
    );
    const picked = [
      { file: a, relativePath: 'photos/a.jpg' },
      { file: b, relativePath: 'photos/2024/b.jpg' },
    ];
    await createElectronClient(bridge).uploadFiles({
      connectionId: 'c1',
      bucket: 'b',
      prefix: '',
      dropped: { topLevel: undefined, count: 2, files: async () => picked },
    });
    expect(call).toHaveBeenCalledWith('jobs.upload', {
      connectionId: 'c1',
      bucket: 'b',
      prefix: '',
      paths: ['/home/me/photos'],
    });
  });

  it('refuses an item that is not on the disk (dragged from a web page) without calling the engine', async () => {
    const { bridge, call } = fakeBridge(new Map());
    const result = await createElectronClient(bridge).uploadFiles({
      connectionId: 'c1',
      bucket: 'b',
      prefix: '',
      dropped: { topLevel: [new File(['x'], 'x.txt')], count: 1, files: async () => [] },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'NotOnDisk' } });
    expect(call).not.toHaveBeenCalled();
  });
});
