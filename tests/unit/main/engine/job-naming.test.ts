// A job is named after what it moves, and says where it acts and when its run started and ended.

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../../../main/engine/engine.ts';
import type { S3Connection } from '../../../../main/engine/s3/s3-connection.ts';

let engine: Engine;
let connection: S3Connection;
let folder: string;

beforeAll(async () => {
  engine = new Engine();
  // Nothing listens here. Only the names matter: the tests cancel their jobs rather than wait out the
  // SDK's retries of a refused connection, which took over 5 s under CI's load.
  connection = await engine.connect({
    endpoint: 'http://127.0.0.1:9',
    region: 'us-east-1',
    accessKeyId: 'a',
    secretAccessKey: 'b',
  });
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-naming-'));
  await writeFile(path.join(folder, 'report.pdf'), 'x');
  await writeFile(path.join(folder, 'notes.txt'), 'x');
  await writeFile(path.join(folder, 'todo.txt'), 'x');
  await mkdir(path.join(folder, 'photos'));
});

afterAll(() => engine.close());

async function cancelled(jobs: { cancel(): void; finished(): Promise<unknown> }[]): Promise<void> {
  for (const job of jobs) job.cancel();
  await Promise.all(jobs.map((job) => job.finished()));
}

it('names an upload after its file, its folder, or its files and folders counted', async () => {
  const one = engine.upload(connection, {
    sources: [path.join(folder, 'report.pdf')],
    bucket: 'b',
    destination: 'in/',
  });
  expect(one.name).toBe('report.pdf → s3://b/in/');
  expect(engine.upload(connection, { sources: [path.join(folder, 'photos')], bucket: 'b', destination: '' }).name).toBe(
    'photos → s3://b/',
  );
  const mixed = engine.upload(connection, {
    sources: ['report.pdf', 'notes.txt', 'todo.txt', 'photos'].map((name) => path.join(folder, name)),
    bucket: 'b',
    destination: 'in/',
  });
  expect(mixed.name).toBe('3 files and 1 folder → s3://b/in/');
  expect(mixed.summary()).toMatchObject({ bucket: 'b', prefix: 'in/' });
  await cancelled([one, mixed]);
});

it('names a download and a delete after their keys and folders, in the folder they live in', async () => {
  const download = engine.download(connection, {
    bucket: 'b',
    keys: ['logs/a.txt'],
    prefixes: ['logs/2024/'],
    targetFolder: folder,
  });
  expect(download.name).toBe(`1 file and 1 folder in s3://b/logs/ → ${folder}`);
  const remove = engine.delete(connection, { bucket: 'b', keys: ['logs/a.txt'] });
  expect(remove.name).toBe('Delete a.txt in s3://b/logs/');
  expect(remove.summary()).toMatchObject({ kind: 'delete', bucket: 'b', prefix: 'logs/' });
  // A dry run changes nothing: it names no folder to list again.
  const count = engine.delete(connection, { bucket: 'b', prefixes: ['logs/'], dryRun: true });
  expect(count.name).toBe('Count logs in s3://b/');
  expect(count.summary().prefix).toBeUndefined();
  await cancelled([download, remove, count]);
});

it('a finished job says when its run started and ended', async () => {
  const job = engine.upload(connection, { sources: [path.join(folder, 'missing')], bucket: 'b', destination: '' });
  expect(job.summary().startedAt).toBeTypeOf('number');
  expect(job.summary().endedAt).toBeUndefined();
  const end = await job.finished();
  expect(end.state.status).toBe('failed');
  expect(end.endedAt).toBeGreaterThanOrEqual(end.startedAt!);
});
