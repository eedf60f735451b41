import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { folderLocks } from '../../../../../main/engine/journal/job-locks.ts';
import { Journal, jobFingerprint } from '../../../../../main/engine/journal/journal.ts';

const DAY = 24 * 3600 * 1000;
const job = (id: string, fingerprint = 'fp', host: 'app' | 'cli' = 'cli') => ({
  id,
  host,
  kind: 'upload' as const,
  name: id,
  spec: { sources: ['/a'] },
  connectionRef: 'c',
  fingerprint,
});

it("finds an unfinished job by fingerprint, never a completed or cancelled one, nor another host's", async () => {
  const journal = await Journal.open(':memory:');
  journal.addJob(job('done'));
  journal.setStatus('done', 'completed');
  journal.addJob(job('stopped'));
  journal.setStatus('stopped', 'cancelled');
  journal.addJob(job('app-job', 'fp', 'app'));
  expect(journal.findResumable('cli', 'fp')).toBeUndefined();
  journal.addJob(job('failed'));
  journal.setStatus('failed', 'failed');
  expect(journal.findResumable('cli', 'fp')?.id).toBe('failed');
  expect(journal.unfinished('app').map((j) => j.id)).toEqual(['app-job']);
  journal.close();
});

/** A journal on disk holding job `id`, opened again by a process that does not run it (so holds no lock). */
async function reopenedWithJob(id: string): Promise<{ file: string; journal: Journal }> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-journal-unit-')), 'journal.sqlite');
  const adding = await Journal.open(file);
  adding.addJob(job(id));
  adding.close();
  return { file, journal: await Journal.open(file) };
}

it('a job is run by the process holding its lock: another is refused and told who; a killed holder frees it at once, even as an unreaped zombie', async () => {
  const { file, journal: again } = await reopenedWithJob('mine');
  // The holder's parent is `sleep`, which never reaps it: once killed, it stays a zombie.
  const holder = spawn('sh', [
    '-c',
    `"${process.execPath}" tests/support/hold-job-lock.ts "${path.join(path.dirname(file), 'locks')}" mine & echo $!; exec sleep 30`,
  ]);
  try {
    const pid = await new Promise<number>((resolve, reject) => {
      let out = '';
      holder.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const [first, second] = out.split('\n');
        if (second?.startsWith('locked')) resolve(Number(first));
      });
      holder.once('exit', () => reject(new Error(`the holder ended: ${out}`)));
    });
    expect(again.findResumable('cli', 'fp')?.id).toBe('mine');
    expect(again.claim('mine')).toEqual({ ok: false, holder: pid });
    expect(again.unfinished('cli')).toEqual([]);
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2]).toBe('Z');
    // Its threads end a moment after the leader shows Z; then the kernel has dropped its locks.
    await expect.poll(() => again.claim('mine').ok, { timeout: 2000 }).toBe(true);
    expect(readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2]).toBe('Z');
  } finally {
    holder.kill('SIGKILL');
    again.close();
  }
});

it('a lock held only for a moment (another process looking) is taken once it is let go: two commands started together never both refuse', async () => {
  const { file, journal } = await reopenedWithJob('briefly');
  // Another process takes the lock for 30 ms, as a look at it does (slowed down here).
  const looker = spawn(process.execPath, [
    'tests/support/hold-job-lock.ts',
    path.join(path.dirname(file), 'locks'),
    'briefly',
    '30',
  ]);
  try {
    await new Promise<void>((resolve, reject) => {
      looker.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('locked')) resolve();
      });
      looker.once('exit', () => reject(new Error('the looker ended first')));
    });
    expect(journal.claim('briefly')).toEqual({ ok: true });
  } finally {
    looker.kill('SIGKILL');
    journal.close();
  }
});

