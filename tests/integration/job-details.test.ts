// A job's details over the contract, on a real store: its items one by one, the failed ones with
// why, as CSV, and a retry of exactly those, for uploads, downloads and deletes.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, PutObjectLegalHoldCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { StagingArea } from '../../main/service/staging-area.ts';
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
  return await engine.job(job.id)!.finished();
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
  const registry = new ConnectionRegistry({
    dataDir: dir,
    engine,
    secrets: new FileSecretStore(path.join(dir, 'secrets.json')),
    env: {},
  });
  service = createBargeService({ engine, registry, host: 'electron', downloadFolder: dir });
  const config = serverConfig();
  connectionId = (
    await call('connections.add', {
      name: 'Test store',
      endpoint: config.endpoint,
      region: config.region,
      pathStyle: true,
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
    })
  ).id;
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
    {
      source: later,
      destination: `s3://${bucket}/up/later.txt`,
      state: 'failed',
      code: 'ENOENT',
      message: `Cannot read ${later}: No such file or folder.`,
    },
    { source: ok, destination: `s3://${bucket}/up/ok.txt`, size: 2, state: 'done' },
  ]);
  expect(await call('jobs.details', { id: first.id, filter: 'failed' })).toEqual({
    items: [expect.objectContaining({ source: later, state: 'failed' })],
    total: 1,
    unlisted: 0,
  });
  const csv = await call('jobs.detailsCsv', { id: first.id, filter: 'failed' });
  expect(csv.fileName).toBe(`barge-errors-upload-${first.id.slice(0, 8)}.csv`);
  expect(csv.text).toBe(
    `source,destination,size,state,code,message\n${later},s3://${bucket}/up/later.txt,,failed,ENOENT,Cannot read ${later}: No such file or folder.\n`,
  );

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
  const first = await ended(
    await call('jobs.download', {
      connectionId,
      bucket,
      keys: ['down/here.txt', 'down/gone.txt'],
      targetFolder: target,
    }),
  );
  expect(first.state.status).toBe('failed');
  expect(await items(first.id)).toEqual([
    {
      source: `s3://${bucket}/down/gone.txt`,
      destination: path.join(target, 'gone.txt'),
      state: 'failed',
      code: 'NoSuchKey',
      message: expect.stringContaining('does not exist') as string,
    },
    { source: `s3://${bucket}/down/here.txt`, destination: path.join(target, 'here.txt'), size: 4, state: 'done' },
  ]);
  // The receipt names the failure with its key and where it was to be saved.
  const receipt = await call('jobs.receipt', { id: first.id, format: 'csv' });
  expect(receipt.text.split('\n').find((line) => line.startsWith('down/gone.txt,'))).toMatch(
    new RegExp(`^down/gone\\.txt,${path.join(target, 'gone.txt').replaceAll('/', '\\/')},0,.*,failed,NoSuchKey: `),
  );

  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'down/gone.txt', Body: 'back again' }));
  await call('jobs.retryFailed', { id: first.id });
  expect((await ended(first)).state.status).toBe('completed');
  expect(await readFile(path.join(target, 'gone.txt'), 'utf8')).toBe('back again');
  expect((await items(first.id)).map((item) => item.state)).toEqual(['done', 'done']);
});

