// A job's spec is checked going into the engine and again when it is read back from the journal.

import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { Engine } from '../../../../../main/engine/engine.ts';
import { BargeError } from '../../../../../main/engine/errors.ts';
import { Journal } from '../../../../../main/engine/journal/journal.ts';

it('refuses a spec that does not fit its kind before anything starts', async () => {
  const engine = new Engine({ journal: await Journal.open(':memory:'), host: 'cli' });
  const connection = await engine.connect({
    endpoint: 'http://127.0.0.1:9',
    region: 'us-east-1',
    accessKeyId: 'a',
    secretAccessKey: 'b',
  });
  const start = () => engine.upload(connection, { sources: [], bucket: 'b', destination: '' }, { connectionRef: 'c' });
  expect(start).toThrow(BargeError);
  expect(start).toThrow(
    "This upload job's description is not valid (The list of files to upload is empty); it cannot run. Start it again.",
  );
  expect(engine.summaries()).toEqual([]);
  await engine.close();
});

it('a recorded job whose spec was damaged fails by itself when brought back, and the others come back', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-recovery-')), 'journal.sqlite');
  const writer = await Journal.open(file);
  writer.addJob({
    id: 'damaged',
    host: 'app',
    kind: 'download',
    name: 'damaged',
    spec: { bucket: 'b', targetFolder: 42 },
    connectionRef: 'c',
    fingerprint: 'f1',
  });
  writer.addJob({
    id: 'sound',
    host: 'app',
    kind: 'delete',
    name: 'sound',
    spec: { bucket: 'b', keys: ['k'] },
    connectionRef: 'c',
    fingerprint: 'f2',
  });
  writer.close();
  const engine = new Engine({ journal: await Journal.open(file), host: 'app' });
  let resolved = 0;
  const restored = engine.restore(async () => {
    resolved += 1;
    throw new BargeError('NoSuchConnection', 'That connection no longer exists.');
  });
  expect(restored.map((job) => job.id).sort()).toEqual(['damaged', 'sound']);
  for (const job of restored) job.resume();
  const ends = Object.fromEntries(
    await Promise.all(restored.map(async (job) => [job.id, (await job.finished()).state] as const)),
  );
  expect(ends.damaged).toMatchObject({ status: 'failed', error: { code: 'InvalidJobSpec' } });
  const damaged = ends.damaged;
  expect(damaged?.status === 'failed' ? damaged.error.message : '').toMatch(
    /\(The folder to download into (is missing|must be text)\)/,
  );
  // The sound one got as far as its connection: only it asked for one.
  expect(ends.sound).toMatchObject({ status: 'failed', error: { code: 'NoSuchConnection' } });
  expect(resolved).toBe(1);
  await engine.close();
});

it('a job brought back after a restart is refused for what a new one is refused, before it asks for its connection', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-recovery-')), 'journal.sqlite');
  const writer = await Journal.open(file);
  // A record no engine would write (a bucket deleted after emptying one prefix of it): damaged or foreign.
  writer.addJob({
    id: 'refused',
    host: 'app',
    kind: 'delete',
    name: 'refused',
    spec: { bucket: 'b', prefixes: ['logs/'], deleteBucket: true },
    connectionRef: 'c',
    fingerprint: 'f3',
  });
  writer.close();
  const engine = new Engine({ journal: await Journal.open(file), host: 'app' });
  let resolved = 0;
  const [restored] = engine.restore(async () => {
    resolved += 1;
    throw new BargeError('NoSuchConnection', 'That connection no longer exists.');
  });
  restored!.resume();
  const end = (await restored!.finished()).state;
  expect(end).toMatchObject({ status: 'failed', error: { code: 'InvalidRequest' } });
  expect(end.status === 'failed' ? end.error.message : '').toMatch(/only once it is emptied whole/);
  expect(resolved).toBe(0);
  await engine.close();
});
