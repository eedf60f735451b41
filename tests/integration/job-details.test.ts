// A job's details over the contract, on a real store: its items one by one, the failed ones with
// why, as CSV, and a retry of exactly those, for uploads, downloads and deletes.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, PutObjectCommand, PutObjectLegalHoldCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import type { MethodName, MethodParams, MethodResults } from '../../src/contract/api.ts';
import type { JobItem, JobSummary } from '../../src/jobs.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

let engine: Engine;
let service: BargeService;
let s3: S3Connection;
let connectionId: string;
let dir: string;
const bucket = uniqueBucket();

/** Call the service as a host does; the value, or a throw with the refusal's code. */
async function call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> {
  const result = await service.dispatch(method, params);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value as MethodResults[M];
}

async function ended(job: JobSummary): Promise<JobSummary> {
  return (await engine.job(job.id)!.finished());
}

/** Every item of the job, sorted by source (items end in any order). */
async function items(id: string, filter: 'all' | 'failed' = 'all'): Promise<JobItem[]> {
  const page = await call('jobs.details', { id, filter, limit: 1000 });
  return [...page.items].sort((a, b) => a.source.localeCompare(b.source));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-job-details-'));
  engine = new Engine({ env: {} });
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  const registry = new ConnectionRegistry({ dataDir: dir, engine, secrets: new FileSecretStore(path.join(dir, 'secrets.json')), env: {} });
  service = createBargeService({ engine, registry, host: 'electron', downloadFolder: dir });
  const config = serverConfig();
  connectionId = (await call('connections.add', {
    name: 'Test store', endpoint: config.endpoint, region: config.region, pathStyle: true, accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey,
  })).id;
});

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

it('an upload lists each file, source to destination; the one that failed says why, in CSV too; Retry failed items sends only it', async () => {
  const ok = path.join(dir, 'ok.txt');
  const later = path.join(dir, 'later.txt');
  await writeFile(ok, 'ok');
  const first = await ended(await call('jobs.upload', { connectionId, bucket, prefix: 'up/', paths: [ok, later] }));
  expect(first.state.status).toBe('failed');
  expect(await items(first.id)).toEqual([
    { source: later, destination: `s3://${bucket}/up/later.txt`, state: 'failed', code: 'ENOENT', message: `Cannot read ${later}: No such file or folder.` },
    { source: ok, destination: `s3://${bucket}/up/ok.txt`, size: 2, state: 'done' },
  ]);
  expect(await call('jobs.details', { id: first.id, filter: 'failed' })).toEqual({
    items: [expect.objectContaining({ source: later, state: 'failed' })], total: 1, unlisted: 0,
  });
  const csv = await call('jobs.detailsCsv', { id: first.id, filter: 'failed' });
  expect(csv.fileName).toBe(`barge-errors-upload-${first.id.slice(0, 8)}.csv`);
  expect(csv.text).toBe(`source,destination,size,state,code,message\n${later},s3://${bucket}/up/later.txt,,failed,ENOENT,Cannot read ${later}: No such file or folder.\n`);

  // Only a job that ended with failures has failed items to retry.
  const done = await ended(await call('jobs.upload', { connectionId, bucket, prefix: 'up2/', paths: [ok] }));
  await expect(call('jobs.retryFailed', { id: done.id })).rejects.toMatchObject({ code: 'NothingToRetry' });

  await writeFile(later, 'now it exists');
  await call('jobs.retryFailed', { id: first.id });
  const second = await ended(first);
  expect(second.state.status).toBe('completed');
  expect(second.progress).toMatchObject({ objectsDone: 2, objectsFailed: 0, objectsTotal: 2 });
  // The line of the failed file now says it is done: one line per item.
  expect(await items(first.id)).toEqual([
    { source: later, destination: `s3://${bucket}/up/later.txt`, size: 13, state: 'done' },
    { source: ok, destination: `s3://${bucket}/up/ok.txt`, size: 2, state: 'done' },
  ]);
  expect((await call('jobs.details', { id: first.id, filter: 'failed' })).total).toBe(0);
});

