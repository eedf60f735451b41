// Crash and resume: the `barge` process is killed with SIGKILL mid-transfer, then the same command
// runs again and goes on from the journal, without sending a finished part or fetching a written
// range twice. Requests are counted by a proxy in front of the real server.

import { execFileSync, spawn } from 'node:child_process';
import {
  appendFile,
  chmod,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import { Engine } from '../../main/engine/engine.ts';
import { AUTO_MIN_PART_BYTES } from '../../main/engine/queue/auto-part-size.ts';
import { Journal } from '../../main/engine/journal/journal.ts';
import { listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import type { JobSnapshot } from '../../src/jobs.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { randomFile, serverConfig, setUpEngine, sha256File } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli, startCli } from '../support/run-cli.ts';
import type { CliProcess } from '../support/run-cli.ts';

const PART = 5 * MIB;
const PARTS = 6;

let t: TestContext;
let proxy: FaultProxy;
let dataDir: string;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 2, partSizeBytes: PART } });
  proxy = await startFaultProxy(serverConfig().endpoint!);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'barge-journal-'));
});
afterEach(async () => {
  await proxy.close();
  await t.close();
});

/** One row from the journal (read-only: it is another process's), or undefined while it has none. */
function journalQuery<Row>(sql: string): Row | undefined {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path.join(dataDir, 'journal.sqlite'), { readOnly: true });
    return db.prepare(sql).get() as Row | undefined;
  } catch {
    // Not created yet, or its tables not yet.
    return undefined;
  } finally {
    db?.close();
  }
}

/** The jobs a run would resume (ended ones stay, for the history). */
const UNFINISHED = "jobs WHERE dismissed = 0 AND status IN ('active', 'failed')";
const rowsOf = (table: string) => (table === 'unfinished' ? UNFINISHED : table);

/** Rows in one of the journal's tables. */
function journalRows(table: 'parts' | 'ranges' | 'jobs' | 'unfinished'): number {
  return Number(journalQuery<{ n: number }>(`SELECT count(*) AS n FROM ${rowsOf(table)}`)?.n ?? 0);
}

const cliEnv = () => ({ AWS_ENDPOINT_URL: proxy.endpoint, BARGE_DATA_DIR: dataDir });
const transferArgs = ['--part-size', '5MiB', '--threads', '2', '--quiet'];

/**
 * Run a command, kill it with SIGKILL once the journal holds at least `rows` rows of `table`. Requests are slowed
 * (300 ms each, or as `delayMs` says for each in turn), so the kill lands mid-job.
 */
async function killAfter(
  args: string[],
  table: 'parts' | 'ranges',
  rows: number,
  cwd?: string,
  delayMs: (request: number) => number = () => 300,
): Promise<number> {
  let requests = 0;
  proxy.setRule(() => ({ kind: 'delay', ms: delayMs(requests++) }));
  const run: CliProcess = startCli(args, { env: cliEnv(), cwd });
  const deadline = Date.now() + 30_000;
  while (journalRows(table) < rows) {
    if (run.child.exitCode !== null) throw new Error(`barge ended before it was killed: ${run.output.stderr}`);
    if (Date.now() > deadline) throw new Error('the journal recorded nothing in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  run.child.kill('SIGKILL');
  await run.done;
  proxy.setRule(() => undefined);
  // What survived the kill is what the next run may skip.
  return journalRows(table);
}

/** How many parts of an upload the store holds. */
async function partsOnStore(key: string, uploadId: string): Promise<number> {
  const listed = await t.connection.client.send(
    new ListPartsCommand({ Bucket: t.bucket, Key: key, UploadId: uploadId }),
  );
  return listed.Parts?.length ?? 0;
}

async function incompleteUploads(): Promise<number> {
  let count = 0;
  for await (const _ of listMultipartUploads(t.connection, t.bucket)) count += 1;
  return count;
}

const partRequests = () => proxy.seen.filter((r) => r.method === 'PUT' && r.url.includes('partNumber=')).length;
const getRequests = () =>
  proxy.seen.filter((r) => r.method === 'GET' && !r.url.includes('list-type') && !r.url.includes('uploads')).length;

it('an upload killed mid-way goes on when the command runs again, sending only the missing parts', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  const args = ['cp', source.path, `s3://${t.bucket}/big.bin`, ...transferArgs];
  const recorded = await killAfter(args, 'parts', 2);
  expect(recorded).toBeGreaterThanOrEqual(2);
  expect(recorded).toBeLessThan(PARTS);
  // Killed: nothing under the key yet, the upload waits on the server for the next run.
  await expect(
    t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'big.bin' })),
  ).rejects.toMatchObject({ name: 'NotFound' });
  expect(await incompleteUploads()).toBe(1);
  // The journal names the connection, never its secret.
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      expect((await readFile(path.join(entry.parentPath, entry.name))).includes(serverConfig().secretAccessKey!)).toBe(
        false,
      );
  }

  proxy.seen.length = 0;
  const again = await runCli(['cp', source.path, `s3://${t.bucket}/big.bin`, '--part-size', '5MiB', '--threads', '2'], {
    env: cliEnv(),
  });
  expect(again.stderr).toContain('Resuming the interrupted run');
  expect(again.code).toBe(0);
  // At most the parts not recorded when it was killed: one may have ended between that count and the kill.
  expect(partRequests()).toBeLessThanOrEqual(PARTS - recorded);
  expect(partRequests()).toBeGreaterThan(0);
  const out = path.join(t.dir, 'check.bin');
  expect((await runCli(['cp', `s3://${t.bucket}/big.bin`, out, '--quiet'])).code).toBe(0);
  expect(await sha256File(out)).toBe(source.sha256);
  expect(await incompleteUploads()).toBe(0);
  // Done: the journal forgets the job.
  expect(journalRows('unfinished')).toBe(0);
});

