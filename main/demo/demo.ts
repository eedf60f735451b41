// npm run demo: the app on a store of its own, working at once. MinIO (the project's pinned build)
// on loopback with generated keys, seeded once with something to browse, then the web host exactly
// as `npm run serve` starts it, connected to that store through the environment's connection.
// MinIO stops when the app does.
//
//   npm run demo -- [--reset] [any option of npm run serve]
//
// The store's data and keys live in the app's data folder (demo/); --reset starts it afresh.
// BARGE_DEMO_SMALL_KEYS seeds fewer (or more) than 10,000 small keys.

import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { demoSmallKeys, SERVE_OPTIONS, ServeUsageError, serveDataDir, startServe } from '../web-host/serve-host.ts';
import { runningDemo } from './demo-launcher.ts';
import { DEMO_BUCKET, DEMO_VERSIONS_BUCKET, isSeeded, seedDemo } from './demo-seed.ts';
import { demoFolder, demoToken, startDemoServer } from './demo-server.ts';
import { keepPorts, keptPortOrFree, lastPorts } from './last-ports.ts';
import type { DemoServer } from './demo-server.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);

/** The environment the app reads its connections from: this one, with the demo store as its AWS_* connection. */
export function demoEnvironment(
  server: Pick<DemoServer, 'endpoint' | 'region' | 'accessKeyId' | 'secretAccessKey'>,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  // Another store's settings in the environment would mix with the demo's into one connection.
  const {
    AWS_PROFILE: _profile,
    AWS_SESSION_TOKEN: _session,
    AWS_ENDPOINT_URL_S3: _endpointS3,
    AWS_DEFAULT_REGION: _region,
    ...rest
  } = env;
  return {
    ...rest,
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    AWS_ENDPOINT_URL: server.endpoint,
    AWS_REGION: server.region,
  };
}

/**
 * What the demo prints: the window's URL, and the lines a command-line user pastes to reach the same
 * store (its keys are local test keys of this machine's own MinIO, made for the demo).
 */
export function demoWelcome(
  server: Pick<DemoServer, 'endpoint' | 'region' | 'accessKeyId' | 'secretAccessKey'>,
  url: string,
): string {
  return (
    `Barge is running on its demo store (MinIO at ${server.endpoint}: buckets ${DEMO_BUCKET} and ` +
    `${DEMO_VERSIONS_BUCKET}). Open this URL in a browser:\n\n  ${url}\n\n` +
    `For the command line (npm run barge -- ls s3://${DEMO_BUCKET}/) or another S3 tool, paste these lines ` +
    `into a shell:\n\n` +
    `  export AWS_ACCESS_KEY_ID=${server.accessKeyId}\n` +
    `  export AWS_SECRET_ACCESS_KEY=${server.secretAccessKey}\n` +
    `  export AWS_ENDPOINT_URL=${server.endpoint}\n` +
    `  export AWS_REGION=${server.region}\n\n` +
    'Press Ctrl-C to stop (the demo store stops with it; `npm run demo -- --reset` starts it afresh). The next ' +
    'start keeps these ports while they are free.\n'
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { ...SERVE_OPTIONS, reset: { type: 'boolean' } }, strict: true });
  const { reset, ...args } = values;
  const folder = demoFolder(serveDataDir(args));
  const keys = demoSmallKeys();
  if (reset) {
    say(`Starting the demo store afresh (${folder}).`);
    await rm(folder, { recursive: true, force: true });
  }
  // A seed that was interrupted is started over, on an empty store.
  if (!isSeeded(folder)) await rm(`${folder}/minio`, { recursive: true, force: true });
  const server = await startDemoServer(folder, say);
  let stopping = false;
  const stopAll = async (running?: { stop(): Promise<void> }, code = 0) => {
    if (stopping) return;
    stopping = true;
    await running?.stop();
    await server.stop();
    process.exit(code);
  };
  try {
    if (!isSeeded(folder)) await seedDemo(folder, server, { smallKeys: keys, say });
    // The window where it was last time, with the same token, unless told otherwise or the port is taken.
    const lastWeb = (await lastPorts(folder)).web;
    const port = args.port ?? String(await keptPortOrFree(lastWeb));
    // Elsewhere than last time, a new token: what took the old port may have had the old one from an open tab.
    const token = await demoToken(folder, { renew: Number(port) !== lastWeb });
    const running = await startServe({
      args: { ...args, port },
      env: demoEnvironment(server),
      demoStore: runningDemo(server),
      token,
      command: 'npm run demo',
    });
    await keepPorts(folder, { web: Number(new URL(running.url).port) });
    process.stdout.write(demoWelcome(server, running.url));
    process.once('SIGINT', () => void stopAll(running));
    process.once('SIGTERM', () => void stopAll(running));
  } catch (error) {
    await server.stop();
    throw error;
  }
}

await main().catch((error: unknown) => {
  process.stderr.write(`barge demo: ${(error as Error).message}\n`);
  process.exit(error instanceof ServeUsageError ? 2 : 1);
});
