// npm run serve: the engine plus the window, in a browser.
//
//   npm run serve -- [--port N] [--host ADDRESS] [--data-dir DIR] [--download-root DIR]
//                    [--tls-cert PEM --tls-key PEM | --insecure-http] [--allow-internal-endpoints]

import { parseArgs } from 'node:util';
import { SERVE_OPTIONS, ServeUsageError, startServe } from './serve-host.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: SERVE_OPTIONS, strict: true });
  const running = await startServe({ args: values });
  process.stdout.write(`Barge is running. Open this URL in a browser:\n\n  ${running.url}\n\nPress Ctrl-C to stop.\n`);
  const stop = async () => {
    await running.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

await main().catch((error: unknown) => {
  process.stderr.write(`barge serve: ${(error as Error).message}\n`);
  process.exit(error instanceof ServeUsageError ? 2 : 1);
});