it('a job is named by absolute paths: killed as "big.bin" in its folder, it goes on when run as its full path from elsewhere', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  const recorded = await killAfter(['cp', 'big.bin', `s3://${t.bucket}/same.bin`, ...transferArgs], 'parts', 2, t.dir);
  proxy.seen.length = 0;
  const again = await runCli(
    ['cp', source.path, `s3://${t.bucket}/same.bin`, '--part-size', '5MiB', '--threads', '2'],
    { env: cliEnv(), cwd: os.tmpdir() },
  );
  expect(again.stderr).toContain('Resuming the interrupted run');
  expect(again.code).toBe(0);
  // At most the parts not recorded when it was killed: one may have ended between that count and the kill.
  expect(partRequests()).toBeLessThanOrEqual(PARTS - recorded);
  expect(partRequests()).toBeGreaterThan(0);
  expect(await incompleteUploads()).toBe(0);
});

it('SIGTERM (kill, timeout, a service stop) cancels as Ctrl-C does: it says so, leaves no upload behind, and exits 143', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  proxy.setRule(() => ({ kind: 'delay', ms: 300 }));
  const run = startCli(['cp', source.path, `s3://${t.bucket}/term.bin`, ...transferArgs], { env: cliEnv() });
  while (journalRows('parts') < 1) {
    if (run.child.exitCode !== null) throw new Error(`barge ended before the signal: ${run.output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  run.child.kill('SIGTERM');
  const end = await run.done;
  proxy.setRule(() => undefined);
  expect(end.code).toBe(143);
  expect(end.stderr).toContain(
    'SIGTERM received: cancelling (cleaning up incomplete uploads and partial files; nothing will be left to resume)',
  );
  expect(await incompleteUploads()).toBe(0);
  expect(journalRows('unfinished')).toBe(0);
});

it('a terminal that goes away (its window closed) cancels as SIGHUP does: no crash on the dead terminal, no upload left behind, exit 129', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  proxy.setRule(() => ({ kind: 'delay', ms: 300 }));
  // On a terminal of its own, with its progress line drawn there (no --quiet).
  const hangup = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pty-hangup.py');
  const run = startCli(['cp', source.path, `s3://${t.bucket}/hup.bin`, '--part-size', '5MiB', '--threads', '2'], {
    env: cliEnv(),
    wrap: ['python3', hangup],
  });
  while (journalRows('parts') < 1) {
    if (run.child.exitCode !== null)
      throw new Error(`barge ended before the hangup: ${run.output.stdout}${run.output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  run.child.stdin!.write('\n');
  const end = await run.done;
  proxy.setRule(() => undefined);
  expect(end.stderr).toBe('');
  expect(end.stdout.trim()).toBe('129');
  expect(await incompleteUploads()).toBe(0);
  expect(journalRows('unfinished')).toBe(0);
});

it('a download killed mid-way goes on from the ranges written, and nothing appears under the final name before the end', async () => {
  const source = await randomFile(t.dir, 'src.bin', PARTS * PART);
  await t.engine.upload(t.connection, { sources: [source.path], bucket: t.bucket, destination: 'big.bin' }).finished();
  const out = path.join(t.dir, 'out');
  await mkdir(out);
  const args = ['cp', `s3://${t.bucket}/big.bin`, `${out}/`, ...transferArgs];
  const recorded = await killAfter(args, 'ranges', 2);
  expect(recorded).toBeLessThan(PARTS);
  const leftBehind = await readdir(out);
  expect(leftBehind).toHaveLength(1);
  expect(leftBehind[0]).toMatch(/^big\.bin\.barge-[0-9a-f]{8}\.partial$/);

  proxy.seen.length = 0;
  const again = await runCli(args, { env: cliEnv() });
  expect(again.code).toBe(0);
  // One GET per range still missing (HEAD looks the object up; it is not a GET).
  // At most the parts not recorded when it was killed: one may have ended between that count and the kill.
  expect(getRequests()).toBeLessThanOrEqual(PARTS - recorded);
  expect(getRequests()).toBeGreaterThan(0);
  expect(await readdir(out)).toEqual(['big.bin']);
  expect(await sha256File(path.join(out, 'big.bin'))).toBe(source.sha256);
});

it('a multipart upload that vanished while the command was down starts again cleanly', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  const args = ['cp', source.path, `s3://${t.bucket}/gone.bin`, ...transferArgs];
  await killAfter(args, 'parts', 1);
  // A lifecycle rule (or an operator) aborts the upload meanwhile.
  for await (const upload of listMultipartUploads(t.connection, t.bucket)) {
    await t.connection.client.send(
      new AbortMultipartUploadCommand({ Bucket: t.bucket, Key: upload.key, UploadId: upload.uploadId }),
    );
  }
  proxy.seen.length = 0;
  const again = await runCli(args, { env: cliEnv() });
  expect(again.code).toBe(0);
  expect(partRequests()).toBe(PARTS);
  const out = path.join(t.dir, 'check.bin');
  expect((await runCli(['cp', `s3://${t.bucket}/gone.bin`, out, '--quiet'])).code).toBe(0);
  expect(await sha256File(out)).toBe(source.sha256);
  expect(await incompleteUploads()).toBe(0);
});

