// The web host as `npm run serve` starts it: its options from the command line, the runtime and the
// host over it. `npm run demo` starts it the same way, over the demo store: one copy of the checks
// (TLS beyond loopback, the download root, the token) for both.

import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { parseArgs } from 'node:util';
import { internalEndpointProblem } from '../../src/internal-endpoints.ts';
import { defaultDataDir } from '../service/data-dir.ts';
import { createRuntime } from '../service/runtime.ts';
import { newToken, tokenProblem } from './access-token.ts';
import { startWebHost } from './web-host.ts';
import { createDemoLauncher } from '../demo/demo-launcher.ts';
import type { DemoStoreLauncher } from '../service/demo-store.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The options of `npm run serve` (`npm run demo` takes them too). */
export const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  'static-dir': { type: 'string' },
  'download-root': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'insecure-http': { type: 'boolean' },
  'allow-internal-endpoints': { type: 'boolean' },
  'public-name': { type: 'string', multiple: true },
} as const;

export type ServeArgs = ReturnType<typeof parseArgs<{ options: typeof SERVE_OPTIONS; strict: true }>>['values'];

export interface ServeStart {
  readonly args: ServeArgs;
  /** The environment the runtime reads connections from (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** The demo store the window may open (default: one started on demand in the data folder's demo/). */
  readonly demoStore?: DemoStoreLauncher;
  /** The token to ask for, where BARGE_TOKEN chooses none (the demo keeps its own across runs). */
  readonly token?: string;
  /** The command its user typed (default `npm run serve`): a window that loses the host says to run it again. */
  readonly command?: string;
}

export interface RunningServe {
  readonly url: string;
  stop(): Promise<void>;
}

/** A setting the host cannot start with (exit status 2, as other usage errors). */
export class ServeUsageError extends Error {}

/** The data folder `args` names, or the app's own. */
export function serveDataDir(args: ServeArgs): string {
  return args['data-dir'] ?? defaultDataDir();
}

export async function startServe({
  args: values,
  env,
  demoStore,
  token: kept,
  command = 'npm run serve',
}: ServeStart): Promise<RunningServe> {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port takes a port number, not "${values.port}".`);
  const host = values.host ?? '127.0.0.1';
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  // Listening on every interface, the host answers to this machine's name and addresses too.
  const everywhere = host === '0.0.0.0' || host === '::';
  const publicNames = [
    ...(values['public-name'] ?? []),
    ...(everywhere
      ? [
          os.hostname(),
          ...Object.values(os.networkInterfaces())
            .flat()
            .map((i) => i?.address)
            .filter((a): a is string => Boolean(a)),
        ]
      : []),
  ];
  // A loopback host with public names is reached through a proxy: others reach it all the same.
  const reachable = !loopback || (values['public-name'] ?? []).length > 0;
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
    throw new Error('Give --tls-cert and --tls-key together.');
  const tls =
    values['tls-cert'] && values['tls-key']
      ? { cert: await readFile(values['tls-cert']), key: await readFile(values['tls-key']) }
      : undefined;
  // Beyond this machine the token and every byte cross a network: only encrypted, unless told.
  if (reachable && !tls && !values['insecure-http']) {
    throw new Error(
      `${loopback ? `Named ${values['public-name']!.join(', ')}` : `Listening on ${host}`}, this host is ` +
        `reached from beyond this machine: give --tls-cert and --tls-key (HTTPS), or --insecure-http to accept ` +
        `plain HTTP on a network you trust (or behind a proxy that ends TLS). An SSH tunnel to a loopback ` +
        `host is safer still.`,
    );
  }
  const token = chosenToken(kept);
  // Whoever holds the token may download only below this folder, never over ~/.aws or ~/.ssh.
  const downloadRoot = path.resolve(values['download-root'] ?? path.join(os.homedir(), 'Downloads', 'Barge'));
  const onDemand = demoStore ? undefined : createDemoLauncher(serveDataDir(values), { smallKeys: demoSmallKeys() });
  const service = await createRuntime({
    host: 'web',
    dataDir: serveDataDir(values),
    env,
    warn: (message) => process.stderr.write(`Warning: ${message}\n`),
    // Reachable by others, it refuses endpoints on the machine's or its network's own addresses: by
    // name when a connection is added, and by address each time a socket connects.
    refuseInternalEndpoints: reachable && !values['allow-internal-endpoints'],
    downloadRoot,
    // Nothing is replaced unless the window says so.
    defaultIfExists: 'fail',
    // Browser uploads are staged in a private temporary folder; a page names no file of this machine.
    staging: {},
    // "Save to this computer": objects streamed through this host as the browser's own downloads.
    browserDownloads: true,
    pageCallers: true,
    demoStore: demoStore ?? onDemand,
    startedBy: command,
  });
  const webHost = await startWebHost({
    service,
    token,
    // The bundle lives in app/dist, the built window in app/dist/renderer.
    staticDir: values['static-dir'] ?? path.join(here, 'renderer'),
    host,
    port,
    tls,
    publicNames,
    command,
  });
  if (!loopback) {
    process.stderr.write(
      `Warning: listening on ${host}, not just this machine. Anyone who can reach it and learns the token can ` +
        `use your credentials; prefer an SSH tunnel.\n`,
    );
  }
  // The environment's own store refused as any other: said now, not at the first listing.
  const envEndpoint = (env ?? process.env).AWS_ENDPOINT_URL_S3 || (env ?? process.env).AWS_ENDPOINT_URL;
  const refused =
    reachable && !values['allow-internal-endpoints'] && envEndpoint ? internalEndpointProblem(envEndpoint) : undefined;
  if (refused)
    process.stderr.write(
      `Warning: this host refuses the environment's endpoint ${envEndpoint} (${refused}); if that is your ` +
        `store, start it with --allow-internal-endpoints.\n`,
    );
  return {
    url: webHost.url,
    async stop() {
      await webHost.close();
      await service.close();
      await onDemand?.stop();
    },
  };
}

/** BARGE_DEMO_SMALL_KEYS: fewer (or more) than the demo's 10,000 small keys (tests seed a few). */
export function demoSmallKeys(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const text = env.BARGE_DEMO_SMALL_KEYS;
  if (!text) return undefined;
  const count = Number(text);
  if (!Number.isInteger(count) || count < 0)
    throw new ServeUsageError(`BARGE_DEMO_SMALL_KEYS takes a number of keys, not "${text}".`);
  return count;
}

/** BARGE_TOKEN (tests, scripts), if it is as hard to guess as a generated token; else a new one. */
function chosenToken(kept: string | undefined): string {
  const chosen = process.env.BARGE_TOKEN;
  if (!chosen) return kept ?? newToken();
  const problem = tokenProblem(chosen);
  if (problem) throw new ServeUsageError(`BARGE_TOKEN ${problem}. Leave it unset for a random token.`);
  return chosen;
}