it('a download of an object gone since it was listed fails it alone; once it is back, Retry failed items saves it', async () => {
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'down/here.txt', Body: 'here' }));
  const target = path.join(dir, 'downloads');
  const first = await ended(await call('jobs.download', { connectionId, bucket, keys: ['down/here.txt', 'down/gone.txt'], targetFolder: target }));
  expect(first.state.status).toBe('failed');
  expect(await items(first.id)).toEqual([
    { source: `s3://${bucket}/down/gone.txt`, destination: path.join(target, 'gone.txt'), state: 'failed', code: 'NoSuchKey', message: expect.stringContaining('does not exist') as string },
    { source: `s3://${bucket}/down/here.txt`, destination: path.join(target, 'here.txt'), size: 4, state: 'done' },
  ]);
  // The receipt names the failure with its key and where it was to be saved.
  const receipt = await call('jobs.receipt', { id: first.id, format: 'csv' });
  expect(receipt.text.split('\n').find((line) => line.startsWith('down/gone.txt,'))).toMatch(new RegExp(`^down/gone\\.txt,${path.join(target, 'gone.txt').replaceAll('/', '\\/')},0,.*,failed,NoSuchKey: `));

  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'down/gone.txt', Body: 'back again' }));
  await call('jobs.retryFailed', { id: first.id });
  expect((await ended(first)).state.status).toBe('completed');
  expect(await readFile(path.join(target, 'gone.txt'), 'utf8')).toBe('back again');
  expect((await items(first.id)).map((item) => item.state)).toEqual(['done', 'done']);
});

it('a delete refused for objects under a legal hold lists them failed; with the holds lifted, Retry failed items deletes exactly those', async () => {
  const locked = uniqueBucket();
  await s3.client.send(new CreateBucketCommand({ Bucket: locked, ObjectLockEnabledForBucket: true }));
  for (const Key of ['p/held.txt', 'p/free.txt']) await s3.client.send(new PutObjectCommand({ Bucket: locked, Key, Body: Key }));
  await s3.client.send(new PutObjectLegalHoldCommand({ Bucket: locked, Key: 'p/held.txt', LegalHold: { Status: 'ON' } }));
  const first = await ended(await call('jobs.delete', { connectionId, bucket: locked, prefixes: ['p/'], allVersions: true }));
  expect(first.state.status).toBe('failed');
  const [free, held] = await items(first.id);
  expect(free).toMatchObject({ source: expect.stringMatching(new RegExp(`^s3://${locked}/p/free\\.txt \\(version .+\\)$`)) as string, destination: '', size: 10, state: 'done' });
  expect(held).toMatchObject({ source: expect.stringMatching(new RegExp(`^s3://${locked}/p/held\\.txt \\(version .+\\)$`)) as string, state: 'failed', code: 'ObjectLocked' });

  await s3.client.send(new PutObjectLegalHoldCommand({ Bucket: locked, Key: 'p/held.txt', LegalHold: { Status: 'OFF' } }));
  await call('jobs.retryFailed', { id: first.id });
  const second = await ended(first);
  expect(second.state.status).toBe('completed');
  expect(second.progress).toMatchObject({ objectsDone: 2, objectsFailed: 0 });
  const left = [];
  for await (const object of listAllObjects(s3, { bucket: locked })) left.push(object.key);
  expect(left).toEqual([]);
  expect((await items(first.id)).map((item) => item.state)).toEqual(['done', 'done']);
});

it('a job that failed as a whole has no failed items to retry one by one; details of a job not in the list, and pages too large, are refused', async () => {
  const whole = await ended(await call('jobs.download', { connectionId, bucket: uniqueBucket(), prefixes: ['x/'], targetFolder: path.join(dir, 'nowhere') }));
  expect(whole.state.status).toBe('failed');
  await expect(call('jobs.retryFailed', { id: whole.id })).rejects.toMatchObject({ code: 'FailedWhole' });
  await expect(call('jobs.details', { id: 'no-such-job' })).rejects.toMatchObject({ code: 'NoSuchJob' });
  await expect(call('jobs.detailsCsv', { id: 'no-such-job', filter: 'all' })).rejects.toMatchObject({ code: 'NoSuchJob' });
  await expect(call('jobs.details', { id: whole.id, limit: 100_000 })).rejects.toMatchObject({ code: 'InvalidRequest' });
});

it('the command line says how to retry what failed: the same command again, which goes on from its run', async () => {
  const ok = path.join(dir, 'cli-ok.txt');
  const later = path.join(dir, 'cli-later.txt');
  await writeFile(ok, 'ok');
  const args = ['cp', ok, later, `s3://${bucket}/cli/`];
  const first = await runCli(args);
  expect(first.code).toBe(1);
  expect(first.stderr).toContain(`error: Cannot read ${later}: No such file or folder.\n`);
  expect(first.stderr).toContain('To retry the 1 item that failed, run the same command again: what was done is skipped.\n');
  await writeFile(later, 'now it exists');
  const second = await runCli(args);
  expect(second.code).toBe(0);
  expect(second.stderr).toContain('Retrying the failures of the run of this command');
  expect(second.stderr).toMatch(/Uploaded 2 of 2 objects/);
  expect(second.stderr).not.toContain('To retry');
  const keys = [];
  for await (const object of listAllObjects(s3, { bucket, prefix: 'cli/' })) keys.push(object.key);
  expect(keys.sort()).toEqual(['cli/cli-later.txt', 'cli/cli-ok.txt']);
});
