// What the engine tells of its jobs: numbers ten times a second, a job when it appears, and each
// item error once, as it happens; the whole list is paged on request.

import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { Engine } from '../../../../main/engine/engine.ts';
import type { EngineEvent } from '../../../../main/engine/engine.ts';

it('progress carries numbers only; item errors go out once each; the list is paged', async () => {
  const engine = new Engine();
  const events: EngineEvent[] = [];
  engine.onEvent((event) => events.push(event));
  const connection = await engine.connect({
    endpoint: 'http://127.0.0.1:9',
    region: 'us-east-1',
    accessKeyId: 'a',
    secretAccessKey: 'b',
  });
  const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-events-'));
  // Three sources that are not there: three item errors, no request sent.
  const missing = ['one', 'two', 'three'].map((name) => path.join(folder, name));
  const job = engine.upload(connection, { sources: missing, bucket: 'b', destination: '' });
  const end = await job.finished();
  expect(end.state.status).toBe('failed');
  const progress = events.flatMap((event) => (event.type === 'jobs' ? event.jobs : []));
  expect(progress.length).toBeGreaterThan(0);
  // Numbers only: the run's start and end are times in milliseconds.
  for (const update of progress)
    expect(['endedAt', 'id', 'progress', 'startedAt', 'state']).toEqual(expect.arrayContaining(Object.keys(update)));
  expect(progress.at(-1)!.endedAt).toBeGreaterThanOrEqual(progress.at(-1)!.startedAt!);
  expect(progress.at(-1)!.state.status).toBe('failed');
  const sent = events.flatMap((event) => (event.type === 'job-items' ? event.errors : []));
  expect(sent.map((error) => error.item).sort()).toEqual([...missing].sort());
  const announced = events.filter((event) => event.type === 'job');
  expect(announced).toHaveLength(1);
  expect(announced[0]).toMatchObject({ job: { id: job.id, kind: 'upload' } });
  expect(job.items('errors', 1, 1)).toEqual({ items: [end.itemErrors[1]], total: 3 });
  await engine.close();
});
