// The demo store as the service sees it: something a host may supply that starts a local S3 store
// with something to browse, and says how to reach it. `npm run serve` and `npm run demo` supply one
// (main/demo/), so the window's "Open the demo store" works there; a host without one (a packaged
// app has no MinIO to build) says so instead.

export interface DemoStoreAccess {
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface DemoStoreLauncher {
  /** Start the store (once; later calls get the same one) and seed it if it is new. `say`: progress lines. */
  start(say: (line: string) => void): Promise<DemoStoreAccess>;
}

/** The connection ID the demo store is offered under. */
export const DEMO_CONNECTION_ID = 'demo';