it('records parts, ranges and finished objects per job; a job forgotten keeps its receipt for its history, nothing to resume', async () => {
  const journal = await Journal.open(':memory:');
  journal.addJob(job('j'));
  const recorder = journal.forJob('j', false);
  recorder.multipartStarted('k', {
    uploadId: 'u',
    path: '/a',
    size: 10,
    mtimeMs: 1,
    partSize: 5,
    checksumAlgorithm: 'CRC32C',
  });
  recorder.partFinished('u', { partNumber: 2, etag: '"e2"', checksum: 'c2' });
  recorder.rangeFinished('d', 3);
  recorder.objectFinished({ key: 'k', path: '/a', size: 10, etag: '"e"', checksum: 'CRC32C:x-2' });
  expect(recorder.multipart('k')).toMatchObject({ uploadId: 'u', checksumAlgorithm: 'CRC32C' });
  expect(recorder.parts('u')).toEqual([{ partNumber: 2, etag: '"e2"', checksum: 'c2' }]);
  expect(recorder.rangesFinished('d')).toEqual([3]);
  expect([...journal.receipt('j')].map((line) => line.key)).toEqual(['k']);
  journal.forget('j');
  expect(recorder.parts('u')).toEqual([]);
  expect(recorder.multipart('k')).toBeUndefined();
  expect(recorder.rangesFinished('d')).toEqual([]);
  expect(journal.findResumable('cli', 'fp')).toBeUndefined();
  expect([...journal.receipt('j')].map((line) => line.key)).toEqual(['k']);
  expect(journal.historyRecord('j')).toMatchObject({ status: 'cancelled', dismissed: true });
  journal.close();
});

it('keeps ended jobs in the history for the retention (days, then a count), never an unfinished or failed one', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-journal-unit-')), 'journal.sqlite');
  let now = 0;
  const first = await Journal.open(file, { now: () => now });
  first.addJob(job('old-done'));
  first.setStatus('old-done', 'completed');
  first.addJob(job('old-failed', 'failed'));
  first.setStatus('old-failed', 'failed');
  first.addJob(job('old-active', 'other'));
  now = 10 * DAY;
  for (const id of ['a', 'b', 'c']) {
    first.addJob(job(id, id));
    first.setStatus(id, 'completed');
    now += 1;
  }
  first.close();
  now = 89 * DAY;
  const kept = await Journal.open(file, { now: () => now });
  expect(kept.history().jobs.map((j) => j.id)).toEqual(['c', 'b', 'a', 'old-active', 'old-failed', 'old-done']);
  kept.close();
  now = 91 * DAY;
  const daysLater = await Journal.open(file, { now: () => now });
  expect(daysLater.history().jobs.map((j) => j.id)).toEqual(['c', 'b', 'a', 'old-active', 'old-failed']);
  expect(daysLater.findResumable('cli', 'other')?.id).toBe('old-active');
  daysLater.close();
  const fewer = await Journal.open(file, { now: () => now, retention: { days: 90, jobs: 2 } });
  expect(fewer.history().jobs.map((j) => j.id)).toEqual(['c', 'b', 'old-active', 'old-failed']);
  fewer.close();
});

it("never drops a job kept for its history only while it runs (a web host's browser upload), whatever the retention", async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-journal-unit-')), 'journal.sqlite');
  const webHost = await Journal.open(file);
  webHost.addJob(job('browser-upload', 'staged', 'app'));
  webHost.historyOnly('browser-upload');
  // Another process (a barge command) opens the journal meanwhile, keeping no ended jobs at all.
  const command = await Journal.open(file, { retention: { days: 0, jobs: 0 } });
  expect(command.historyRecord('browser-upload')).toMatchObject({ status: 'active', dismissed: true });
  command.close();
  webHost.setStatus('browser-upload', 'completed');
  webHost.close();
  const later = await Journal.open(file, { retention: { days: 90, jobs: 0 } });
  expect(later.historyRecord('browser-upload')).toBeUndefined();
  later.close();
});

