// A browser's upload names its files as they were dropped ("a.txt"), wherever the user reads about
// them: its receipt and its error line. The host's staging folder (a temporary path with its
// process id) means nothing to the person at the browser, and is the host's own business.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { StagingArea } from '../../main/service/staging-area.ts';
import type { JobSummary } from '../../src/jobs.ts';
import { isFinished } from '../../src/jobs.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
let folder: string;
let stagingRoot: string;
let service: BargeService;

beforeAll(async () => {
  t = await setUpEngine();
  const s3 = inject('s3');
  const env = {
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_ENDPOINT_URL: s3.endpoint,
    AWS_REGION: s3.region,
  };
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-dropped-names-'));
  stagingRoot = path.join(folder, 'staging');
  const engine = new Engine({ env });
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine,
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env,
  });
  service = createBargeService({
    engine,
    registry,
    host: 'web',
    staging: await StagingArea.open({ root: stagingRoot }),
    pageCallers: true,
    restoreJobs: false,
  });
});

afterAll(async () => {
  await service.close();
  await t.close();
  await rm(folder, { recursive: true, force: true });
});

async function call<T>(method: string, params: unknown): Promise<T> {
  const answer = await service.dispatch(method as never, params);
  if (!answer.ok) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  return answer.value as T;
}

/** "a.txt" dropped onto "names/", where an object of that name is already there, with --if-exists fail's answer. */
async function failedUpload(): Promise<JobSummary> {
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'names/a.txt', Body: 'already there' }));
  const { stagingId } = await call<{ stagingId: string }>('uploads.stage', {});
  const target = await service.stagedFile(stagingId, 'a.txt');
  if (!target.ok) throw new Error(target.error.message);
  await writeFile(target.value.file, 'mine');
  target.value.ended();
  const started = await call<JobSummary>('jobs.upload', {
    connectionId: 'env',
    bucket: t.bucket,
    prefix: 'names/',
    staged: { stagingId, entries: ['a.txt'] },
    ifExists: 'fail',
  });
  for (;;) {
    const job = (await call<JobSummary[]>('jobs.snapshot', {})).find((j) => j.id === started.id)!;
    if (isFinished(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it("a failed browser upload's receipt names its file as dropped, in its error column too, never the host's staging folder", async () => {
  const job = await failedUpload();
  const { text } = await call<{ text: string }>('jobs.receipt', { id: job.id, format: 'csv' });
  expect(text).toContain('ObjectExists');
  expect(text).toContain('; a.txt was not uploaded over it');
  expect(text).not.toContain(stagingRoot);
});

it("a failed browser upload's error line names its file as dropped, never the host's staging folder", async () => {
  const job = await failedUpload();
  expect(job.state).toMatchObject({
    status: 'failed',
    error: { code: 'ObjectExists', message: expect.stringContaining('; a.txt was not uploaded over it') },
  });
  expect(JSON.stringify(job)).not.toContain(stagingRoot);
});

it("a browser upload's warning for an object kept names its file as dropped, never the host's staging folder", async () => {
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'kept/a.txt', Body: 'already there' }));
  const { stagingId } = await call<{ stagingId: string }>('uploads.stage', {});
  const target = await service.stagedFile(stagingId, 'a.txt');
  if (!target.ok) throw new Error(target.error.message);
  await writeFile(target.value.file, 'mine');
  target.value.ended();
  const started = await call<JobSummary>('jobs.upload', {
    connectionId: 'env',
    bucket: t.bucket,
    prefix: 'kept/',
    staged: { stagingId, entries: ['a.txt'] },
    ifExists: 'skip',
  });
  let job: JobSummary;
  do {
    await new Promise((resolve) => setTimeout(resolve, 20));
    job = (await call<JobSummary[]>('jobs.snapshot', {})).find((j) => j.id === started.id)!;
  } while (!isFinished(job.state));
  const warnings = await call<{ items: { message: string }[] }>('jobs.items', { id: started.id, list: 'warnings' });
  expect(warnings.items).toEqual([
    expect.objectContaining({ message: expect.stringContaining('; a.txt was not uploaded.') }),
  ]);
  expect(JSON.stringify(warnings)).not.toContain(stagingRoot);
});