it('a file changed while the command was down fails its upload clearly, leaves no parts, and the next run uploads it whole', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  const args = ['cp', source.path, `s3://${t.bucket}/changed.bin`, ...transferArgs];
  await killAfter(args, 'parts', 1);
  await appendFile(source.path, 'more');
  const again = await runCli(args, { env: cliEnv() });
  expect(again.code).toBe(1);
  expect(again.stderr).toContain(
    `${source.path} changed (its size, times or inode) since its upload began before the interruption`,
  );
  expect(await incompleteUploads()).toBe(0);
  await expect(
    t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'changed.bin' })),
  ).rejects.toMatchObject({ name: 'NotFound' });
  const third = await runCli(args, { env: cliEnv() });
  expect(third.code).toBe(0);
  const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'changed.bin' }));
  expect(head.ContentLength).toBe(PARTS * PART + 4);
});

it('a file rewritten in place with its time put back while the command was down is never stored as a mixture', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  const reference = path.join(t.dir, 'reference');
  await writeFile(reference, '');
  execFileSync('touch', ['-r', source.path, reference]);
  const args = ['cp', source.path, `s3://${t.bucket}/inplace.bin`, ...transferArgs];
  await killAfter(args, 'parts', 1);
  // As rsync --inplace -t does: the first part's bytes rewritten, the modification time put back.
  const handle = await open(source.path, 'r+');
  await handle.write(Buffer.from('rewritten'), 0, 9, 0);
  await handle.close();
  execFileSync('touch', ['-r', reference, source.path]);
  const again = await runCli(args, { env: cliEnv() });
  expect(again.code).toBe(1);
  expect(again.stderr).toContain(
    `${source.path} changed (its size, times or inode) since its upload began before the interruption`,
  );
  expect(await incompleteUploads()).toBe(0);
});

it('--no-resume starts afresh, and --receipt writes what was stored', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  const args = ['cp', source.path, `s3://${t.bucket}/fresh.bin`, ...transferArgs];
  await killAfter(args, 'parts', 1);
  proxy.seen.length = 0;
  const receipt = path.join(t.dir, 'receipt.csv');
  const again = await runCli([...args, '--no-resume', '--receipt', receipt], { env: cliEnv() });
  expect(again.code).toBe(0);
  expect(partRequests()).toBe(PARTS);
  // The abandoned run's upload was aborted, not left to linger.
  expect(await incompleteUploads()).toBe(0);
  const [header, row] = (await readFile(receipt, 'utf8')).trim().split('\n');
  expect(header).toBe('key,path,size,etag,versionId,checksumAlgorithm,checksum,finishedAt,verified,status,error');
  const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'fresh.bin' }));
  expect(row).toContain(`fresh.bin,${source.path},${PARTS * PART},${head.ETag!.replaceAll('"', '')},`);
});

/** Start an upload the way the app does in a child process, and kill it once two parts are recorded. */
async function killAppUpload(sourcePath: string, key: string, connectionRef: string): Promise<number> {
  proxy.setRule(() => ({ kind: 'delay', ms: 300 }));
  const child = spawn(
    process.execPath,
    [
      path.resolve('tests/support/journaled-engine.ts'),
      path.join(dataDir, 'journal.sqlite'),
      JSON.stringify({ ...serverConfig(), endpoint: proxy.endpoint }),
      'upload',
      JSON.stringify({ sources: [sourcePath], bucket: t.bucket, destination: key }),
      connectionRef,
    ],
    { stdio: 'ignore' },
  );
  const ended = new Promise((resolve) => child.once('exit', resolve));
  while (journalRows('parts') < 2) {
    if (child.exitCode !== null) throw new Error('the engine ended before it was killed');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  await ended;
  // A part the proxy was holding (its delay) when the process died still reaches the store after it:
  // counted once it has.
  await new Promise((resolve) => setTimeout(resolve, 600));
  proxy.setRule(() => undefined);
  return journalRows('parts');
}

it('the app brings back a job its killed process left, paused, and finishes it without resending parts', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  const recorded = await killAppUpload(source.path, 'app.bin', 'saved-connection');
  const viaProxy = { ...serverConfig(), endpoint: proxy.endpoint };
  const journal = await Journal.open(path.join(dataDir, 'journal.sqlite'));
  const engine = new Engine({ journal, host: 'app', settings: { threads: 2, partSizeBytes: PART } });
  try {
    proxy.seen.length = 0;
    const restored = engine.restore(async (ref) => {
      expect(ref).toBe('saved-connection');
      return engine.connect(viaProxy);
    });
    expect(restored).toHaveLength(1);
    const job = restored[0]!;
    expect(job.state.status).toBe('paused');
    // Paused means paused: no part goes out until the user resumes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(partRequests()).toBe(0);
    // A part in flight at the kill may have landed without being recorded: the store's list counts.
    const onStore = await partsOnStore('app.bin', journaledUploadId());
    expect(onStore).toBeGreaterThanOrEqual(recorded);
    job.resume();
    const end = await job.finished();
    expect(end.state.status).toBe('completed');
    expect(end.progress.bytesDone).toBe(PARTS * PART);
    expect(partRequests()).toBe(PARTS - onStore);
    expect([...engine.receipt(job.id)].map((line) => line.key)).toEqual(['app.bin']);
  } finally {
    await engine.close();
  }
  const out = path.join(t.dir, 'check.bin');
  await t.engine
    .download(t.connection, { bucket: t.bucket, keys: ['app.bin'], targetFolder: t.dir, targetFile: out })
    .finished();
  expect(await sha256File(out)).toBe(source.sha256);
  expect(await incompleteUploads()).toBe(0);
});

