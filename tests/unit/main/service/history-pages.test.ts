// A web host's page sees the history of the web host's own jobs only: the command line's and the app's
// name files and folders on the host's machine, and the command line's session connections.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Engine } from '../../../../main/engine/engine.ts';
import { Journal } from '../../../../main/engine/journal/journal.ts';
import type { JournalHost } from '../../../../main/engine/journal/journal.ts';
import { createBargeService } from '../../../../main/service/barge-service.ts';
import type { BargeService } from '../../../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../../../main/service/secret-store.ts';

let folder: string;
let service: BargeService;

function recordUpload(journal: Journal, id: string, host: JournalHost, source: string): void {
  const spec = { sources: [source], bucket: 'b', destination: 'up/' };
  journal.addJob({ id, host, kind: 'upload', name: id, spec, connectionRef: 'c', fingerprint: id });
  journal.setStatus(id, 'completed');
}

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-history-pages-'));
  const journal = await Journal.open(':memory:');
  recordUpload(journal, 'cli-upload-0001', 'cli', '/home/someone/private/tax-2026');
  recordUpload(journal, 'app-upload-0001', 'app', '/home/someone/private/photos');
  recordUpload(journal, 'web-upload-0001', 'web', '/staging/batch');
  const engine = new Engine({ env: {}, journal, host: 'web' });
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine,
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env: {},
  });
  service = createBargeService({ engine, registry, host: 'web', pageCallers: true, restoreJobs: false });
});

afterEach(async () => {
  await service.close();
  await rm(folder, { recursive: true, force: true });
});

it("lists and shows a page the web host's own jobs only, never another host's files or folders", async () => {
  const listed = await service.dispatch('history.list', {});
  expect(listed).toMatchObject({ ok: true, value: { total: 1, jobs: [{ id: 'web-upload-0001' }] } });
  expect(JSON.stringify(listed)).not.toContain('/home/someone');
  for (const id of ['cli-upload-0001', 'app-upload-0001', 'cli-upload']) {
    expect(await service.dispatch('history.job', { id })).toMatchObject({ ok: false, error: { code: 'NoSuchJob' } });
    expect(await service.dispatch('history.removals', { id })).toMatchObject({
      ok: false,
      error: { code: 'NoSuchJob' },
    });
    expect(await service.dispatch('history.undo', { id })).toMatchObject({ ok: false, error: { code: 'NoSuchJob' } });
  }
  expect(await service.dispatch('history.job', { id: 'web-upload-0001' })).toMatchObject({
    ok: true,
    value: { id: 'web-upload-0001', host: 'web' },
  });
});
