// The demo store on demand: what the window's "Open the demo store" starts, through the service
// (main/service/demo-store.ts). The same start as `npm run demo` (MinIO in the data folder's demo/,
// seeded once), begun when the user asks rather than with the host, and stopped with the host.

import { rm } from 'node:fs/promises';
import type { DemoStoreAccess, DemoStoreLauncher } from '../service/demo-store.ts';
import { isSeeded, seedDemo } from './demo-seed.ts';
import { demoFolder, startDemoServer } from './demo-server.ts';
import type { DemoServer } from './demo-server.ts';

export interface DemoLauncher extends DemoStoreLauncher {
  /** Stop the store if it was started. */
  stop(): Promise<void>;
}

/**
 * `smallKeys`: the size of the many-small-files prefix (BARGE_DEMO_SMALL_KEYS); `largeSizes`: the large files' (tests
 * seed small ones).
 */
export function createDemoLauncher(
  dataDir: string,
  options: { readonly smallKeys?: number; readonly largeSizes?: readonly number[] } = {},
): DemoLauncher {
  const folder = demoFolder(dataDir);
  let starting: Promise<DemoServer> | undefined;
  // Several windows may ask at once: one start, and every asker hears its progress.
  const listeners = new Set<(line: string) => void>();
  const say = (line: string) => {
    for (const listener of listeners) listener(line);
  };
  return {
    async start(listener): Promise<DemoStoreAccess> {
      listeners.add(listener);
      try {
        starting ??= (async () => {
          // A seed that was interrupted is started over, on an empty store.
          if (!isSeeded(folder)) await rm(`${folder}/minio`, { recursive: true, force: true });
          say('Starting the demo store (MinIO on this machine)…');
          const server = await startDemoServer(folder, say);
          try {
            if (!isSeeded(folder))
              await seedDemo(folder, server, { smallKeys: options.smallKeys, largeSizes: options.largeSizes, say });
          } catch (error) {
            await server.stop();
            throw error;
          }
          say('The demo store is ready.');
          return server;
        })();
        // A start that failed may be tried again.
        starting.catch(() => {
          starting = undefined;
        });
        const { endpoint, region, accessKeyId, secretAccessKey } = await starting;
        return { endpoint, region, accessKeyId, secretAccessKey };
      } finally {
        listeners.delete(listener);
      }
    },
    async stop() {
      const server = await starting?.catch(() => undefined);
      await server?.stop();
    },
  };
}

/** A launcher over a store already running (`npm run demo` starts its own before the host). */
export function runningDemo(server: DemoStoreAccess): DemoStoreLauncher {
  return { start: async () => server };
}