it("the window's service lists the restored job as paused, on its saved connection, and Resume finishes it", async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  const s3 = inject('s3');
  const engine = new Engine({
    journal: await Journal.open(path.join(dataDir, 'journal.sqlite')),
    host: 'app',
    settings: { threads: 2, partSizeBytes: PART },
  });
  const registry = new ConnectionRegistry({
    dataDir,
    engine,
    secrets: new FileSecretStore(path.join(dataDir, 'secrets.json')),
  });
  const saved = await registry.add({
    name: 'Test store',
    endpoint: proxy.endpoint,
    region: s3.region,
    pathStyle: true,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
  const recorded = await killAppUpload(source.path, 'service.bin', saved.id);
  const service = createBargeService({ engine, registry, host: 'web' });
  try {
    proxy.seen.length = 0;
    const listed = await service.dispatch('jobs.snapshot', {});
    expect(listed.ok).toBe(true);
    const jobs = (listed as { value: JobSnapshot[] }).value;
    expect(jobs.map((job) => [job.kind, job.state.status])).toEqual([['upload', 'paused']]);
    const onStore = await partsOnStore('service.bin', journaledUploadId());
    expect(onStore).toBeGreaterThanOrEqual(recorded);
    expect(await service.dispatch('jobs.resume', { id: jobs[0]!.id })).toMatchObject({ ok: true });
    const end = await engine.job(jobs[0]!.id)!.finished();
    expect(end.state).toEqual({ status: 'completed' });
    expect(partRequests()).toBe(PARTS - onStore);
  } finally {
    await service.close();
  }
});

it('an interrupted upload whose file is gone by the next run is aborted when that run completes, not left to linger', async () => {
  const folder = path.join(t.dir, 'folder');
  const big = await randomFile(folder, 'big.bin', PARTS * PART);
  await randomFile(folder, 'small.txt', 100);
  const args = ['cp', '-r', folder, `s3://${t.bucket}/`, ...transferArgs];
  await killAfter(args, 'parts', 1);
  expect(await incompleteUploads()).toBe(1);
  await rm(big.path);
  const again = await runCli(args, { env: cliEnv() });
  expect(again.code).toBe(0);
  // The same job ran on (it is gone from the journal), and took its orphan upload with it.
  expect(await incompleteUploads()).toBe(0);
  expect(journalRows('unfinished')).toBe(0);
});

it('a bulk delete killed mid-way goes on when run again, and counts what the first run deleted', async () => {
  const KEYS = 3000;
  const folder = path.join(t.dir, 'many');
  await mkdir(folder);
  await Promise.all(
    Array.from({ length: KEYS }, (_, i) => writeFile(path.join(folder, `k${String(i).padStart(5, '0')}`), '')),
  );
  expect(
    (await t.engine.upload(t.connection, { sources: [folder], bucket: t.bucket, destination: 'logs/' }).finished())
      .state.status,
  ).toBe('completed');
  const args = ['rm', '-r', '--threads', '1', '--quiet', `s3://${t.bucket}/logs`];
  proxy.setRule(() => ({ kind: 'delay', ms: 400 }));
  const run = startCli(args, { env: cliEnv() });
  const deleted = () => Number(journalQuery<{ n: number | null }>('SELECT max(deleted_count) AS n FROM jobs')?.n ?? 0);
  while (deleted() < 1000) {
    if (run.child.exitCode !== null) throw new Error(`barge ended before it was killed: ${run.output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  run.child.kill('SIGKILL');
  await run.done;
  proxy.setRule(() => undefined);
  const before = deleted();
  expect(before).toBeLessThan(KEYS);

  const again = await runCli(['rm', '-r', '--json', `s3://${t.bucket}/logs`], { env: cliEnv() });
  expect(again.code).toBe(0);
  const end = JSON.parse(again.stdout.trim().split('\n').at(-1)!);
  // The listing shows only what is left; the journal adds what the first run deleted.
  expect(end.progress).toMatchObject({ objectsDone: KEYS, objectsTotal: KEYS, objectsFailed: 0 });
  const left = await t.connection.client.send(new ListObjectsV2Command({ Bucket: t.bucket, Prefix: 'logs/' }));
  expect(left.KeyCount).toBe(0);
});

it('a resumed prefix download lists it all again: new objects are fetched, changed ones fetched again, deleted files restored', async () => {
  const KEYS = 300;
  const folder = path.join(t.dir, 'photos');
  await mkdir(folder);
  await Promise.all(
    Array.from({ length: KEYS }, (_, i) =>
      writeFile(path.join(folder, `p${String(i).padStart(4, '0')}.jpg`), `photo ${i}`),
    ),
  );
  expect(
    (await t.engine.upload(t.connection, { sources: [folder], bucket: t.bucket, destination: '' }).finished()).state
      .status,
  ).toBe('completed');
  const out = path.join(t.dir, 'out');
  const args = ['cp', '-r', '--threads', '2', '--quiet', `s3://${t.bucket}/photos`, out];
  proxy.setRule((request) => (request.url?.includes('list-type') ? undefined : { kind: 'delay', ms: 30 }));
  const run = startCli(args, { env: cliEnv() });
  const finished = () => Number(journalQuery<{ n: number }>('SELECT count(*) AS n FROM objects')?.n ?? 0);
  while (finished() < 50) {
    if (run.child.exitCode !== null) throw new Error(`barge ended before it was killed: ${run.output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  run.child.kill('SIGKILL');
  await run.done;
  proxy.setRule(() => undefined);
  const done = finished();
  expect(done).toBeLessThan(KEYS);
  const saved = (await readdir(path.join(out, 'photos'))).filter((name) => name.endsWith('.jpg')).sort();
  // Between the runs: an object added (listed before everything else), one the first run saved
  // changed on the server, and one it saved deleted here.
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'photos/a-new.jpg', Body: 'new' }));
  await t.connection.client.send(
    new PutObjectCommand({ Bucket: t.bucket, Key: `photos/${saved[0]}`, Body: 'changed on the server' }),
  );
  await rm(path.join(out, 'photos', saved[1]!));

  proxy.seen.length = 0;
  const again = await runCli(['cp', '-r', '--threads', '2', '--json', `s3://${t.bucket}/photos`, out], {
    env: cliEnv(),
  });
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!).progress).toMatchObject({
    objectsDone: KEYS + 1,
    objectsTotal: KEYS + 1,
  });
  // Nothing finished and unchanged was fetched again.
  expect(proxy.seen.filter((r) => r.method === 'GET' && !r.url.includes('list-type')).length).toBeLessThanOrEqual(
    KEYS - done + 3,
  );
  expect(await readFile(path.join(out, 'photos', 'a-new.jpg'), 'utf8')).toBe('new');
  expect(await readFile(path.join(out, 'photos', saved[0]!), 'utf8')).toBe('changed on the server');
  expect(await readFile(path.join(out, 'photos', saved[1]!), 'utf8')).toMatch(/^photo \d+$/);
  expect((await readdir(path.join(out, 'photos'))).filter((name) => name.endsWith('.jpg'))).toHaveLength(KEYS + 1);
});

it('a resumed upload sends again what was deleted from the bucket since; a failed run is retried as such, and an old one starts afresh', async () => {
  const folder = path.join(t.dir, 'docs');
  await mkdir(folder);
  await writeFile(path.join(folder, 'a.txt'), 'a');
  await writeFile(path.join(folder, 'b.txt'), 'b');
  await writeFile(path.join(folder, 'locked.txt'), 'cannot be read');
  await chmod(path.join(folder, 'locked.txt'), 0);
  const args = ['cp', '-r', folder, `s3://${t.bucket}/`];
  // As another user: root reads any file.
  const asUser = { env: cliEnv(), uid: 65534, gid: 65534 };
  await chmod(t.dir, 0o755);
  await chmod(dataDir, 0o777);
  const first = await runCli(args, asUser);
  expect(first.code).toBe(1);
  await t.connection.client.send(new DeleteObjectCommand({ Bucket: t.bucket, Key: 'docs/a.txt' }));
  const second = await runCli(args, asUser);
  expect(second.stderr).toContain('Retrying the failures of the run of this command from');
  expect(second.code).toBe(1);
  const keys = ((await t.connection.client.send(new ListObjectsV2Command({ Bucket: t.bucket }))).Contents ?? [])
    .map((o) => o.Key)
    .sort();
  expect(keys).toEqual(['docs/a.txt', 'docs/b.txt']);

  // A run last heard of eight days ago is not resumed.
  const db = new DatabaseSync(path.join(dataDir, 'journal.sqlite'));
  db.prepare('UPDATE jobs SET updated_at = ?').run(Date.now() - 8 * 24 * 3600 * 1000);
  db.close();
  const third = await runCli(args, asUser);
  expect(third.stderr).toMatch(
    /A run of this command from .* was not finished; it is older than 7 days, so this run starts afresh/,
  );
}, 60_000);

/** The killed app's upload: its ID, from the journal it left. */
function journaledUploadId(): string {
  return journalQuery<{ upload_id: string }>('SELECT upload_id FROM multipart_uploads')!.upload_id;
}

/** Bring the killed app's job back in a new engine, resume it to the end, and check the object. */
async function resumeRestoredUpload(key: string, sha256: string): Promise<void> {
  const journal = await Journal.open(path.join(dataDir, 'journal.sqlite'));
  const engine = new Engine({ journal, host: 'app', settings: { threads: 2, partSizeBytes: PART } });
  try {
    proxy.seen.length = 0;
    const [job] = engine.restore(async () => engine.connect({ ...serverConfig(), endpoint: proxy.endpoint }));
    job!.resume();
    expect((await job!.finished()).state.status).toBe('completed');
  } finally {
    await engine.close();
  }
  const out = path.join(t.dir, 'check.bin');
  await t.engine
    .download(t.connection, { bucket: t.bucket, keys: [key], targetFolder: t.dir, targetFile: out })
    .finished();
  expect(await sha256File(out)).toBe(sha256);
}

it("on resume the store's list of parts is the truth: parts it holds that the journal never recorded are kept when they match the file", async () => {
  const source = await randomFile(t.dir, 'unrecorded.bin', PARTS * PART);
  expect(await killAppUpload(source.path, 'unrecorded.bin', 'saved-connection')).toBeGreaterThanOrEqual(2);
  const uploadId = journaledUploadId();
  // As if the process had died before its last journal commit: the parts it sent are on the store only.
  const db = new DatabaseSync(path.join(dataDir, 'journal.sqlite'));
  db.exec('DELETE FROM parts');
  db.close();
  const onStore = await partsOnStore('unrecorded.bin', uploadId);
  expect(onStore).toBeGreaterThanOrEqual(2);
  await resumeRestoredUpload('unrecorded.bin', source.sha256);
  expect(partRequests()).toBe(PARTS - onStore);
});

it("on resume a part the store holds with other bytes than the file's is sent again", async () => {
  const source = await randomFile(t.dir, 'mismatch.bin', PARTS * PART);
  await killAppUpload(source.path, 'mismatch.bin', 'saved-connection');
  // Part 1 replaced on the store by other bytes, and the journal knows nothing of it.
  const db = new DatabaseSync(path.join(dataDir, 'journal.sqlite'));
  db.exec('DELETE FROM parts WHERE part_number = 1');
  db.close();
  await t.connection.client.send(
    new UploadPartCommand({
      Bucket: t.bucket,
      Key: 'mismatch.bin',
      UploadId: journaledUploadId(),
      PartNumber: 1,
      Body: Buffer.alloc(PART, 9),
      ChecksumAlgorithm: 'CRC32C',
    }),
  );
  await resumeRestoredUpload('mismatch.bin', source.sha256);
  expect(proxy.seen.some((request) => request.method === 'PUT' && request.url.includes('partNumber=1&'))).toBe(true);
});

it('the same command run again while the first still runs is refused at once, naming the process that runs it', async () => {
  const source = await randomFile(t.dir, 'busy.bin', PARTS * PART);
  const args = ['cp', source.path, `s3://${t.bucket}/busy.bin`, ...transferArgs];
  proxy.setRule(() => ({ kind: 'delay', ms: 300 }));
  const first: CliProcess = startCli(args, { env: cliEnv() });
  try {
    while (journalRows('jobs') < 1) {
      if (first.child.exitCode !== null) throw new Error(`the first run ended: ${first.output.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const second = await runCli(args, { env: cliEnv() });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `barge: The same command is already running (process ${first.child.pid}): wait for it to end, or stop it first.\n`,
    );
  } finally {
    proxy.setRule(() => undefined);
  }
  expect((await first.done).code).toBe(0);
  expect(await incompleteUploads()).toBe(0);
});

it('another command for the same key or file cleans up what a killed run left there: its open upload, its temporary file', async () => {
  const source = await randomFile(t.dir, 'big.bin', PARTS * PART);
  await killAfter(['cp', source.path, `s3://${t.bucket}/shared/big.bin`, ...transferArgs], 'parts', 1);
  expect(await incompleteUploads()).toBe(1);
  // Not the same command (a folder, not the file), but the same key.
  const folder = path.join(t.dir, 'shared');
  await mkdir(folder);
  await writeFile(path.join(folder, 'big.bin'), await readFile(source.path));
  const other = await runCli(['cp', '-r', folder, `s3://${t.bucket}/`, ...transferArgs], { env: cliEnv() });
  expect(other.code).toBe(0);
  expect(await incompleteUploads()).toBe(0);
  expect(Number(journalQuery<{ n: number }>('SELECT count(*) AS n FROM multipart_uploads')?.n ?? 0)).toBe(0);

  const out = path.join(t.dir, 'out');
  await mkdir(out);
  await killAfter(['cp', `s3://${t.bucket}/shared/big.bin`, `${out}/`, ...transferArgs], 'ranges', 1);
  expect((await readdir(out)).some((name) => name.endsWith('.partial'))).toBe(true);
  const again = await runCli(['cp', '-r', `s3://${t.bucket}/shared`, t.dir, ...transferArgs], { env: cliEnv() });
  expect(again.code).toBe(0);
  // Into t.dir/shared/: not the same file. The killed run's file was for out/big.bin.
  const into = await runCli(
    ['cp', '--if-exists', 'overwrite', `s3://${t.bucket}/shared/big.bin`, path.join(out, 'big.bin'), ...transferArgs],
    { env: cliEnv() },
  );
  expect(into.code).toBe(0);
  expect(await readdir(out)).toEqual(['big.bin']);
  expect(await sha256File(path.join(out, 'big.bin'))).toBe(source.sha256);
});

it('a resumed download with --if-exists rename finds what it saved under numbered names: no second copies', async () => {
  const KEYS = 40;
  const folder = path.join(t.dir, 'docs');
  await mkdir(folder);
  await Promise.all(
    Array.from({ length: KEYS }, (_, i) => writeFile(path.join(folder, `d${String(i).padStart(2, '0')}`), `doc ${i}`)),
  );
  expect(
    (await t.engine.upload(t.connection, { sources: [folder], bucket: t.bucket, destination: '' }).finished()).state
      .status,
  ).toBe('completed');
  const out = path.join(t.dir, 'out');
  await mkdir(path.join(out, 'docs'), { recursive: true });
  await Promise.all(
    Array.from({ length: KEYS }, (_, i) => writeFile(path.join(out, 'docs', `d${String(i).padStart(2, '0')}`), 'mine')),
  );
  const args = ['cp', '-r', '--threads', '2', '--quiet', '--if-exists', 'rename', `s3://${t.bucket}/docs`, out];
  proxy.setRule((request) => (request.url?.includes('list-type') ? undefined : { kind: 'delay', ms: 30 }));
  const run = startCli(args, { env: cliEnv() });
  while (Number(journalQuery<{ n: number }>('SELECT count(*) AS n FROM objects')?.n ?? 0) < 5) {
    if (run.child.exitCode !== null) throw new Error(`barge ended before it was killed: ${run.output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  run.child.kill('SIGKILL');
  await run.done;
  proxy.setRule(() => undefined);
  expect((await runCli(args, { env: cliEnv() })).code).toBe(0);
  const names = await readdir(path.join(out, 'docs'));
  expect(names.filter((name) => name.endsWith('(2)'))).toEqual([]);
  expect(names.filter((name) => name.endsWith('(1)'))).toHaveLength(KEYS);
});

it('the same command started twice at the same moment runs once: the other is refused', async () => {
  const source = await randomFile(t.dir, 'twice.bin', PARTS * PART);
  const args = ['cp', source.path, `s3://${t.bucket}/twice.bin`, ...transferArgs];
  // Each request held a while, so the first run is still going (over a second) when the other starts.
  proxy.setRule(() => ({ kind: 'delay', ms: 300 }));
  const runs = await Promise.all([startCli(args, { env: cliEnv() }).done, startCli(args, { env: cliEnv() }).done]);
  proxy.setRule(() => undefined);
  expect(runs.map((run) => run.code).sort(), runs.map((run) => run.stderr).join('\n---\n')).toEqual([0, 1]);
  // The holder's pid is written just after its lock is taken: a refusal in between cannot name it.
  expect(runs.find((run) => run.code === 1)!.stderr).toMatch(
    /The same command is already running( \(process \d+\))?: wait for it to end/,
  );
  expect(await incompleteUploads()).toBe(0);
});

it('an upload created but never recorded (killed before CreateMultipartUpload answered) is found on resume and aborted, not left behind', async () => {
  const source = await randomFile(t.dir, 'unnamed.bin', PARTS * PART);
  await killAppUpload(source.path, 'unnamed.bin', 'saved-connection');
  // As if the kill had come before the upload's ID was recorded: the journal knows only that one was being begun.
  const db = new DatabaseSync(path.join(dataDir, 'journal.sqlite'));
  db.exec("UPDATE multipart_uploads SET upload_id = ''; DELETE FROM parts");
  db.close();
  expect(await incompleteUploads()).toBe(1);
  await resumeRestoredUpload('unnamed.bin', source.sha256);
  expect(partRequests()).toBe(PARTS);
  expect(await incompleteUploads()).toBe(0);
});

/** An object's bytes, as text. */
async function objectText(key: string): Promise<string> {
  const out = path.join(t.dir, `check-${Math.random().toString(36).slice(2)}`);
  await t.engine
    .download(t.connection, { bucket: t.bucket, keys: [key], targetFolder: t.dir, targetFile: out })
    .finished();
  return readFile(out, 'utf8');
}

it('a resumed upload sends again a file replaced, or rewritten in place, with the same size and time; an unchanged one is not sent', async () => {
  const folder = path.join(t.dir, 'rs');
  await mkdir(folder);
  const f1 = path.join(folder, 'f1.txt');
  await writeFile(f1, 'version-one\n');
  await writeFile(path.join(folder, 'f2.txt'), 'unchanged\n');
  // A broken link makes each run fail, so the next one retries it.
  await symlink(path.join(t.dir, 'nowhere'), path.join(folder, 'zz'));
  const args = ['cp', '-r', folder, `s3://${t.bucket}/`];
  expect((await runCli(args, { env: cliEnv() })).code).toBe(1);
  expect(await objectText('rs/f1.txt')).toBe('version-one\n');

  // Replaced by another file of the same size and time (rsync -t, cp -p).
  const replacement = path.join(t.dir, 'n');
  await writeFile(replacement, 'VERSION-TWO\n');
  execFileSync('touch', ['-r', f1, replacement]);
  await rename(replacement, f1);
  proxy.seen.length = 0;
  const second = await runCli(args, { env: cliEnv() });
  expect(second.stderr).toContain('Retrying the failures of the run of this command from');
  expect(second.code).toBe(1);
  expect(await objectText('rs/f1.txt')).toBe('VERSION-TWO\n');
  expect(proxy.seen.filter((r) => r.method === 'PUT' && r.url.includes('f2.txt'))).toEqual([]);

  // Rewritten in place, its time put back.
  const reference = path.join(t.dir, 'reference');
  await writeFile(reference, '');
  execFileSync('touch', ['-r', f1, reference]);
  await writeFile(f1, 'version-3!!\n');
  execFileSync('touch', ['-r', reference, f1]);
  await rm(path.join(folder, 'zz'));
  const third = await runCli(args, { env: cliEnv() });
  expect(third.code).toBe(0);
  expect(await objectText('rs/f1.txt')).toBe('version-3!!\n');
});

it('a resumed download fetches again a file edited since it was written, even to the same size and time; an untouched one is not fetched', async () => {
  for (let i = 1; i <= 6; i++)
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: `r/${i}.txt`, Body: `content-${i}` }));
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'r/bad/x.txt', Body: 'blocked' }));
  const out = path.join(t.dir, 'dr');
  await mkdir(path.join(out, 'r'), { recursive: true });
  // A file where the folder r/bad would go: the first run fails, and the next retries it.
  await writeFile(path.join(out, 'r', 'bad'), '');
  const args = ['cp', '-r', `s3://${t.bucket}/r`, out];
  expect((await runCli(args, { env: cliEnv() })).code).toBe(1);
  await rm(path.join(out, 'r', 'bad'));
  const edited = path.join(out, 'r', '5.txt');
  const reference = path.join(t.dir, 'reference');
  await writeFile(reference, '');
  execFileSync('touch', ['-r', edited, reference]);
  await writeFile(edited, 'CONTENT-X');
  execFileSync('touch', ['-r', reference, edited]);
  proxy.seen.length = 0;
  const again = await runCli(args, { env: cliEnv() });
  expect(again.stderr).toContain('Retrying the failures of the run of this command from');
  expect(again.code).toBe(0);
  expect(await readFile(edited, 'utf8')).toBe('content-5');
  expect(await readFile(path.join(out, 'r', 'bad', 'x.txt'), 'utf8')).toBe('blocked');
  const fetched = proxy.seen.filter((r) => r.method === 'GET' && !r.url.includes('list-type')).map((r) => r.url);
  expect(fetched.some((url) => url.includes('5.txt'))).toBe(true);
  expect(fetched, JSON.stringify(fetched)).not.toContainEqual(expect.stringContaining('1.txt'));
});

