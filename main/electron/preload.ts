// The preload: the one bridge between the sandboxed window and the main process.
//
// It exposes a single object, `bargeDesktop`, with exactly the calls the window needs, each bound to
// a channel from the shared list; the window gets no ipcRenderer and no Node. Bundled to CommonJS:
// a sandboxed preload cannot load ES modules.

import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { IpcRendererEvent } from 'electron';
import type { ApiEvent } from '../../src/contract/api.ts';
import { IPC_CHANNELS } from '../../src/contract/ipc-channels.ts';

contextBridge.exposeInMainWorld('bargeDesktop', {
  call: (method: string, params: unknown) => ipcRenderer.invoke(IPC_CHANNELS.call, method, params),
  subscribe: (listener: (event: ApiEvent) => void) => {
    const forward = (_event: IpcRendererEvent, payload: ApiEvent) => listener(payload);
    ipcRenderer.on(IPC_CHANNELS.event, forward);
    return () => ipcRenderer.off(IPC_CHANNELS.event, forward);
  },
  // Files dropped from the desktop: their real paths, so the engine reads them in place.
  pathForFile: (file: File) => webUtils.getPathForFile(file),
  pickFolder: (defaultPath: string) => ipcRenderer.invoke(IPC_CHANNELS.pickFolder, defaultPath),
});
