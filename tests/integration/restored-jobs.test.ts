// Jobs brought back after the host restarts keep the state and counts they had: a failed job is
// still failed with its counts, its error and its failed items (and Retry failed items still asks
// for another answer where the same one would fail them again); one the user paused is still paused
// at the count it stopped at. Each runs when told, over its journal. Through the web host's own
// runtime (createRuntime, as `npm run serve` builds it), stopped and started on one data folder.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { createRuntime } from '../../main/service/runtime.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import type { JobSummary } from '../../src/jobs.ts';
import { isFinished } from '../../src/jobs.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
let dataDir: string;
let downloadRoot: string;
let service: BargeService | undefined;

beforeEach(async () => {
  t = await setUpEngine();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'barge-restored-'));
  downloadRoot = path.join(dataDir, 'downloads');
  await mkdir(downloadRoot);
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The web host's service over the data folder, as `npm run serve` starts it (one at a time). */
async function startHost(): Promise<BargeService> {
  const s3 = inject('s3');
  const env = {
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_ENDPOINT_URL: s3.endpoint,
    AWS_REGION: s3.region,
  };
  service = await createRuntime({
    host: 'web',
    dataDir,
    env,
    warn: () => undefined,
    downloadRoot,
    defaultIfExists: 'fail',
    settings: { threads: 2 },
  });
  return service;
}

async function stopHost(): Promise<void> {
  await service?.close();
  service = undefined;
}

async function call<T>(method: string, params: unknown): Promise<T> {
  const answer = await service!.dispatch(method, params);
  if (!answer.ok) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  return answer.value as T;
}

async function job(id: string): Promise<JobSummary> {
  const found = (await call<JobSummary[]>('jobs.snapshot', {})).find((j) => j.id === id);
  if (!found) throw new Error(`job ${id} is not listed`);
  return found;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let waited = 0; waited < 60_000; waited += 25) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('waited a minute');
}

/** What a row shows of a job: its state and every count, without the rates of a moment. */
function shown(summary: JobSummary) {
  const { bytesPerSecond: _rate, etaSeconds: _eta, waitingForStore: _waiting, ...counts } = summary.progress;
  return {
    state: summary.state,
    counts,
    startedAt: summary.startedAt,
    endedAt: summary.endedAt,
    name: summary.name,
    createdAt: summary.createdAt,
  };
}

it('a download that failed before the host stopped comes back failed, with its counts, error and failed item; Retry then finishes it', async () => {
  for (const key of ['a.txt', 'b.txt', 'c.txt'])
    await t.connection.client.send(
      new PutObjectCommand({ Bucket: t.bucket, Key: `in/${key}`, Body: `content of ${key}` }),
    );
  // A file already there: the web host fails it rather than replace it.
  await writeFile(path.join(downloadRoot, 'b.txt'), 'mine');
  await startHost();
  const started = await call<JobSummary>('jobs.download', {
    connectionId: 'env',
    bucket: t.bucket,
    keys: ['in/a.txt', 'in/b.txt', 'in/c.txt'],
    targetFolder: downloadRoot,
  });
  const failed = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(failed.state.status).toBe('failed');
  expect(failed.progress).toMatchObject({ objectsDone: 2, objectsFailed: 1, objectsTotal: 3 });
  const errors = await call<{ items: unknown[] }>('jobs.items', { id: started.id, list: 'errors' });
  expect(errors.items).toHaveLength(1);

  await stopHost();
  await startHost();
  const restored = await job(started.id);
  expect(shown(restored)).toEqual(shown(failed));
  expect(await call('jobs.items', { id: started.id, list: 'errors' })).toEqual(errors);
  const details = await call<{ items: { source: string; state: string; code?: string }[] }>('jobs.details', {
    id: started.id,
    filter: 'failed',
  });
  expect(details.items).toEqual([
    expect.objectContaining({ state: 'failed', code: 'FileExists', source: expect.stringContaining('b.txt') }),
  ]);

  // Its failed item still knows the same answer would fail it again: Retry failed items asks for another.
  await expect(call('jobs.retryFailed', { id: started.id })).rejects.toMatchObject({ code: 'ChoiceNeeded' });

  // Retried, it runs over its journal: what was done stays done, and the file moved aside is fetched.
  await rm(path.join(downloadRoot, 'b.txt'));
  await call('jobs.retry', { id: started.id });
  const end = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(end.state).toEqual({ status: 'completed' });
  expect(end.progress).toMatchObject({ objectsDone: 3, objectsFailed: 0, objectsTotal: 3 });
});