it('a download whose files were already there (answer: fail) is not retried the same way: Retry failed items asks, then keeps both, replaces or skips them', async () => {
  for (const name of ['a.txt', 'b.txt', 'c.txt'])
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: `there/${name}`, Body: `new ${name}` }));
  const target = await mkdtemp(path.join(dir, 'there-'));
  const download = async () =>
    ended(
      await call('jobs.download', {
        connectionId,
        bucket,
        keys: ['there/a.txt', 'there/b.txt', 'there/c.txt'],
        targetFolder: target,
        ifExists: 'fail',
      }),
    );
  for (const name of ['a.txt', 'b.txt']) await writeFile(path.join(target, name), `mine ${name}`);
  const first = await download();
  expect(first.progress).toMatchObject({ objectsDone: 1, objectsFailed: 2 });
  await expect(call('jobs.retryFailed', { id: first.id })).rejects.toMatchObject({
    code: 'ChoiceNeeded',
    message:
      '2 items failed because their files were already there: retried the same way, they would fail again. Choose whether to replace them, keep both, or skip them.',
  });
  await call('jobs.retryFailed', { id: first.id, ifExists: 'rename' });
  expect((await ended(first)).state.status).toBe('completed');
  expect(await readFile(path.join(target, 'a.txt'), 'utf8')).toBe('mine a.txt');
  expect(await readFile(path.join(target, 'a (1).txt'), 'utf8')).toBe('new a.txt');
  expect(await readFile(path.join(target, 'b (1).txt'), 'utf8')).toBe('new b.txt');

  await rm(path.join(target, 'a (1).txt'));
  await rm(path.join(target, 'b (1).txt'));
  const second = await download();
  expect(second.progress.objectsFailed).toBe(3);
  await call('jobs.retryFailed', { id: second.id, ifExists: 'overwrite' });
  expect((await ended(second)).state.status).toBe('completed');
  expect(await readFile(path.join(target, 'a.txt'), 'utf8')).toBe('new a.txt');

  await writeFile(path.join(target, 'a.txt'), 'mine again');
  const third = ended(
    await call('jobs.download', {
      connectionId,
      bucket,
      keys: ['there/a.txt'],
      targetFolder: target,
      ifExists: 'fail',
    }),
  );
  const failedOne = await third;
  await expect(call('jobs.retryFailed', { id: failedOne.id })).rejects.toMatchObject({
    code: 'ChoiceNeeded',
    message:
      '1 item failed because its file was already there: retried the same way, it would fail again. Choose whether to replace it, keep both, or skip it.',
  });
  await call('jobs.retryFailed', { id: failedOne.id, ifExists: 'skip' });
  const skipped = await ended(failedOne);
  expect(skipped).toMatchObject({ state: { status: 'completed' }, progress: { objectsKept: 1 } });
  expect(await readFile(path.join(target, 'a.txt'), 'utf8')).toBe('mine again');
});

it('an upload whose objects were already there (answer: fail) is not retried the same way either: Retry failed items asks, then keeps both', async () => {
  const source = await mkdtemp(path.join(dir, 'up-there-'));
  for (const name of ['a.txt', 'b.txt']) await writeFile(path.join(source, name), `mine ${name}`);
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'up-there/a.txt', Body: 'theirs' }));
  const first = await ended(
    await call('jobs.upload', {
      connectionId,
      bucket,
      prefix: 'up-there/',
      paths: [path.join(source, 'a.txt'), path.join(source, 'b.txt')],
      ifExists: 'fail',
    }),
  );
  expect(first.progress).toMatchObject({ objectsDone: 1, objectsFailed: 1 });
  await expect(call('jobs.retryFailed', { id: first.id })).rejects.toMatchObject({
    code: 'ChoiceNeeded',
    message:
      '1 item failed because its object was already there: retried the same way, it would fail again. Choose whether to replace it, keep both, or skip it.',
  });
  await call('jobs.retryFailed', { id: first.id, ifExists: 'rename' });
  expect((await ended(first)).state.status).toBe('completed');
  const body = async (Key: string) =>
    (await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key }))).Body!.transformToString();
  expect(await body('up-there/a.txt')).toBe('theirs');
  expect(await body('up-there/a (1).txt')).toBe('mine a.txt');
});

it('a delete refused for objects under a legal hold lists them failed; with the holds lifted, Retry failed items deletes exactly those', async () => {
  const locked = uniqueBucket();
  await s3.client.send(new CreateBucketCommand({ Bucket: locked, ObjectLockEnabledForBucket: true }));
  for (const Key of ['p/held.txt', 'p/free.txt'])
    await s3.client.send(new PutObjectCommand({ Bucket: locked, Key, Body: Key }));
  await s3.client.send(
    new PutObjectLegalHoldCommand({ Bucket: locked, Key: 'p/held.txt', LegalHold: { Status: 'ON' } }),
  );
  const first = await ended(
    await call('jobs.delete', { connectionId, bucket: locked, prefixes: ['p/'], allVersions: true }),
  );
  expect(first.state.status).toBe('failed');
  const [free, held] = await items(first.id);
  expect(free).toMatchObject({
    source: expect.stringMatching(new RegExp(`^s3://${locked}/p/free\\.txt \\(version .+\\)$`)) as string,
    destination: '',
    size: 10,
    state: 'done',
  });
  expect(held).toMatchObject({
    source: expect.stringMatching(new RegExp(`^s3://${locked}/p/held\\.txt \\(version .+\\)$`)) as string,
    state: 'failed',
    code: 'ObjectLocked',
  });

  await s3.client.send(
    new PutObjectLegalHoldCommand({ Bucket: locked, Key: 'p/held.txt', LegalHold: { Status: 'OFF' } }),
  );
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
  const whole = await ended(
    await call('jobs.download', {
      connectionId,
      bucket: uniqueBucket(),
      prefixes: ['x/'],
      targetFolder: path.join(dir, 'nowhere'),
    }),
  );
  expect(whole.state.status).toBe('failed');
  await expect(call('jobs.retryFailed', { id: whole.id })).rejects.toMatchObject({ code: 'FailedWhole' });
  await expect(call('jobs.details', { id: 'no-such-job' })).rejects.toMatchObject({ code: 'NoSuchJob' });
  await expect(call('jobs.detailsCsv', { id: 'no-such-job', filter: 'all' })).rejects.toMatchObject({
    code: 'NoSuchJob',
  });
  await expect(call('jobs.details', { id: whole.id, limit: 100_000 })).rejects.toMatchObject({
    code: 'InvalidRequest',
  });

  // A job not yet ended (here paused as it starts) has no failed items to retry yet.
  const folder = await mkdtemp(path.join(dir, 'paused-'));
  for (let n = 0; n < 200; n++) await writeFile(path.join(folder, `f${n}.txt`), String(n));
  const paused = await call('jobs.upload', { connectionId, bucket, prefix: 'paused/', paths: [folder] });
  await call('jobs.pause', { id: paused.id });
  await expect(call('jobs.retryFailed', { id: paused.id })).rejects.toMatchObject({ code: 'JobNotFinished' });
  await call('jobs.cancel', { id: paused.id });
  expect((await ended(paused)).state.status).toBe('cancelled');
  await expect(call('jobs.retryFailed', { id: paused.id })).rejects.toMatchObject({ code: 'NothingToRetry' });
});

