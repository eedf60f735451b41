// npm run serve: the engine plus the window, in a browser.
//
//   npm run serve -- [--port N] [--host ADDRESS] [--data-dir DIR] [--download-root DIR]

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Engine } from '../engine/engine.ts';
import { defaultDataDir, openJournalIn } from '../service/data-dir.ts';
import { createBargeService } from '../service/barge-service.ts';
import { ConnectionRegistry } from '../service/connection-registry.ts';
import { FileSecretStore } from '../service/secret-store.ts';
import { newToken, tokenProblem } from './access-token.ts';
import { startWebHost } from './web-host.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' }, 'static-dir': { type: 'string' }, 'download-root': { type: 'string' } },
    strict: true,
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port takes a port number, not "${values.port}".`);
  const host = values.host ?? '127.0.0.1';
  const dataDir = values['data-dir'] ?? defaultDataDir();
  // Its own jobs only: the Electron app, pointed at the same folder, keeps its own.
  const engine = new Engine({ journal: await openJournalIn(dataDir, (message) => process.stderr.write(`Warning: ${message}\n`)), host: 'web' });
  const registry = new ConnectionRegistry({ dataDir, engine, secrets: new FileSecretStore(path.join(dataDir, 'secrets.json')) });
  // Whoever holds the token may download only below this folder, never over ~/.aws or ~/.ssh.
  const downloadRoot = path.resolve(values['download-root'] ?? path.join(os.homedir(), 'Downloads', 'Barge'));
  const service = createBargeService({ engine, registry, host: 'web', downloadRoot });
  const webHost = await startWebHost({
    service,
    token: chosenToken(),
    // The bundle lives in app/dist, the built window in app/dist/renderer.
    staticDir: values['static-dir'] ?? path.join(here, 'renderer'),
    host,
    port,
  });
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    process.stderr.write(`Warning: listening on ${host}, not just this machine. Anyone who can reach it and learns the token can use your credentials; prefer an SSH tunnel.\n`);
  }
  process.stdout.write(`Barge is running. Open this URL in a browser:\n\n  ${webHost.url}\n\nPress Ctrl-C to stop.\n`);
  const stop = async () => {
    await webHost.close();
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

await main().catch((error: unknown) => {
  process.stderr.write(`barge serve: ${(error as Error).message}\n`);
  process.exit(1);
});

/** BARGE_TOKEN (tests, scripts), if it is as hard to guess as a generated token; else a new one. */
function chosenToken(): string {
  const chosen = process.env.BARGE_TOKEN;
  if (!chosen) return newToken();
  const problem = tokenProblem(chosen);
  if (problem) {
    process.stderr.write(`barge serve: BARGE_TOKEN ${problem}. Leave it unset for a random token.\n`);
    process.exit(2);
  }
  return chosen;
}
