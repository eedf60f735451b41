// What a caller reads when a request fails validation: a sentence naming the field in words, for
// whoever made the call (a form, the window's status line, the command line's one line).

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Engine } from '../../../../main/engine/engine.ts';
import { createBargeService } from '../../../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../../../main/service/secret-store.ts';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

it('an endpoint that is no store URL is refused in a sentence with no field name before it; a wrong type names its field in words', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-service-'));
  folders.push(folder);
  const engine = new Engine({ env: {} });
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine,
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env: {},
  });
  const service = createBargeService({ engine, registry, host: 'web' });
  try {
    const refused = await service.dispatch('connections.add', {
      name: 'Mine',
      endpoint: 'https://minio.example.com/bucket?x=1',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } });
    const message = (refused as { error: { message: string } }).error.message;
    expect(message).toMatch(/^The endpoint /);
    const wrongType = await service.dispatch('settings.update', { threads: 'many' });
    expect((wrongType as { error: { message: string } }).error.message).toBe(
      'The number of requests in flight must be "auto" or a whole number from 1 to 256.',
    );
  } finally {
    await service.close();
  }
});
