// The BargeApi of the desktop window: the object the Electron preload exposes, plus file paths
// for dropped files (resolved by the preload with webUtils.getPathForFile). A dropped folder's File
// gives the folder's path, so uploads send the dropped items' paths and the engine walks them.

import type { BargeApi, FilesToUpload, PickedFile } from '../../src/contract/api.ts';
import type { Result } from '../../src/contract/result.ts';
import type { JobSummary } from '../../src/jobs.ts';

/** What main/electron/preload.ts puts on `window.bargeDesktop`. */
export interface DesktopBridge {
  call: BargeApi['call'];
  subscribe: BargeApi['subscribe'];
  pathForFile(file: File): string;
  pickFolder(defaultPath: string): Promise<string | undefined>;
}

export function createElectronClient(bridge: DesktopBridge): BargeApi {
  return {
    call: (method, params) => bridge.call(method, params),
    subscribe: (listener) => bridge.subscribe(listener),
    pickFolder: (defaultPath) => bridge.pickFolder(defaultPath),
    async uploadFiles({
      connectionId,
      bucket,
      prefix,
      dropped,
      ifExists,
      uploadOptions,
    }: FilesToUpload): Promise<Result<JobSummary>> {
      // The engine reads what was dropped in place, folders and all: the window walks nothing.
      const paths = dropped.topLevel
        ? dropped.topLevel.map((file) => bridge.pathForFile(file))
        : pickedRoots(await dropped.files(), bridge);
      if (paths.length === 0 || paths.some((p) => p === ''))
        return {
          ok: false,
          error: {
            code: 'NotOnDisk',
            message: 'Only files and folders on this computer can be uploaded: save them to a folder first.',
          },
        };
      return bridge.call('jobs.upload', { connectionId, bucket, prefix, paths, ifExists, uploadOptions });
    },
  };
}

/**
 * The roots of a picker's files: each top-level entry (a picked folder, or single files) once, as the
 * file's path less its path below the root (names may hold "\\" on POSIX).
 */
function pickedRoots(files: readonly PickedFile[], bridge: DesktopBridge): string[] {
  const roots = new Map<string, string>();
  for (const { file, relativePath } of files) {
    const top = relativePath.split('/')[0]!;
    if (roots.has(top)) continue;
    const full = bridge.pathForFile(file);
    const below = relativePath.slice(top.length);
    const native = full.includes('\\') && !full.startsWith('/') ? below.replaceAll('/', '\\') : below;
    roots.set(top, full.endsWith(native) ? full.slice(0, full.length - native.length) : full);
  }
  return [...roots.values()];
}
