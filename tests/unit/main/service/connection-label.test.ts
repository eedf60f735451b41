// How a job's history names its connection: never with a secret, even one written into the endpoint.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Engine } from '../../../../main/engine/engine.ts';
import { ConnectionRegistry, ENVIRONMENT_CONNECTION_ID } from '../../../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../../../main/service/secret-store.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-connection-label-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

it("hides a user name and password written into AWS_ENDPOINT_URL, as the store's address is kept in the history", async () => {
  const env = {
    AWS_ENDPOINT_URL: 'http://gateway:hunter2-secret@127.0.0.1:9000',
    AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'the-secret-key',
  };
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine: new Engine({ env }),
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env,
  });
  const label = await registry.label(ENVIRONMENT_CONNECTION_ID);
  expect(label).toBe('Environment (AWS_*) · http://***@127.0.0.1:9000 · key AKIAEXAMPLE');
  expect(label).not.toMatch(/hunter2|the-secret-key/);
});
