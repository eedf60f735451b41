// Vitest global setup for the integration tests: one real S3 server for the whole run.

import type { TestProject } from 'vitest/node';
import { buildCli } from '../../main/build/build.ts';
import { startS3Server } from './s3-server.ts';
import type { S3ServerInfo } from './s3-server.ts';
import { ensureToxiproxyInstalled } from './toxiproxy.ts';
import { useRunTempFolder } from './run-temp-folder.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    s3: S3ServerInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const removeTemporaryFolder = await useRunTempFolder('integration');
  await buildCli();
  // Built here, before the suites start in parallel, so the fault matrix finds it ready.
  ensureToxiproxyInstalled();
  const server = await startS3Server();
  project.provide('s3', {
    kind: server.kind,
    endpoint: server.endpoint,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    region: server.region,
  });
  return async () => {
    await server.stop();
    await removeTemporaryFolder();
  };
}