it('lists the history newest first, by kind and failed only, with when each ended and on what connection', async () => {
  let now = 1_000;
  const journal = await Journal.open(':memory:', { now: () => now });
  journal.addJob({ ...job('up'), connectionLabel: 'minio · http://127.0.0.1:9000 · key AKIA1' });
  now = 2_000;
  journal.setStatus('up', 'completed', '{}');
  journal.addJob({ ...job('del', 'd'), kind: 'delete' });
  now = 3_000;
  journal.setStatus('del', 'failed', '{}');
  expect(journal.history().jobs.map((j) => j.id)).toEqual(['del', 'up']);
  expect(journal.history({ kinds: ['delete'] }).jobs.map((j) => j.id)).toEqual(['del']);
  expect(journal.history({ failedOnly: true })).toMatchObject({ total: 1, jobs: [{ id: 'del', endedAt: 3_000 }] });
  expect(journal.historyRecord('up')).toMatchObject({
    endedAt: 2_000,
    connectionLabel: 'minio · http://127.0.0.1:9000 · key AKIA1',
    dismissed: false,
  });
  expect(journal.history({ offset: 1, limit: 1 })).toMatchObject({ total: 2, jobs: [{ id: 'up' }] });
  expect(journal.idsStartingWith('d')).toEqual(['del']);
  expect(journal.idsStartingWith('%')).toEqual([]);
  journal.close();
});

it('keeps what a delete removed, batch by batch, compactly, and reads it back in order', async () => {
  const journal = await Journal.open(':memory:');
  journal.addJob({ ...job('del'), kind: 'delete' });
  const recorder = journal.forJob('del', false);
  const batch = (from: number) =>
    Array.from({ length: 1_000 }, (_, i) => ({
      key: `logs/2026/11/${String(from + i).padStart(7, '0')}.log`,
      markerVersionId: `${from + i}-c1b2a3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d`,
      size: 1234,
    }));
  recorder.deleteBatchFinished(1_000, batch(0));
  recorder.deleteBatchFinished(1_000, batch(1_000));
  recorder.deleteBatchFinished(2, [{ key: 'a\tb\n"c"', versionId: 'v1' }, { key: 'plain' }]);
  recorder.versioningSeen('enabled');
  const removed = [...journal.removals('del')];
  expect(removed).toHaveLength(2_002);
  expect(removed[0]).toEqual(batch(0)[0]);
  expect(removed[1_999]).toEqual(batch(1_000)[999]);
  expect(removed.slice(2_000)).toEqual([{ key: 'a\tb\n"c"', versionId: 'v1' }, { key: 'plain' }]);
  expect(journal.historyRecord('del')).toMatchObject({ removedCount: 2_002, versioning: 'enabled' });
  journal.close();
});

it('a fingerprint differs when the spec or the connection differs', () => {
  const base = jobFingerprint('upload', { a: 1 }, 'c');
  expect(jobFingerprint('upload', { a: 1 }, 'c')).toBe(base);
  expect(jobFingerprint('upload', { a: 2 }, 'c')).not.toBe(base);
  expect(jobFingerprint('upload', { a: 1 }, 'd')).not.toBe(base);
  expect(jobFingerprint('download', { a: 1 }, 'c')).not.toBe(base);
});

it('progress records are committed in batches within a moment, and every one on close', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-journal-unit-')), 'journal.sqlite');
  const journal = await Journal.open(file);
  journal.addJob(job('j'));
  const recorder = journal.forJob('j', false);
  const { DatabaseSync } = await import('node:sqlite');
  const reader = new DatabaseSync(file, { readOnly: true });
  const parts = () => Number((reader.prepare('SELECT count(*) AS n FROM parts').get() as { n: number }).n);
  recorder.partFinished('u', { partNumber: 1, etag: '"1"' });
  expect(parts()).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 250));
  expect(parts()).toBe(1);
  recorder.partFinished('u', { partNumber: 2, etag: '"2"' });
  journal.close();
  expect(parts()).toBe(2);
  reader.close();
});

it('a write that fails (the file locked by another process) is told once and dropped; later writes go through', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-journal-unit-')), 'journal.sqlite');
  const warnings: string[] = [];
  const journal = await Journal.open(file, { warn: (message) => warnings.push(message), busyTimeoutMs: 50 });
  journal.addJob(job('j'));
  const recorder = journal.forJob('j', false);
  const { DatabaseSync } = await import('node:sqlite');
  const other = new DatabaseSync(file);
  other.exec('BEGIN IMMEDIATE');
  recorder.partFinished('u', { partNumber: 1, etag: '"1"' });
  expect(() => journal.commit()).not.toThrow();
  recorder.partFinished('u', { partNumber: 2, etag: '"2"' });
  expect(() => journal.commit()).not.toThrow();
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('could not be written');
  other.exec('ROLLBACK');
  other.close();
  recorder.partFinished('u', { partNumber: 3, etag: '"3"' });
  expect(recorder.parts('u').map((part) => part.partNumber)).toEqual([3]);
  journal.close();
});

