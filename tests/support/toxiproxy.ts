// Toxiproxy, driven over its HTTP API: a TCP proxy in front of the test S3 server that adds
// latency, bandwidth caps, resets and stalls on demand (this kernel has no netem). Used by the fault
// matrix; installed on first use by tests/support/install-toxiproxy.sh.
//
// Toxics act per TCP connection and per direction: "upstream" is what the client sends (request
// bodies: uploads), "downstream" what it receives (response bodies: downloads). A toxic added while
// connections are open applies to them at once, with fresh per-connection state (limit_data counts
// from zero again).

import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort, TOOLS_DIR } from './s3-server.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const READY_TIMEOUT_MS = 15_000;

export type ToxicStream = 'upstream' | 'downstream';

/** The toxics the fault matrix uses, with toxiproxy's own attribute names and units. */
export type Toxic =
  /** Hold each chunk of data this long (plus up to `jitter`) before passing it on. */
  | { readonly type: 'latency'; readonly attributes: { readonly latency: number; readonly jitter?: number } }
  /** Per-connection rate cap in KB/s, where toxiproxy's KB is 1,000 bytes (`rate` bytes per millisecond). */
  | { readonly type: 'bandwidth'; readonly attributes: { readonly rate: number } }
  /** Reset the connection (TCP RST) `timeout` ms after the first data through it. */
  | { readonly type: 'reset_peer'; readonly attributes: { readonly timeout: number } }
  /** Close the connection once it has carried `bytes` bytes in this direction. */
  | { readonly type: 'limit_data'; readonly attributes: { readonly bytes: number } }
  /** Pass nothing (data is dropped); close after `timeout` ms, or never when 0: a stall. */
  | { readonly type: 'timeout'; readonly attributes: { readonly timeout: number } };

export interface ToxicPlacement {
  readonly stream: ToxicStream;
  /** Share of connections the toxic applies to, 0 to 1 (decided per connection). Default 1. */
  readonly toxicity?: number;
}

export interface ToxiproxyProxy {
  readonly name: string;
  /** Where clients connect: http://127.0.0.1:PORT. */
  readonly endpoint: string;
  addToxic(name: string, toxic: Toxic, placement: ToxicPlacement): Promise<void>;
  removeToxic(name: string): Promise<void>;
  /** Names of the toxics in place now. */
  toxicNames(): Promise<string[]>;
  removeAllToxics(): Promise<void>;
}

export interface ToxiproxyServer {
  /** The control API, http://127.0.0.1:PORT. */
  readonly apiUrl: string;
  readonly process: ChildProcess;
  /** A proxy listening on a free loopback port, forwarding to `upstream` (an http:// URL or host:port). */
  createProxy(name: string, upstream: string): Promise<ToxiproxyProxy>;
  stop(): Promise<void>;
}

/** Build toxiproxy if it is missing (tests/support/install-toxiproxy.sh); returns the binary. */
export function ensureToxiproxyInstalled(): string {
  const binary = path.join(TOOLS_DIR, 'toxiproxy-server');
  if (!existsSync(binary)) execFileSync(path.join(here, 'install-toxiproxy.sh'), [], { stdio: 'inherit' });
  return binary;
}

export async function startToxiproxy(): Promise<ToxiproxyServer> {
  const binary = ensureToxiproxyInstalled();
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  // Its info log writes a line per connection; only warnings are worth keeping for a failure message.
  const child = spawn(binary, ['-host', '127.0.0.1', '-port', String(port)], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  await waitForApi(apiUrl, child, () => stderr);
  const api = apiClient(apiUrl);
  return {
    apiUrl,
    process: child,
    async createProxy(name, upstream) {
      const upstreamAddress = upstream.includes('://') ? new URL(upstream).host : upstream;
      const created = await api<{ listen: string }>('POST', '/proxies', {
        name,
        listen: '127.0.0.1:0',
        upstream: upstreamAddress,
        enabled: true,
      });
      return proxyHandle(api, name, `http://${created.listen}`);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

type Api = <T>(method: string, route: string, body?: unknown) => Promise<T>;

function apiClient(apiUrl: string): Api {
  return async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${apiUrl}${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`toxiproxy ${method} ${route} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

function proxyHandle(api: Api, name: string, endpoint: string): ToxiproxyProxy {
  const base = `/proxies/${encodeURIComponent(name)}/toxics`;
  const toxicNames = async () => (await api<{ name: string }[]>('GET', base)).map((toxic) => toxic.name);
  return {
    name,
    endpoint,
    async addToxic(toxicName, toxic, placement) {
      await api('POST', base, {
        name: toxicName,
        type: toxic.type,
        stream: placement.stream,
        toxicity: placement.toxicity ?? 1,
        attributes: toxic.attributes,
      });
    },
    async removeToxic(toxicName) {
      await api('DELETE', `${base}/${encodeURIComponent(toxicName)}`);
    },
    toxicNames,
    async removeAllToxics() {
      for (const toxicName of await toxicNames()) await api('DELETE', `${base}/${encodeURIComponent(toxicName)}`);
    },
  };
}

async function waitForApi(apiUrl: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`toxiproxy exited with code ${child.exitCode}: ${log()}`);
    try {
      if ((await fetch(`${apiUrl}/version`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`toxiproxy did not answer at ${apiUrl}: ${log()}`);
}
