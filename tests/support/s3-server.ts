// A real S3 server on a free loopback port, with a temporary data folder: MinIO by default,
// versitygw with BARGE_TEST_SERVER=versitygw. Used by the integration tests and the benchmark.

import { spawn, execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../main/demo/free-port.ts';

export { freePort };

export type ServerKind = 'minio' | 'versitygw';

export interface S3ServerInfo {
  readonly kind: ServerKind;
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly region: string;
}

export interface RunningS3Server extends S3ServerInfo {
  /** The server process now (a new one after each restart). */
  readonly process: ChildProcess;
  readonly dataDir: string;
  /**
   * Stop the server process but keep its port and data folder: an outage, as clients see it.
   * SIGKILL (the default) is a crash: no request in flight gets an answer.
   */
  halt(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Start the server again on the same port and data folder (halting it first if it runs); resolves once it is ready.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const here = path.dirname(new URL(import.meta.url).pathname);
export const TOOLS_DIR = process.env.BARGE_TOOLS_DIR ?? path.join(os.homedir(), '.cache', 'barge', 'bin');
const ACCESS_KEY = 'barge-test-key';
const SECRET_KEY = 'barge-test-secret-0123456789';

export function serverKind(): ServerKind {
  const kind = process.env.BARGE_TEST_SERVER ?? 'minio';
  if (kind !== 'minio' && kind !== 'versitygw')
    throw new Error(`BARGE_TEST_SERVER must be minio or versitygw, not ${kind}`);
  return kind;
}

/** Build the server if it is missing (tests/support/install-s3-server.sh). */
export function ensureInstalled(kind: ServerKind): string {
  const binary = path.join(TOOLS_DIR, kind);
  if (!existsSync(binary)) execFileSync(path.join(here, 'install-s3-server.sh'), [kind], { stdio: 'inherit' });
  return binary;
}

export async function startS3Server(
  kind: ServerKind = serverKind(),
  options: { port?: number; dataDir?: string } = {},
): Promise<RunningS3Server> {
  const binary = ensureInstalled(kind);
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), `barge-${kind}-`)));
  if (kind === 'versitygw') await mkdir(`${dataDir}-versions`, { recursive: true });
  const port = options.port ?? (await freePort());
  const consolePort = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const args =
    kind === 'minio'
      ? [
          'server',
          dataDir,
          '--address',
          `127.0.0.1:${port}`,
          '--console-address',
          `127.0.0.1:${consolePort}`,
          '--quiet',
        ]
      : [
          '--access',
          ACCESS_KEY,
          '--secret',
          SECRET_KEY,
          '--port',
          `127.0.0.1:${port}`,
          '--quiet',
          '--keep-alive',
          'posix',
          '--versioning-dir',
          `${dataDir}-versions`,
          dataDir,
        ];
  const readyUrl = kind === 'minio' ? `${endpoint}/minio/health/ready` : `${endpoint}/`;
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(binary, args, {
      env: {
        ...process.env,
        MINIO_ROOT_USER: ACCESS_KEY,
        MINIO_ROOT_PASSWORD: SECRET_KEY,
        MINIO_UPDATE: 'off',
        MINIO_CALLHOME_ENABLE: 'off',
        MINIO_BROWSER: 'off',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    await waitReady(readyUrl, child, () => stderr);
    return child;
  };
  let child = await launch();
  const halt = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  const stop = async () => {
    await halt('SIGTERM');
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    await rm(`${dataDir}-versions`, { recursive: true, force: true });
  };
  return {
    kind,
    endpoint,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    region: 'us-east-1',
    dataDir,
    get process() {
      return child;
    },
    halt,
    async restart() {
      await halt();
      child = await launch();
    },
    stop,
  };
}

async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the S3 server exited with code ${child.exitCode}: ${log()}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the S3 server did not become ready at ${url}: ${log()}`);
}
