// A browser's upload through the web host is a job from its first byte: the window starts it,
// saying what is coming, then sends the files; the job shows them arriving (files, bytes, rate) as
// its first phase, its time counts from then, Cancel stops them, and a browser that goes away fails
// it in words. In each case the files that came are removed. Calls go through the service, bytes
// through the web host's data channel, as the window sends them.

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Engine } from '../../main/engine/engine.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { StagingArea } from '../../main/service/staging-area.ts';
import { startWebHost } from '../../main/web-host/web-host.ts';
import type { WebHost } from '../../main/web-host/web-host.ts';
import { Journal } from '../../main/engine/journal/journal.ts';
import type { HistoryEntry } from '../../src/history.ts';
import { stagedFileUrl } from '../../src/contract/api.ts';
import type { JobSummary } from '../../src/jobs.ts';
import { isFinished } from '../../src/jobs.ts';
import { MIB } from '../../src/byte-units.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

const TOKEN = 'arrival-token-abcdefghijklmnop';
/** How long the host waits for a browser's next file here (a minute in use). */
const PATIENCE_MS = 400;

let t: TestContext;
let folder: string;
let stagingRoot: string;
let service: BargeService;
let host: WebHost;
let journal: Journal;

beforeAll(async () => {
  t = await setUpEngine();
  const s3 = inject('s3');
  const env = {
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_ENDPOINT_URL: s3.endpoint,
    AWS_REGION: s3.region,
  };
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-arrival-'));
  stagingRoot = path.join(folder, 'staging');
  const staticDir = path.join(folder, 'static');
  await mkdir(staticDir);
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Barge</title>');
  // Journaled as the web host is: a browser's upload is kept in the history, never resumed.
  journal = await Journal.open(path.join(folder, 'journal.sqlite'));
  const engine = new Engine({ env, journal, host: 'web' });
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine,
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env,
  });
  const staging = await StagingArea.open({ root: stagingRoot, receivePatienceMs: PATIENCE_MS });
  service = createBargeService({ engine, registry, host: 'web', staging, pageCallers: true, restoreJobs: false });
  host = await startWebHost({ service, token: TOKEN, staticDir });
});

afterAll(async () => {
  await host.close();
  await service.close();
  await t.close();
  await rm(folder, { recursive: true, force: true });
});

async function call<T>(method: string, params: unknown): Promise<T> {
  const answer = await service.dispatch(method, params);
  if (!answer.ok) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  return answer.value as T;
}

async function job(id: string): Promise<JobSummary> {
  return (await call<JobSummary[]>('jobs.snapshot', {})).find((j) => j.id === id)!;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let waited = 0; waited < 60_000; waited += 20) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('waited a minute');
}

/** A batch, and its job started before any file is sent, as the window starts it. */
async function startUpload(
  entries: string[],
  coming: { files: number; bytes: number; folders?: string[] },
  prefix = 'in/',
): Promise<{ stagingId: string; started: JobSummary }> {
  const { stagingId } = await call<{ stagingId: string }>('uploads.stage', {});
  const started = await call<JobSummary>('jobs.upload', {
    connectionId: 'env',
    bucket: t.bucket,
    prefix,
    staged: { stagingId, entries, arriving: coming },
  });
  return { stagingId, started };
}

/** A PUT of a staged file whose body the test writes piece by piece, as a slow browser sends it. */
function openPut(stagingId: string, relativePath: string, length: number) {
  const request = http.request({
    host: '127.0.0.1',
    port: host.port,
    method: 'PUT',
    path: stagedFileUrl(stagingId, relativePath),
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-length': String(length),
      origin: `http://127.0.0.1:${host.port}`,
      host: `127.0.0.1:${host.port}`,
    },
  });
  const answered = new Promise<{ status: number; body: string } | Error>((resolve) => {
    request.once('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.once('error', resolve);
    });
    request.once('error', resolve);
  });
  return { request, answered };
}

