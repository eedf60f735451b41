// Retry failed items from the history: a job cleared from the list comes back into it and runs again.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { GetObjectCommand, PutBucketVersioningCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Journal } from '../../main/engine/journal/journal.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
let journal: Journal;
beforeEach(async () => {
  journal = await Journal.open(':memory:');
  t = await setUpEngine({ journal, host: 'app' });
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

it('refuses to retry a delete that was undone: it would delete again what the undo brought back', async () => {
  await t.connection.client.send(
    new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'back.txt', Body: 'back' }));
  const deleted = await t.engine
    .delete(t.connection, { bucket: t.bucket, keys: ['back.txt'] }, { connectionRef: 'saved' })
    .finished();
  // As if a key of it had been refused, then the job cleared from the list.
  journal.setStatus(deleted.id, 'failed');
  t.engine.forget(deleted.id);
  const undo = await t.engine.undo(t.connection, deleted.id, { connectionRef: 'saved' }).finished();
  expect(undo.state.status).toBe('completed');
  expect(t.engine.historyRecord(deleted.id).undoneBy).toBe(undo.id);
  expect(() => t.engine.retryFromHistory(deleted.id, resolve)).toThrow(/was undone, by job .*run the delete again/);
  const still = await t.connection.client.send(new GetObjectCommand({ Bucket: t.bucket, Key: 'back.txt' }));
  expect(await still.Body?.transformToString()).toBe('back');
});
