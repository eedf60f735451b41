// Retry failed items on a job brought back after a restart: items that failed because their file
// was already there would fail the same way again, so the retry asks for another answer, as it does
// before a restart (ChoiceNeeded), and the answer given is the one used. Through the web host's own
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
  const env = { AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_REGION: s3.region };
  service = await createRuntime({ host: 'web', dataDir, env, warn: () => undefined, downloadRoot, defaultIfExists: 'fail', settings: { threads: 2 } });
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


it('a download brought back failed for a file already there asks for another answer on Retry failed items, and uses the one given', async () => {
  for (const key of ['a.txt', 'b.txt']) await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: `in/${key}`, Body: `content of ${key}` }));
  // A file already there: the web host fails it rather than replace it.
  await writeFile(path.join(downloadRoot, 'b.txt'), 'mine');
  await startHost();
  const started = await call<JobSummary>('jobs.download', { connectionId: 'env', bucket: t.bucket, keys: ['in/a.txt', 'in/b.txt'], targetFolder: downloadRoot });
  expect((await until(() => job(started.id), (j) => isFinished(j.state))).state.status).toBe('failed');
  // Before a restart, the same answer is refused: it would fail the same way.
  await expect(call('jobs.retryFailed', { id: started.id })).rejects.toMatchObject({ code: 'ChoiceNeeded' });

  await stopHost();
  await startHost();
  await expect(call('jobs.retryFailed', { id: started.id })).rejects.toMatchObject({ code: 'ChoiceNeeded' });
  await call('jobs.retryFailed', { id: started.id, ifExists: 'overwrite' });
  const end = await until(() => job(started.id), (j) => isFinished(j.state));
  expect(end.state).toEqual({ status: 'completed' });
  expect(await readFile(path.join(downloadRoot, 'b.txt'), 'utf8')).toBe('content of b.txt');
});