async function putWhole(stagingId: string, relativePath: string, body: Buffer): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${host.port}${stagedFileUrl(stagingId, relativePath)}`, {
    method: 'PUT',
    body: new Uint8Array(body),
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  await response.arrayBuffer();
  return response.status;
}

async function batchGone(stagingId: string): Promise<boolean> {
  await until(
    () => readdir(stagingRoot),
    (names) => !names.includes(stagingId),
  );
  return true;
}

it('a job appears before any byte is sent, receives the files as its first phase (bytes, files, a rate), then uploads them; its time counts from the start', async () => {
  const big = randomBytes(8 * MIB);
  const small = Buffer.from('small file');
  const beforeStart = Date.now();
  const { stagingId, started } = await startUpload(['big.bin', 'notes'], {
    files: 2,
    bytes: big.length + small.length,
    folders: ['notes'],
  });
  expect(started).toMatchObject({
    kind: 'upload',
    name: `1 file and 1 folder → s3://${t.bucket}/in/`,
    state: { status: 'running' },
  });
  expect(started.progress.phase).toMatchObject({
    kind: 'receiving',
    filesDone: 0,
    filesTotal: 2,
    bytesDone: 0,
    bytesTotal: big.length + small.length,
  });
  expect(started.startedAt).toBeGreaterThanOrEqual(beforeStart);

  // Half the big file sent, the rest held back: the job already counts what came, with a rate.
  const put = openPut(stagingId, 'big.bin', big.length);
  put.request.write(big.subarray(0, 4 * MIB));
  const receiving = await until(
    () => job(started.id),
    (j) => (j.progress.phase?.bytesDone ?? 0) >= 4 * MIB,
  );
  expect(receiving.state.status).toBe('running');
  expect(receiving.progress.phase).toMatchObject({ kind: 'receiving', filesDone: 0, bytesDone: 4 * MIB });
  expect(receiving.progress.phase!.bytesPerSecond).toBeGreaterThan(0);
  expect(receiving.progress.objectsDone).toBe(0);
  put.request.end(big.subarray(4 * MIB));
  expect(await put.answered).toMatchObject({ status: 200 });
  expect((await job(started.id)).progress.phase).toMatchObject({ filesDone: 1, bytesDone: big.length });
  expect(await putWhole(stagingId, 'notes/a.txt', small)).toBe(200);

  const end = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(end.state).toEqual({ status: 'completed' });
  expect(end.progress.phase).toBeUndefined();
  expect(end.progress).toMatchObject({ objectsDone: 2, objectsTotal: 2, bytesDone: big.length + small.length });
  // One run, from the first byte's wait to the last object: "took" includes the sending.
  expect(end.startedAt).toBe(started.startedAt);
  const stored = await t.connection.client.send(new GetObjectCommand({ Bucket: t.bucket, Key: 'in/big.bin' }));
  expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(big)).toBe(true);
  expect(await batchGone(stagingId)).toBe(true);
  // In the history, as the window's other jobs are; never among the jobs a restart brings back.
  const { jobs } = await call<{ jobs: HistoryEntry[] }>('history.list', { kinds: ['upload'] });
  expect(jobs.find((entry) => entry.id === started.id)).toMatchObject({ host: 'web', status: 'completed' });
  expect(journal.unfinished('web').map((record) => record.id)).not.toContain(started.id);
});

it("Cancel while the files arrive stops the browser's request, removes what came, and takes no more", async () => {
  const { stagingId, started } = await startUpload(['cancelled.bin'], { files: 1, bytes: 8 * MIB });
  const put = openPut(stagingId, 'cancelled.bin', 8 * MIB);
  put.request.write(randomBytes(MIB));
  await until(
    () => job(started.id),
    (j) => (j.progress.phase?.bytesDone ?? 0) >= MIB,
  );
  await call('jobs.cancel', { id: started.id });
  const cancelled = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(cancelled.state).toEqual({ status: 'cancelled' });
  // The request is cut, not read to its end.
  expect(await put.answered).toBeInstanceOf(Error);
  expect(await batchGone(stagingId)).toBe(true);
  expect(await putWhole(stagingId, 'late.bin', Buffer.from('late'))).toBe(404);
  // Retried, it says where its files went.
  await call('jobs.retry', { id: started.id });
  const retried = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(retried.state).toMatchObject({
    status: 'failed',
    error: { code: 'NoSuchStaging', message: expect.stringContaining('drop them again') },
  });
});

it('a browser that goes away mid-file fails the job in words, and what came is removed', async () => {
  const { stagingId, started } = await startUpload(['lost.bin'], { files: 1, bytes: 8 * MIB });
  const put = openPut(stagingId, 'lost.bin', 8 * MIB);
  put.request.write(randomBytes(2 * MIB));
  await until(
    () => job(started.id),
    (j) => (j.progress.phase?.bytesDone ?? 0) >= 2 * MIB,
  );
  // The page closed: its connection is gone mid-body.
  put.request.destroy();
  const failed = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(failed.state).toMatchObject({
    status: 'failed',
    error: {
      code: 'BrowserGone',
      message: expect.stringMatching(
        /^The browser stopped sending lost\.bin after 2(\.0+)? MiB of 8(\.0+)? MiB \(its page was closed, or the connection broke\): nothing was uploaded\. Drop the files again\.$/,
      ),
    },
  });
  expect(await batchGone(stagingId)).toBe(true);
});

it('a browser that goes away between files fails the job in words once it has sent nothing for a while', async () => {
  const { stagingId, started } = await startUpload(['one.txt', 'two.txt'], { files: 2, bytes: 6 });
  expect(await putWhole(stagingId, 'one.txt', Buffer.from('one'))).toBe(200);
  const failed = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(failed.state).toMatchObject({
    status: 'failed',
    error: { code: 'BrowserGone', message: expect.stringContaining('1 of 2 files still to come') },
  });
  expect(await batchGone(stagingId)).toBe(true);
});

it('a file the host refuses fails its job with the same words the browser is answered with', async () => {
  const { stagingId, started } = await startUpload(['ok.txt', 'long'], { files: 2, bytes: 4, folders: ['long'] });
  const refused = await fetch(
    `http://127.0.0.1:${host.port}${stagedFileUrl(stagingId, `long/${'n'.repeat(300)}.txt`)}`,
    { method: 'PUT', body: 'x', headers: { authorization: `Bearer ${TOKEN}` } },
  );
  const answer = (await refused.json()) as { error: { code: string; message: string } };
  expect(answer.error.code).toBe('InvalidPath');
  const failed = await until(
    () => job(started.id),
    (j) => isFinished(j.state),
  );
  expect(failed.state).toMatchObject({
    status: 'failed',
    error: { code: 'InvalidPath', message: answer.error.message },
  });
  expect(await batchGone(stagingId)).toBe(true);
});
