// The BargeApi of the desktop window: the object the Electron preload exposes, plus file paths
// for dropped files (resolved by the preload with webUtils.getPathForFile).

import type { BargeApi, FilesToUpload } from '../../src/contract/api.ts';
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
    async uploadFiles(request: FilesToUpload): Promise<Result<JobSummary>> {
      // The top-level entries (a dropped folder, or single files) keep their names under the prefix.
      const roots = new Map<string, string>();
      for (const { file, relativePath } of request.files) {
        const top = relativePath.split('/')[0]!;
        if (roots.has(top)) continue;
        const full = bridge.pathForFile(file);
        // The dropped root is the file's path less its path below the root (names may hold "\\").
        const below = relativePath.slice(top.length);
        const native = full.includes('\\') && !full.startsWith('/') ? below.replaceAll('/', '\\') : below;
        roots.set(top, full.endsWith(native) ? full.slice(0, full.length - native.length) : full);
      }
      return bridge.call('jobs.upload', { connectionId: request.connectionId, bucket: request.bucket, prefix: request.prefix, paths: [...roots.values()] });
    },
  };
}
