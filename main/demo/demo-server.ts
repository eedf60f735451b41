// The demo's S3 store: a MinIO of the project's own pinned build (tests/support/install-s3-server.sh),
// on loopback, with keys generated once and kept beside its data in the app's data folder.
//
// Built cold, MinIO takes about six minutes on two cores (the Go module proxy, then the compiler);
// after that it starts in about a second. The build's progress is told as it goes.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { keepPorts, keptPortOrFree, lastPorts } from './last-ports.ts';

// Both main/demo/ (run from source) and app/dist/ (the bundle) are two folders below the root.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const INSTALLER = path.join(root, 'tests', 'support', 'install-s3-server.sh');
/** How often a build in progress says how long it has taken. */
const BUILD_PROGRESS_EVERY_MS = 15_000;
const READY_TIMEOUT_MS = 60_000;

export interface DemoKeys {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface DemoServer extends DemoKeys {
  readonly endpoint: string;
  readonly region: string;
  stop(): Promise<void>;
}

/** The demo's folder in a data folder: its keys, its MinIO data, whether it is seeded. */
export function demoFolder(dataDir: string): string {
  return path.join(dataDir, 'demo');
}

export function toolsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.BARGE_TOOLS_DIR ?? path.join(os.homedir(), '.cache', 'barge', 'bin');
}

/** MinIO's binary: built once by the project's installer, which says what it needs (Go) if it cannot. */
export async function ensureMinio(say: (line: string) => void): Promise<string> {
  const binary = path.join(toolsDir(), 'minio');
  if (existsSync(binary)) return binary;
  say('Building MinIO for the demo store (the first time only: about six minutes; later starts take seconds)…');
  const started = Date.now();
  const ticker = setInterval(
    () => say(`  still building MinIO: ${Math.round((Date.now() - started) / 1000)} s so far…`),
    BUILD_PROGRESS_EVERY_MS,
  );
  try {
    await new Promise<void>((resolve, reject) => {
      // The installer's output still goes to the host's terminal, and its last words are kept: a
      // window's user never sees that terminal, so the reason must come back in the error.
      const child = spawn(INSTALLER, ['minio'], { stdio: ['ignore', 'inherit', 'pipe'] });
      let tail = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        process.stderr.write(chunk);
        tail = (tail + chunk.toString()).slice(-2000);
      });
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(buildFailure(tail, code)))));
    });
  } finally {
    clearInterval(ticker);
  }
  say(`MinIO built in ${Math.round((Date.now() - started) / 1000)} s.`);
  return binary;
}

/** Why the build failed, in the installer's own last line, and what to do about it. */
export function buildFailure(stderrTail: string, code: number | null): string {
  const reason = stderrTail
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
  const noGo = /Go is needed/.test(stderrTail);
  return (
    `The demo store could not be built: ${reason ?? `the installer stopped (exit ${code})`}` +
    (noGo
      ? ' Install Go (https://go.dev/dl/) and try again, or add a connection to your own store.'
      : ' Its log is in the output of the Barge host. Try again, or add a connection to your own store.')
  );
}

/** The demo's keys, generated the first time and kept (0600): MinIO's data is bound to them. */
export async function demoKeys(folder: string): Promise<DemoKeys> {
  const file = path.join(folder, 'keys.json');
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as Partial<DemoKeys>;
    if (kept.accessKeyId && kept.secretAccessKey)
      return { accessKeyId: kept.accessKeyId, secretAccessKey: kept.secretAccessKey };
  } catch {
    // none yet (or unreadable): new keys, and the data made with old ones goes
  }
  await rm(path.join(folder, 'minio'), { recursive: true, force: true });
  const keys = {
    accessKeyId: `demo-${randomBytes(6).toString('hex')}`,
    secretAccessKey: randomBytes(24).toString('base64url'),
  };
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return keys;
}

/**
 * The window's token for the demo, made the first time and kept (0600) like its keys: started
 * again at its last port, the demo takes the same one, so a tab left open goes on working.
 * `renew`: the window is elsewhere now (its port was taken): a tab left open has been knocking on
 * whatever took that port, token in hand, so a new one is made.
 */
export async function demoToken(folder: string, options: { readonly renew?: boolean } = {}): Promise<string> {
  const file = path.join(folder, 'token');
  const kept = options.renew
    ? ''
    : await readFile(file, 'utf8')
        .then((text) => text.trim())
        .catch(() => '');
  if (/^[A-Za-z0-9_-]{32,}$/.test(kept)) return kept;
  const token = randomBytes(24).toString('base64url');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return token;
}

/** Start MinIO on loopback over the demo folder's data; it stops with `stop` or with this process. */
export async function startDemoServer(
  folder: string,
  say: (line: string) => void = () => undefined,
): Promise<DemoServer> {
  const binary = await ensureMinio(say);
  const keys = await demoKeys(folder);
  const data = path.join(folder, 'minio');
  await mkdir(data, { recursive: true });
  // The last run's ports where they are free: exported variables and open tabs still reach it.
  const last = await lastPorts(folder);
  const port = await keptPortOrFree(last.store);
  const consolePort = await keptPortOrFree(last.console === port ? undefined : last.console);
  const endpoint = `http://127.0.0.1:${port}`;
  const child = spawn(
    binary,
    ['server', data, '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`, '--quiet'],
    {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        MINIO_ROOT_USER: keys.accessKeyId,
        MINIO_ROOT_PASSWORD: keys.secretAccessKey,
        MINIO_UPDATE: 'off',
        MINIO_CALLHOME_ENABLE: 'off',
        MINIO_BROWSER: 'off',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  // However this process ends, MinIO ends with it.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitReady(`${endpoint}/minio/health/ready`, child, () => log);
    await keepPorts(folder, { store: port, console: consolePort });
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, region: 'us-east-1', ...keys, stop };
}

async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`MinIO exited with code ${child.exitCode}: ${log()}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`MinIO did not become ready at ${url}: ${log()}`);
}
