// The Electron IPC channels, named once. The preload exposes nothing else; the main process
// listens on nothing else.

export const IPC_CHANNELS = {
  /** invoke(method, params) -> Result */
  call: 'barge:call',
  /** main -> window: ApiEvent */
  event: 'barge:event',
  /** invoke(defaultPath) -> string | undefined */
  pickFolder: 'barge:pick-folder',
} as const;

/** The window's own origin in Electron (a privileged custom scheme, so the CSP header applies). */
export const APP_ORIGIN = 'app://barge';