it('opens a journal of schema 1 (before receipts said how objects were checked) and keeps its receipts', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-journal-unit-')), 'journal.sqlite');
  const { DatabaseSync } = await import('node:sqlite');
  const old = new DatabaseSync(file);
  old.exec(`
    CREATE TABLE jobs (id TEXT PRIMARY KEY, host TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,
      connection_ref TEXT NOT NULL, fingerprint TEXT NOT NULL, status TEXT NOT NULL, owner_pid INTEGER,
      deleted_count INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
    CREATE TABLE objects (job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE, key TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,
      mtime_ms REAL, etag TEXT, version_id TEXT, checksum TEXT, finished_at INTEGER NOT NULL, PRIMARY KEY (job_id, key));
    INSERT INTO jobs VALUES ('j', 'cli', 'upload', 'j', '{}', 'c', 'fp', 'failed', NULL, 0, 1, 1);
    INSERT INTO objects VALUES ('j', 'old.bin', '/a/old.bin', 3, 1, '"e"', NULL, 'MD5:AAA=', 5);
    PRAGMA user_version = 1;`);
  old.close();
  const journal = await Journal.open(file);
  const records = journal.forJob('j', true);
  records.objectFinished({ key: 'new.bin', path: '/a/new.bin', size: 4, verified: 'content-md5' });
  journal.commit();
  expect([...journal.receipt('j')].map((line) => [line.key, line.verified])).toEqual([
    ['new.bin', 'content-md5'],
    ['old.bin', undefined],
  ]);
  journal.close();
  // Opened again, it is schema 2 and stays so.
  const again = await Journal.open(file);
  expect([...again.receipt('j')]).toHaveLength(2);
  again.close();
});

it("each kind of process brings back only its own jobs: the web host never the Electron app's, nor the reverse", async () => {
  const journal = await Journal.open(':memory:');
  journal.addJob(job('electron-job', 'fp', 'app'));
  journal.addJob({ ...job('web-job', 'fp'), host: 'web' });
  expect(journal.unfinished('app').map((j) => j.id)).toEqual(['electron-job']);
  expect(journal.unfinished('web').map((j) => j.id)).toEqual(['web-job']);
  journal.close();
});

it("a finished object keeps its local file's identity; one recorded before schema 4 has none (not proven unchanged)", async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-journal-unit-')), 'journal.sqlite');
  // A schema 3 journal, as an older Barge left it, with one finished object.
  const { DatabaseSync } = await import('node:sqlite');
  const old = new DatabaseSync(file);
  old.exec(`CREATE TABLE jobs (id TEXT PRIMARY KEY, host TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,
    connection_ref TEXT NOT NULL, fingerprint TEXT NOT NULL, status TEXT NOT NULL, owner_pid INTEGER, deleted_count INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, target TEXT);
  CREATE TABLE objects (job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE, key TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ms REAL, etag TEXT, version_id TEXT, checksum TEXT, finished_at INTEGER NOT NULL, verified TEXT, PRIMARY KEY (job_id, key));
  INSERT INTO jobs VALUES ('old', 'cli', 'upload', 'old', '{}', 'c', 'fp', 'failed', NULL, 0, ${Date.now()}, ${Date.now()}, NULL);
  INSERT INTO objects (job_id, key, path, size, mtime_ms, finished_at) VALUES ('old', 'a.txt', '/a.txt', 3, 1000.5, 1);
  PRAGMA user_version = 3;`);
  old.close();
  const journal = await Journal.open(file);
  const records = journal.forJob('old', true);
  expect(records.finishedObject('a.txt')).toMatchObject({ size: 3, mtimeMs: 1000.5, local: undefined });
  const local = { dev: 2049, ino: 123456789, ctimeMs: 1700000000123.4567, mtimeMs: 1690000000000.125, size: 4 };
  records.objectFinished({ key: 'b.txt', path: '/b.txt', size: 4, local }, { now: true });
  expect(records.finishedObject('b.txt')).toMatchObject({ mtimeMs: local.mtimeMs, local });
  journal.close();
});

