// The web preferences every Barge window is created with, typed against Electron's own definitions.
//
// The renderer is treated as untrusted: no Node, an isolated context for the preload, Chromium's
// sandbox, and no way to turn web security off. This file may import Electron: it is the shell.

import type { WebPreferences } from 'electron';

export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    spellcheck: false,
  };
}
