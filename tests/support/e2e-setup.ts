// Global setup for the end-to-end tests: build the app, start MinIO, start `npm run serve`'s host
// against it (as an operator would, with the AWS variables set), and hand the URL to the tests.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildAll, SERVE_BUNDLE } from '../../main/build/build.ts';
import { startS3Server } from './s3-server.ts';
import type { S3ServerInfo } from './s3-server.ts';
import { hostUrl } from './host-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    app: { url: string; token: string; origin: string; downloadRoot: string };
    s3: S3ServerInfo;
  }
}

const here = path.dirname(new URL(import.meta.url).pathname);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Debian's Chromium, installed on first use like the S3 server.
  execFileSync(path.join(here, 'install-chromium.sh'), { stdio: 'inherit' });
  await buildAll();
  const server = await startS3Server();
  const home = await mkdtemp(path.join(os.tmpdir(), 'barge-e2e-home-'));
  const token = 'e2e-token-0123456789';
  const downloadRoot = path.join(home, 'downloads');
  const host = spawn(
    process.execPath,
    [SERVE_BUNDLE, '--port', '0', '--data-dir', path.join(home, 'data'), '--download-root', downloadRoot],
    {
      env: {
        PATH: process.env.PATH,
        // A home of its own: the machine's ~/.aws profiles stay out of the test.
        HOME: home,
        AWS_ACCESS_KEY_ID: server.accessKeyId,
        AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
        AWS_ENDPOINT_URL: server.endpoint,
        AWS_REGION: server.region,
        BARGE_TOKEN: token,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await hostUrl(host);
  project.provide('app', { url, token, origin: new URL(url).origin, downloadRoot });
  project.provide('s3', {
    kind: server.kind,
    endpoint: server.endpoint,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    region: server.region,
  });
  return async () => {
    host.kill('SIGTERM');
    await server.stop();
    await rm(home, { recursive: true, force: true });
  };
}