it('the command line does not advise the same command again after a job that failed as a whole', async () => {
  const file = path.join(dir, 'cli-nowhere.txt');
  await writeFile(file, 'x');
  const nowhere = await runCli(['cp', file, `s3://${uniqueBucket()}/cli/`]);
  expect(nowhere.code).toBe(1);
  expect(nowhere.stderr).toContain('The bucket does not exist');
  expect(nowhere.stderr).not.toContain('run the same command again');
});

it('the command line says how to retry what failed: the same command again, which goes on from its run', async () => {
  const ok = path.join(dir, 'cli-ok.txt');
  const later = path.join(dir, 'cli-later.txt');
  await writeFile(ok, 'ok');
  const args = ['cp', ok, later, `s3://${bucket}/cli/`];
  const first = await runCli(args);
  expect(first.code).toBe(1);
  expect(first.stderr).toContain(`error: Cannot read ${later}: No such file or folder.\n`);
  expect(first.stderr).toContain(
    'To retry the 1 item that failed, run the same command again: what was done is skipped.\n',
  );
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

it('a job of 12,000 items pages to its last, its list kept on disk past the first 10,000', async () => {
  // Keys that are not there: deleting them succeeds (as S3 says), 1,000 a request.
  const keys = Array.from({ length: 12_000 }, (_, n) => `many/k${String(n).padStart(5, '0')}`);
  const job = await ended(await call('jobs.delete', { connectionId, bucket, keys }));
  expect(job.state.status).toBe('completed');
  const last = await call('jobs.details', { id: job.id, offset: 11_990, limit: 1000 });
  expect(last.total).toBe(12_000);
  expect(last.items).toHaveLength(10);
  expect(
    last.items.every(
      (item) => item.state === 'done' && item.destination === '' && item.source.startsWith(`s3://${bucket}/many/k`),
    ),
  ).toBe(true);
  const sources = new Set<string>();
  for (let offset = 0; offset < 12_000; offset += 1000) {
    for (const item of (await call('jobs.details', { id: job.id, offset, limit: 1000 })).items)
      sources.add(item.source);
  }
  expect(sources.size).toBe(12_000);
  expect(await call('jobs.details', { id: job.id, filter: 'failed' })).toEqual({ items: [], total: 0, unlisted: 0 });
  // The CSV comes a page at a time (the header with the first), each page where the last ended.
  const pages: string[] = [];
  let offset: number | undefined = 0;
  const starts: number[] = [];
  while (offset !== undefined) {
    starts.push(offset);
    const page: { text: string; next?: number } = await call('jobs.detailsCsv', {
      id: job.id,
      filter: 'all',
      offset,
      limit: 5000,
    });
    pages.push(page.text);
    offset = page.next;
  }
  expect(starts).toEqual([0, 5000, 10_000]);
  const lines = pages.join('').trimEnd().split('\n');
  expect(lines[0]).toMatch(/^source,destination,/);
  expect(lines.filter((line) => line.startsWith('source,'))).toHaveLength(1);
  expect(new Set(lines.slice(1).map((line) => line.split(',')[0]))).toEqual(sources);
});

it("a staged upload (a browser's files) names its items as they were dropped, not by the host's staging folder", async () => {
  // A web host's service, as serve.ts builds it: files staged, no local paths.
  const folder = await mkdtemp(path.join(dir, 'web-'));
  const staging = await StagingArea.open({ root: path.join(folder, 'staging') });
  const webEngine = new Engine({ env: {} });
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine: webEngine,
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env: {},
  });
  const web = createBargeService({ engine: webEngine, registry, host: 'web', staging, pageCallers: true });
  try {
    const dispatch = async <M extends MethodName>(method: M, params: MethodParams<M>) => {
      const result = await web.dispatch(method, params);
      if (!result.ok) throw new Error(result.error.message);
      return result.value as MethodResults[M];
    };
    const config = serverConfig();
    const store = await dispatch('connections.add', {
      name: 'Test store',
      endpoint: config.endpoint,
      region: config.region,
      pathStyle: true,
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
    });
    const { stagingId } = await dispatch('uploads.stage', {});
    const target = await web.stagedFile(stagingId, 'photos/a.txt');
    if (!target.ok) throw new Error(target.error.message);
    await writeFile(target.value.file, 'a');
    // "notes.txt" is named but was never sent: it fails, by its name.
    const started = await dispatch('jobs.upload', {
      connectionId: store.id,
      bucket,
      prefix: 'staged/',
      staged: { stagingId, entries: ['photos', 'notes.txt'] },
    });
    const job = await webEngine.job(started.id)!.finished();
    expect(job.state.status).toBe('failed');
    const listed = [...(await dispatch('jobs.details', { id: job.id })).items].sort((a, b) =>
      a.source.localeCompare(b.source),
    );
    expect(listed).toEqual([
      {
        source: 'notes.txt',
        destination: `s3://${bucket}/staged/notes.txt`,
        state: 'failed',
        code: 'ENOENT',
        message: 'Cannot read notes.txt: No such file or folder.',
      },
      {
        source: path.join('photos', 'a.txt'),
        destination: `s3://${bucket}/staged/photos/a.txt`,
        size: 1,
        state: 'done',
      },
    ]);
    const csv = await dispatch('jobs.detailsCsv', { id: job.id, filter: 'failed' });
    expect(csv.text).not.toContain(path.join(folder, 'staging'));
    expect(csv.text).toContain('\nnotes.txt,');
  } finally {
    await web.close();
  }
});