it('opens a new journal that another connection holds at that moment (a second command opening it too), once it is let go', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-journal-')), 'journal.sqlite');
  // Another connection writing the new file before WAL, as one switching it does: SQLite does not wait for it.
  const other = new DatabaseSync(file);
  other.exec('CREATE TABLE early (x); BEGIN IMMEDIATE; INSERT INTO early VALUES (1)');
  const letGo = setTimeout(() => other.exec('COMMIT'), 200);
  try {
    const journal = await Journal.open(file);
    expect(journal.unfinished('cli')).toEqual([]);
    journal.close();
  } finally {
    clearTimeout(letGo);
    other.close();
  }
  const db = new DatabaseSync(file);
  expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
  db.close();
});

it('a finished command deletes its lock file before it lets go: a run that takes the lock just then still keeps a third out', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-locks-'));
  const next = folderLocks(folder, DatabaseSync);
  const third = folderLocks(folder, DatabaseSync);
  // The next run takes the lock the moment the finishing run lets go of it.
  let armed = false;
  let tookIt: boolean | undefined;
  class LetGo extends DatabaseSync {
    override close(): void {
      super.close();
      if (armed) tookIt ??= next.acquire('command-x');
    }
  }
  const finishing = folderLocks(folder, LetGo);
  try {
    expect(finishing.acquire('command-x')).toBe(true);
    armed = true;
    finishing.discard('command-x');
    expect(tookIt).toBe(true);
    // Held on a file deleted after it was taken, the lock would keep out no one.
    expect(third.acquire('command-x')).toBe(false);
    expect(third.heldElsewhere('command-x')).toBe(true);
  } finally {
    for (const locks of [finishing, next, third]) locks.releaseAll();
  }
});

it('a lock taken on a file deleted after it was opened is given back, though another file is at its path by then', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-locks-'));
  const finishing = folderLocks(folder, DatabaseSync);
  const third = folderLocks(folder, DatabaseSync);
  // The next run opens the lock file, then pauses; meanwhile the finishing run discards it and a third
  // run makes a new one and takes it. The next run's lock on the old file would keep no one out.
  let paused = false;
  class PausedAfterOpening extends DatabaseSync {
    constructor(...args: ConstructorParameters<typeof DatabaseSync>) {
      super(...args);
      if (paused) return;
      paused = true;
      finishing.discard('command-x');
      expect(third.acquire('command-x')).toBe(true);
    }
  }
  const next = folderLocks(folder, PausedAfterOpening);
  try {
    expect(finishing.acquire('command-x')).toBe(true);
    expect(next.acquire('command-x')).toBe(false);
    expect(paused).toBe(true);
    expect(third.heldHere('command-x')).toBe(true);
  } finally {
    for (const locks of [finishing, next, third]) locks.releaseAll();
  }
});

it("discarding a job this process does not hold leaves the holder's lock in place", async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-locks-'));
  const [holder, other] = [folderLocks(folder, DatabaseSync), folderLocks(folder, DatabaseSync)];
  try {
    expect(holder.acquire('job-1')).toBe(true);
    other.discard('job-1');
    expect(other.acquire('job-1')).toBe(false);
    expect(other.holder('job-1')).toBe(process.pid);
  } finally {
    for (const locks of [holder, other]) locks.releaseAll();
  }
});

it('a discard whose files cannot be deleted still lets go of the lock', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-locks-'));
  const [finishing, next] = [folderLocks(folder, DatabaseSync), folderLocks(folder, DatabaseSync)];
  try {
    expect(finishing.acquire('job-1')).toBe(true);
    // A folder where the pid file was: deleting it fails.
    rmSync(path.join(folder, 'job-1.pid'));
    mkdirSync(path.join(folder, 'job-1.pid', 'inside'), { recursive: true });
    expect(() => finishing.discard('job-1')).not.toThrow();
    expect(finishing.heldHere('job-1')).toBe(false);
    expect(next.acquire('job-1')).toBe(true);
  } finally {
    for (const locks of [finishing, next]) locks.releaseAll();
  }
});