it('a download the user paused comes back paused at the count it stopped at, and Resume finishes it', async () => {
  const KEYS = 200;
  await Promise.all(
    Array.from({ length: KEYS }, (_, i) =>
      t.connection.client.send(
        new PutObjectCommand({ Bucket: t.bucket, Key: `many/k${String(i).padStart(4, '0')}`, Body: `object ${i}` }),
      ),
    ),
  );
  await startHost();
  const started = await call<JobSummary>('jobs.download', {
    connectionId: 'env',
    bucket: t.bucket,
    keys: [],
    prefixes: ['many/'],
    targetFolder: downloadRoot,
  });
  await until(
    () => job(started.id),
    (j) => j.progress.objectsDone >= 20,
  );
  await call('jobs.pause', { id: started.id });
  // Paused: once the requests in flight have ended, and the objects they carried are saved under
  // their names and recorded (after the request), its numbers stand still: 20 looks alike in a row.
  await until(
    () => call<{ activeRequests: number }>('engine.stats', {}),
    (stats) => stats.activeRequests === 0,
  );
  let last = -1;
  let alike = 0;
  const paused = await until(
    () => job(started.id),
    (j) => {
      alike = j.progress.objectsDone === last ? alike + 1 : 0;
      last = j.progress.objectsDone;
      return alike >= 20;
    },
  );
  expect(paused.state.status).toBe('paused');
  expect(paused.progress.objectsDone).toBeGreaterThanOrEqual(20);
  expect(paused.progress.objectsDone).toBeLessThan(KEYS);

  await stopHost();
  await startHost();
  const restored = await job(started.id);
  expect(shown(restored)).toEqual(shown(paused));

  await call('jobs.resume', { id: started.id });
  const end = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(end.state).toEqual({ status: 'completed' });
  expect(end.progress).toMatchObject({ objectsDone: KEYS, objectsFailed: 0, objectsTotal: KEYS });
});

it('a paused job brought back and cancelled before it runs again ends cancelled, and is cleared', async () => {
  await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: `p/k${i}`, Body: 'x' })),
    ),
  );
  await startHost();
  const started = await call<JobSummary>('jobs.download', {
    connectionId: 'env',
    bucket: t.bucket,
    keys: [],
    prefixes: ['p/'],
    targetFolder: downloadRoot,
  });
  await call('jobs.pause', { id: started.id });
  await until(
    () => call<{ activeRequests: number }>('engine.stats', {}),
    (stats) => stats.activeRequests === 0,
  );
  await stopHost();
  await startHost();
  expect((await job(started.id)).state.status).toBe('paused');
  await call('jobs.cancel', { id: started.id });
  const cancelled = await job(started.id);
  expect(cancelled.state.status).toBe('cancelled');
  expect(cancelled.endedAt).toBeDefined();
  expect((await call<JobSummary[]>('jobs.clearFinished', {})).map((j) => j.id)).not.toContain(started.id);
  // Gone from the journal too: the next start does not bring it back.
  await stopHost();
  await startHost();
  expect((await call<JobSummary[]>('jobs.snapshot', {})).map((j) => j.id)).not.toContain(started.id);
});

it('a download brought back failed for a file already there asks for another answer on Retry failed items, and uses the one given', async () => {
  for (const key of ['a.txt', 'b.txt'])
    await t.connection.client.send(
      new PutObjectCommand({ Bucket: t.bucket, Key: `in/${key}`, Body: `content of ${key}` }),
    );
  // A file already there: the web host fails it rather than replace it.
  await writeFile(path.join(downloadRoot, 'b.txt'), 'mine');
  await startHost();
  const started = await call<JobSummary>('jobs.download', {
    connectionId: 'env',
    bucket: t.bucket,
    keys: ['in/a.txt', 'in/b.txt'],
    targetFolder: downloadRoot,
  });
  expect(
    (
      await until(
        () => job(started.id),
        (j) => isFinished(j.state),
      )
    ).state.status,
  ).toBe('failed');
  // Before a restart, the same answer is refused: it would fail the same way.
  await expect(call('jobs.retryFailed', { id: started.id })).rejects.toMatchObject({ code: 'ChoiceNeeded' });

  await stopHost();
  await startHost();
  await expect(call('jobs.retryFailed', { id: started.id })).rejects.toMatchObject({ code: 'ChoiceNeeded' });
  await call('jobs.retryFailed', { id: started.id, ifExists: 'overwrite' });
  const end = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(end.state).toEqual({ status: 'completed' });
  expect(await readFile(path.join(downloadRoot, 'b.txt'), 'utf8')).toBe('content of b.txt');
});
