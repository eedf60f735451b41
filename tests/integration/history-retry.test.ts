// Retry failed items from the history: a job cleared from the list comes back into it and runs again.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Journal } from '../../main/engine/journal/journal.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ journal: await Journal.open(':memory:'), host: 'app' });
});
afterEach(() => t.close());

const resolve = async () => t.connection;

it('brings a failed job cleared from the list back, and retries it to the end', async () => {
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'here.txt', Body: 'here' }));
  const spec = { bucket: t.bucket, keys: ['here.txt', 'late.txt'], targetFolder: t.dir };
  const failed = await t.engine.download(t.connection, spec, { connectionRef: 'saved' }).finished();
  expect(failed.state.status).toBe('failed');
  t.engine.forget(failed.id);
  expect(t.engine.job(failed.id)).toBeUndefined();
  expect(t.engine.historyEntry(failed.id)).toMatchObject({ status: 'failed', listed: false });

  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'late.txt', Body: 'late' }));
  const again = t.engine.retryFromHistory(failed.id.slice(0, 8), resolve);
  expect(again.id).toBe(failed.id);
  const end = await again.finished();
  expect(end.state.status).toBe('completed');
  expect(await readFile(path.join(t.dir, 'late.txt'), 'utf8')).toBe('late');
  expect(t.engine.historyEntry(failed.id)).toMatchObject({ status: 'completed', listed: true });
  // Nothing left to retry: said so.
  expect(() => t.engine.retryFromHistory(failed.id, resolve)).toThrow(/nothing to retry/);
});

it("refuses to retry another host's job, naming where to retry it", async () => {
  const journal = await Journal.open(':memory:');
  journal.addJob({
    id: 'cli-job',
    host: 'cli',
    kind: 'delete',
    name: 'x',
    spec: {},
    connectionRef: 'c',
    fingerprint: 'f',
  });
  journal.setStatus('cli-job', 'failed');
  const { Engine } = await import('../../main/engine/engine.ts');
  const engine = new Engine({ journal, host: 'app' });
  try {
    expect(() => engine.retryFromHistory('cli-job', resolve)).toThrow(
      /ran in the command line: run the same command again/,
    );
  } finally {
    await engine.close();
  }
});