it("a staged upload's job says why it failed by the names dropped, on its row as in its details: never the host's staging folder", async () => {
  const folder = await mkdtemp(path.join(dir, 'web-'));
  const stagingRoot = path.join(folder, 'staging');
  const staging = await StagingArea.open({ root: stagingRoot });
  const webEngine = new Engine({ env: {} });
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine: webEngine,
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env: {},
  });
  const web = createBargeService({ engine: webEngine, registry, host: 'web', staging, pageCallers: true });
  const heard: string[] = [];
  const stop = web.subscribe((event) => {
    if (event.type !== 'stats') heard.push(JSON.stringify(event));
  });
  try {
    const dispatch = async <M extends MethodName>(method: M, params: MethodParams<M>) => {
      const result = await web.dispatch(method, params);
      if (!result.ok) throw new Error(result.error.message);
      return result.value as MethodResults[M];
    };
    const config = serverConfig();
    const store = await dispatch('connections.add', {
      name: 'Test store',
      endpoint: config.endpoint,
      region: config.region,
      pathStyle: true,
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
    });
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'staged-row/photos/a.txt', Body: 'there' }));
    const { stagingId } = await dispatch('uploads.stage', {});
    const target = await web.stagedFile(stagingId, 'photos/a.txt');
    if (!target.ok) throw new Error(target.error.message);
    await writeFile(target.value.file, 'a');
    const started = await dispatch('jobs.upload', {
      connectionId: store.id,
      bucket,
      prefix: 'staged-row/',
      staged: { stagingId, entries: ['photos'] },
      ifExists: 'fail',
    });
    const job = await webEngine.job(started.id)!.finished();
    expect(job.state.status).toBe('failed');
    const [row] = (await dispatch('jobs.snapshot', {})).filter((j) => j.id === job.id);
    const errors = await dispatch('jobs.items', { id: job.id, list: 'errors', offset: 0, limit: 10 });
    const said = [JSON.stringify(row), JSON.stringify(errors), ...heard];
    expect(said.filter((text) => text.includes(stagingRoot))).toEqual([]);
    expect(row!.state.status === 'failed' && row!.state.error.message).toContain(
      `; ${path.join('photos', 'a.txt')} was not uploaded over it`,
    );
  } finally {
    stop();
    await web.close();
  }
});