it('a download resumed under Auto part size keeps the ranges it cut, though Auto would cut them otherwise now', async () => {
  // One PUT: the object has no parts of its own, so its ranges are the part size the run chose.
  const size = 4 * AUTO_MIN_PART_BYTES;
  const source = await randomFile(t.dir, 'src.bin', size);
  await t.connection.client.send(
    new PutObjectCommand({ Bucket: t.bucket, Key: 'whole.bin', Body: await readFile(source.path) }),
  );
  const out = path.join(t.dir, 'out');
  await mkdir(out);
  const target = [`s3://${t.bucket}/whole.bin`, `${out}/`, '--part-size', 'auto', '--quiet'];
  // At 4 threads Auto cuts it in four; at 1 it would take it whole. The four ranges go at once, answered 3 s
  // apart: the kill lands after the first is written and long before the next, however fast this machine is.
  const recorded = await killAfter(
    ['cp', ...target, '--threads', '4'],
    'ranges',
    1,
    undefined,
    (request) => 300 + 3_000 * request,
  );
  expect(recorded).toBeGreaterThan(0);
  expect(recorded).toBeLessThan(4);

  proxy.seen.length = 0;
  const again = await runCli(['cp', ...target, '--threads', '1'], { env: cliEnv() });
  expect(again.code).toBe(0);
  const gets = proxy.seen.filter((r) => r.method === 'GET' && r.url.includes('whole.bin'));
  const fetched = gets.map((r) => {
    const [start, end] = (r.range ?? `bytes=0-${size - 1}`).replace('bytes=', '').split('-').map(Number);
    return end! - start! + 1;
  });
  // Only the ranges the first run had not written: not the whole object again.
  expect(fetched.reduce((sum, bytes) => sum + bytes, 0)).toBeLessThanOrEqual(size - recorded * AUTO_MIN_PART_BYTES);
  expect(await sha256File(path.join(out, 'whole.bin'))).toBe(source.sha256);
});
