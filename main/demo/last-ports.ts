// The demo's ports of its last run, kept beside its data: started again, the store and the window
// listen where an open tab and exported AWS_ENDPOINT_URL expect them, unless something else has
// taken a port meanwhile (then the kernel picks another, and the new one is kept).

import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { freePort } from './free-port.ts';

export interface DemoPorts {
  /** MinIO's S3 port, its console's, and the web host's. */
  readonly store?: number;
  readonly console?: number;
  readonly web?: number;
}

const FILE = 'ports.json';

/** The ports the last run kept (each checked: a hand edit or an older file cannot pass a wrong one). */
export async function lastPorts(folder: string): Promise<DemoPorts> {
  try {
    const kept = JSON.parse(await readFile(path.join(folder, FILE), 'utf8')) as Record<string, unknown>;
    const port = (value: unknown) =>
      Number.isInteger(value) && (value as number) > 0 && (value as number) < 65536 ? (value as number) : undefined;
    return { store: port(kept.store), console: port(kept.console), web: port(kept.web) };
  } catch {
    return {}; // the first run, or unreadable: the kernel picks
  }
}

/** Keep `ports` (over those kept before) for the next run. */
export async function keepPorts(folder: string, ports: DemoPorts): Promise<void> {
  await writeFile(path.join(folder, FILE), `${JSON.stringify({ ...(await lastPorts(folder)), ...ports })}\n`);
}

/** `kept` if nothing listens on it on loopback now, else a free port the kernel picks. */
export async function keptPortOrFree(kept: number | undefined): Promise<number> {
  return kept !== undefined && (await isFree(kept)) ? kept : freePort();
}

async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
