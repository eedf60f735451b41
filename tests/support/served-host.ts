// `npm run serve` as its own process, for tests of what must not stop it or grow it: its port, its
// token, whether it still runs, and its memory as the system counts it.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hostUrl } from './host-url.ts';

export const SERVED_TOKEN = 'served-host-token-abcdefghij';

export interface ServedHost {
  readonly port: number;
  readonly origin: string;
  readonly downloadRoot: string;
  readonly process: ChildProcess;
  /** Still running: not exited, not killed. */
  alive(): boolean;
  /** What it printed on stderr (why it stopped, if it did). */
  stderr(): string;
  /** Resident memory now, and at its highest so far (Linux's VmRSS and VmHWM), in bytes. */
  memory(): { residentBytes: number; peakBytes: number };
  /** CPU time it has used, in clock ticks (utime + stime). */
  cpuTicks(): number;
  stop(): Promise<void>;
}

/** Starts the host as `npm run serve` does, over a fresh data folder and download root (`prepare` fills it first). */
export async function startServedHost(prepare?: (downloadRoot: string) => Promise<void>): Promise<ServedHost> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-served-'));
  const [staticDir, dataDir, downloadRoot] = ['static', 'data', 'downloads'].map((name) => path.join(folder, name)) as [
    string,
    string,
    string,
  ];
  await mkdir(staticDir);
  await mkdir(downloadRoot);
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Barge</title>');
  await prepare?.(downloadRoot);
  const child = spawn(
    process.execPath,
    [
      'main/web-host/serve.ts',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--static-dir',
      staticDir,
      '--download-root',
      downloadRoot,
    ],
    {
      env: { ...process.env, BARGE_TOKEN: SERVED_TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await hostUrl(child);
  const port = Number(new URL(url).port);
  const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status())?.[1] ?? NaN) * 1024;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    downloadRoot,
    process: child,
    alive: () => child.exitCode === null && child.signalCode === null,
    stderr: () => stderr,
    memory: () => ({ residentBytes: kib('VmRSS'), peakBytes: kib('VmHWM') }),
    cpuTicks() {
      // Fields 14 and 15 of /proc/<pid>/stat, counted after the command name's closing parenthesis.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(folder, { recursive: true, force: true });
    },
  };
}
