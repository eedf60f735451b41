// The job journal: every job and its progress, in SQLite (Node's built-in `node:sqlite`), so that
// after a crash, a kill or a quit, unfinished jobs come back and skip the work already done.
//
// Why SQLite rather than an append-only log: the records are looked up (has this part, this file,
// this range been done?) far more often than replayed, and SQLite gives atomic, crash-safe commits
// with indexes for free. WAL mode with synchronous=NORMAL makes each record a cheap append that
// survives the process dying at any point (the kernel has the bytes); after a power loss the newest
// records may be missing, which only means that work is done again, never that work is skipped.
//
// Progress records (a part sent, an object finished) are held in memory and written in one short
// transaction every 100 ms: a commit per record cost about 0.1 ms of CPU per small file (measured
// with `BENCH_JOURNAL_COST=1 npm run bench`), and a transaction left open between records would hold
// the file's write lock and stall every other process using it. A crash loses at most the last
// 100 ms of progress, which is then done again. Records that name something to clean up later (a
// multipart upload begun, a temporary file made, a job) are written at once: losing those would leave
// orphans.
//
// The journal is a help, never a hazard: a write that fails (a full disk, a file locked too long)
// is reported once and dropped, and the transfer goes on; at worst, work is done again.
//
// One file serves several processes (the app, and each `barge` command): a job is run by the process
// that holds its lock (job-locks.ts), which the kernel drops when that process dies; another process
// resumes it only then.

import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { JobKind } from '../../../src/jobs.ts';
import type {
  DownloadRecord,
  FinishedObject,
  JobJournal,
  MultipartRecord,
  PartRecord,
  Removal,
} from './job-journal.ts';
import { packRemovals, unpackRemovals } from './removals.ts';
import { loadSqlite } from './sqlite.ts';
import { switchToWal } from './wal-mode.ts';
import { folderLocks, memoryLocks } from './job-locks.ts';
import type { JobLocks } from './job-locks.ts';
import type { ReceiptEntry } from '../../../src/receipt.ts';
import { isVerification } from '../../../src/verification.ts';

/** Which kind of process recorded a job: each brings back only its own ('app' is the Electron app). */
export type JournalHost = 'app' | 'web' | 'cli';
/** Active and failed jobs are resumable; cancelled ones only by a retry in the same process. */
export type JournalStatus = 'active' | 'failed' | 'completed' | 'cancelled';

export interface JournaledJob {
  readonly id: string;
  readonly host: JournalHost;
  readonly kind: JobKind;
  readonly name: string;
  /** The job's spec as JSON: what to upload, download or delete. */
  readonly spec: unknown;
  /** Which connection it runs on: a saved connection's ID, or a description the command line matches. */
  readonly connectionRef: string;
  readonly status: JournalStatus;
  readonly createdAt: number;
  /** When a run of it last recorded anything (its last sign of life). */
  readonly updatedAt: number;
  /** Where it stood when its process last saw it (job-outcome.ts), as JSON; absent after a crash mid-run. */
  readonly outcome?: string;
}

/** A job as its history shows it: its record, and what became of it. */
export interface HistoryRecord extends JournaledJob {
  readonly endedAt?: number;
  /** The connection it ran on, as people know it (a name, a profile, an access key ID; never a secret). */
  readonly connectionLabel?: string;
  /** Out of the host's list of jobs (cleared, or ended in a command): its history is all that is left. */
  readonly dismissed: boolean;
  /** The bucket's versioning when a delete began: 'enabled', 'suspended' or 'off' (absent when unknown). */
  readonly versioning?: string;
  /** The job that undid it (an undo), if one has. */
  readonly undoneBy?: string;
  /** Objects it deleted (a delete's, a sync's extras, an undo's markers). */
  readonly removedCount: number;
}

/** Which jobs a history lists. */
export interface HistoryQuery {
  readonly kinds?: readonly JobKind[];
  /** Only the jobs these hosts ran (a web host's page sees its own host's only). */
  readonly hosts?: readonly JournalHost[];
  readonly failedOnly?: boolean;
  readonly offset?: number;
  readonly limit?: number;
}

/** How long ended jobs stay in the history: whichever of the two is reached first. */
export interface HistoryRetention {
  readonly days: number;
  readonly jobs: number;
}

/** One speed test as the journal keeps it: its result as JSON (src/speed-test.ts's schema reads it back). */
export interface SavedSpeedTestRow {
  readonly endpoint: string;
  readonly connectionRef: string;
  readonly measuredAt: number;
  readonly result: string;
}

/** Each connection's last speed test on each endpoint (schema 7). */
const SPEED_TESTS_SCHEMA = `CREATE TABLE IF NOT EXISTS speed_tests (
  endpoint TEXT NOT NULL, connection_ref TEXT NOT NULL, measured_at INTEGER NOT NULL, result TEXT NOT NULL,
  PRIMARY KEY (endpoint, connection_ref));`;

export const DEFAULT_RETENTION: HistoryRetention = { days: 90, jobs: 10_000 };

/** One line of a job's receipt: a finished object and when it finished. */
export type ReceiptLine = FinishedObject & ReceiptEntry;

const SCHEMA_VERSION = 7;
/** Progress records wait at most this long, or this many, before their commit. */
const BATCH_MS = 100;
const BATCH_RECORDS = 1000;
/** How long a write waits for another process holding the file. */
const BUSY_TIMEOUT_MS = 5000;
const DAY_MS = 24 * 3600 * 1000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY, host TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL,
  connection_ref TEXT NOT NULL, fingerprint TEXT NOT NULL, status TEXT NOT NULL, owner_pid INTEGER,
  deleted_count INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  target TEXT, outcome TEXT,
  ended_at INTEGER, connection_label TEXT, dismissed INTEGER NOT NULL DEFAULT 0, versioning TEXT, undone_by TEXT);
CREATE INDEX IF NOT EXISTS jobs_by_fingerprint ON jobs (fingerprint);
CREATE INDEX IF NOT EXISTS jobs_by_creation ON jobs (created_at);
CREATE TABLE IF NOT EXISTS removals (
  id INTEGER PRIMARY KEY, job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  count INTEGER NOT NULL, data BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS removals_by_job ON removals (job_id, id);
CREATE TABLE IF NOT EXISTS objects (
  job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE, key TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,
  mtime_ms REAL, etag TEXT, version_id TEXT, checksum TEXT, finished_at INTEGER NOT NULL, verified TEXT, dev INTEGER, ino INTEGER, ctime_ms REAL,
  PRIMARY KEY (job_id, key));
CREATE TABLE IF NOT EXISTS multipart_uploads (
  job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE, key TEXT NOT NULL, upload_id TEXT NOT NULL, path TEXT NOT NULL,
  size INTEGER NOT NULL, mtime_ms REAL NOT NULL, part_size INTEGER NOT NULL, checksum_algorithm TEXT, started_at INTEGER, ino INTEGER, ctime_ms REAL,
  PRIMARY KEY (job_id, key));
CREATE TABLE IF NOT EXISTS parts (
  job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE, upload_id TEXT NOT NULL, part_number INTEGER NOT NULL,
  etag TEXT NOT NULL, checksum TEXT, PRIMARY KEY (upload_id, part_number));
CREATE TABLE IF NOT EXISTS downloads (
  job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE, key TEXT NOT NULL, path TEXT NOT NULL, temporary TEXT NOT NULL,
  etag TEXT, size INTEGER NOT NULL, part_size INTEGER NOT NULL, PRIMARY KEY (job_id, key));
CREATE TABLE IF NOT EXISTS ranges (
  job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE, key TEXT NOT NULL, part_number INTEGER NOT NULL,
  PRIMARY KEY (job_id, key, part_number));
${SPEED_TESTS_SCHEMA}
`;

/**
 * A job's identity for "run the same command again": same kind, same spec, same connection. Hosts
 * give specs with absolute paths, so the folder a command was run from does not matter: "big.bin"
 * in its folder and its full path from elsewhere are one job.
 */
export function jobFingerprint(kind: JobKind, spec: unknown, connectionRef: string): string {
  return createHash('sha256').update(JSON.stringify({ kind, spec, connectionRef })).digest('hex');
}

type Row = Record<string, unknown>;

export class Journal {
  readonly file: string;
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly now: () => number;
  /** Progress records not yet written. */
  private pending: { sql: string; values: SqlValue[] }[] = [];
  private commitTimer: NodeJS.Timeout | undefined;
  private readonly warn: (message: string) => void;
  private warned = false;

  /** Which process runs which job. */
  readonly locks: JobLocks;

  private constructor(
    file: string,
    db: DatabaseSync,
    now: () => number,
    warn: (message: string) => void,
    locks: JobLocks,
  ) {
    this.file = file;
    this.locks = locks;
    this.db = db;
    this.now = now;
    this.warn = warn;
  }

  /** Open (or create) the journal file; `:memory:` for one that lasts as long as the process. */
  static async open(
    file: string,
    options: {
      now?: () => number;
      warn?: (message: string) => void;
      busyTimeoutMs?: number;
      retention?: HistoryRetention;
    } = {},
  ): Promise<Journal> {
    const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
    const { DatabaseSync } = await loadSqlite();
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const db = new DatabaseSync(file, { timeout: busyTimeoutMs });
    try {
      // Another process (a second `barge`, the app) may be opening the same new file at this moment.
      await switchToWal(db, busyTimeoutMs);
      db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
      // One transaction that holds the write lock: the app and a `barge` may open an old journal at once.
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      db.close();
      throw error;
    }
    try {
      const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
      if (version > SCHEMA_VERSION)
        throw new Error(
          `The journal ${file} was written by a newer Barge (schema ${version}); move it aside to start afresh.`,
        );
      // Schema 2 records how each object was checked, and when each multipart upload was begun.
      const columns = (table: string) =>
        (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((column) => column.name);
      const objects = columns('objects');
      if (objects.length > 0 && !objects.includes('verified')) db.exec('ALTER TABLE objects ADD COLUMN verified TEXT');
      const uploads = columns('multipart_uploads');
      if (uploads.length > 0 && !uploads.includes('started_at'))
        db.exec('ALTER TABLE multipart_uploads ADD COLUMN started_at INTEGER');
      // Schema 3: the file's inode and change time, which a rewrite in place cannot put back.
      if (uploads.length > 0 && !uploads.includes('ino'))
        db.exec(
          'ALTER TABLE multipart_uploads ADD COLUMN ino INTEGER; ALTER TABLE multipart_uploads ADD COLUMN ' +
            'ctime_ms REAL',
        );
      // ... and where a download's target folder really was when the job first opened it.
      // Schema 4: the local file's identity with each finished object, to know on resume that it is
      // still the file sent or written (a file replaced, or rewritten with its time put back, is not).
      if (objects.length > 0 && !objects.includes('ino'))
        db.exec(
          'ALTER TABLE objects ADD COLUMN dev INTEGER; ALTER TABLE objects ADD COLUMN ino INTEGER; ALTER TABLE ' +
            'objects ADD COLUMN ctime_ms REAL',
        );
      const jobs = columns('jobs');
      if (jobs.length > 0 && !jobs.includes('target')) db.exec('ALTER TABLE jobs ADD COLUMN target TEXT');
      // Schema 5: where a job stood when its process last saw it, so it comes back as it was.
      if (jobs.length > 0 && !jobs.includes('outcome')) db.exec('ALTER TABLE jobs ADD COLUMN outcome TEXT');
      // Schema 6: the history. Jobs stay after they end, with when, on what, and what a delete removed.
      if (jobs.length > 0 && !jobs.includes('ended_at'))
        db.exec(
          ['ended_at INTEGER', 'connection_label TEXT', 'dismissed INTEGER NOT NULL DEFAULT 0', 'versioning TEXT']
            .concat('undone_by TEXT')
            .map((column) => `ALTER TABLE jobs ADD COLUMN ${column};`)
            .join(' '),
        );
      // Schema 7: each endpoint's last speed test (CREATE TABLE IF NOT EXISTS below adds it to a journal of 6).
      db.exec(SCHEMA);
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      db.close();
      throw error;
    }
    const locks =
      file === ':memory:' ? memoryLocks() : folderLocks(path.join(path.dirname(file), 'locks'), DatabaseSync);
    const journal = new Journal(
      file,
      db,
      options.now ?? Date.now,
      options.warn ?? ((message) => process.emitWarning(message)),
      locks,
    );
    journal.keepHistory(options.retention ?? DEFAULT_RETENTION);
    return journal;
  }

  close(): void {
    if (!this.db.isOpen) return;
    this.commit();
    this.db.close();
    this.locks.releaseAll();
  }

  /** Write the progress records held so far, in one transaction. */
  commit(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    if (this.pending.length === 0 || !this.db.isOpen) return;
    const records = this.pending;
    this.pending = [];
    this.guard(() => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        for (const record of records) this.statement(record.sql).run(...record.values);
        this.db.exec('COMMIT');
      } catch (error) {
        this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /**
   * Record a new job, run (and locked) by this process; when it was recorded (the job's creation, after a restart too).
   */
  addJob(
    job: Omit<JournaledJob, 'status' | 'createdAt' | 'updatedAt'> & {
      readonly fingerprint: string;
      readonly connectionLabel?: string;
    },
  ): number {
    const now = this.now();
    this.locks.acquire(job.id);
    this.run(
      'INSERT INTO jobs (id, host, kind, name, spec, connection_ref, fingerprint, status, owner_pid, ' +
        'created_at, updated_at, connection_label) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      job.id,
      job.host,
      job.kind,
      job.name,
      JSON.stringify(job.spec),
      job.connectionRef,
      job.fingerprint,
      'active',
      process.pid,
      now,
      now,
      job.connectionLabel ?? null,
    );
    return now;
  }

  /** The newest unfinished job with this fingerprint, to continue it (another process may be running it: see claim). */
  findResumable(host: JournalHost, fingerprint: string): JournaledJob | undefined {
    const row = this.get(
      "SELECT * FROM jobs WHERE host = ? AND fingerprint = ? AND status IN ('active', 'failed') AND dismissed = 0 " +
        'ORDER BY created_at DESC',
      host,
      fingerprint,
    );
    return row ? toJob(row) : undefined;
  }

  /** Unfinished jobs of this host that no running process holds (to bring back after a restart). */
  unfinished(host: JournalHost): JournaledJob[] {
    const sql =
      "SELECT * FROM jobs WHERE host = ? AND status IN ('active', 'failed') AND dismissed = 0 ORDER BY created_at";
    return this.all(sql, host)
      .filter((row) => !this.locks.heldElsewhere(String(row.id)))
      .map(toJob);
  }

  /** This process takes the job over; false (with the holder's pid, if known) when another process runs it. */
  claim(id: string): { ok: true } | { ok: false; holder: number | undefined } {
    if (!this.locks.acquire(id)) return { ok: false, holder: this.locks.holder(id) };
    this.run('UPDATE jobs SET owner_pid = ?, updated_at = ? WHERE id = ?', process.pid, this.now(), id);
    return { ok: true };
  }

  /**
   * This process runs the command `fingerprint` names, until releaseCommand; false (with the
   * holder's pid) when another process does. Taken before the journal is searched, so two runs of
   * one command started at the same moment cannot both find nothing and both start.
   */
  claimCommand(fingerprint: string): { ok: true } | { ok: false; holder: number | undefined } {
    const id = `command-${fingerprint.slice(0, 40)}`;
    return this.locks.acquire(id) ? { ok: true } : { ok: false, holder: this.locks.holder(id) };
  }

  releaseCommand(fingerprint: string): void {
    this.locks.discard(`command-${fingerprint.slice(0, 40)}`);
  }

  /** A new status, with where the job then stands (a failure's counts), or none (it runs again). */
  setStatus(id: string, status: JournalStatus, outcome: string | null = null): void {
    const now = this.now();
    const ended = status === 'active' ? null : now;
    this.run(
      'UPDATE jobs SET status = ?, outcome = ?, updated_at = ?, ended_at = ? WHERE id = ?',
      status,
      outcome,
      now,
      ended,
      id,
    );
  }

  /** Where an unfinished job stands as its process stops (the next start shows it so). */
  setOutcome(id: string, outcome: string): void {
    this.run('UPDATE jobs SET outcome = ? WHERE id = ?', outcome, id);
  }

  /**
   * The job leaves the host's list (cleared, cancelled, or done in a command): it is never resumed or
   * brought back again, and what it kept for that (parts, ranges, temporary files) goes. Its history
   * stays: its record, its receipt, what it removed. One unfinished is counted cancelled.
   */
  forget(id: string): void {
    this.run(
      "UPDATE jobs SET dismissed = 1, status = CASE status WHEN 'active' THEN 'cancelled' ELSE status END, " +
        'ended_at = coalesce(ended_at, ?) WHERE id = ?',
      this.now(),
      id,
    );
    for (const table of ['parts', 'ranges', 'downloads', 'multipart_uploads'])
      this.run(`DELETE FROM ${table} WHERE job_id = ?`, id);
    this.locks.discard(id);
  }

  /** A job kept for its history only: never resumed, nor brought back after a restart. */
  historyOnly(id: string): void {
    this.run('UPDATE jobs SET dismissed = 1 WHERE id = ?', id);
  }

  /** A job of the history back in its host's list (to be retried), as it ended. */
  bringBack(id: string): void {
    this.run(
      "UPDATE jobs SET dismissed = 0, status = CASE status WHEN 'active' THEN 'failed' ELSE status END WHERE id = ?",
      id,
    );
  }

  /**
   * Ended jobs beyond the retention go, oldest first, with all they recorded; unfinished ones stay
   * (they may still be resumed, a failed one too), whatever their age.
   */
  private keepHistory(retention: HistoryRetention): void {
    // A failed job still in its host's list may be resumed: it stays until it is cleared. One kept for its
    // history only (a browser's upload) may be running in another process: it stays until it ends.
    const ended = "(status IN ('completed', 'cancelled') OR (dismissed = 1 AND status <> 'active'))";
    const before = this.now() - retention.days * DAY_MS;
    this.run(`DELETE FROM jobs WHERE ${ended} AND coalesce(ended_at, updated_at) < ?`, before);
    this.run(
      `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE ${ended} ORDER BY created_at DESC LIMIT -1 OFFSET ?)`,
      Math.max(0, Math.floor(retention.jobs)),
    );
  }

  /** Jobs newest first, as many as asked, and how many the query matches in all. */
  history(query: HistoryQuery = {}): { jobs: HistoryRecord[]; total: number } {
    const where: string[] = [];
    const values: SqlValue[] = [];
    if (query.kinds && query.kinds.length > 0) {
      where.push(`kind IN (${query.kinds.map(() => '?').join(', ')})`);
      values.push(...query.kinds);
    }
    if (query.hosts) {
      where.push(`host IN (${query.hosts.map(() => '?').join(', ') || 'NULL'})`);
      values.push(...query.hosts);
    }
    if (query.failedOnly) where.push("status = 'failed'");
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const total = Number(this.get(`SELECT count(*) AS n FROM jobs ${clause}`, ...values)?.n ?? 0);
    const rows = this.all(
      `SELECT * FROM jobs ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      ...values,
      query.limit ?? 100,
      query.offset ?? 0,
    );
    return { jobs: rows.map(toHistoryRecord), total };
  }

  /** One job of the history, by its ID. */
  historyRecord(id: string): HistoryRecord | undefined {
    const row = this.get('SELECT * FROM jobs WHERE id = ?', id);
    return row ? toHistoryRecord(row) : undefined;
  }

  /** The IDs of recorded jobs that begin with `start`, newest first (a job is named by its ID's start, as git does). */
  idsStartingWith(start: string, limit = 2): string[] {
    const pattern = `${start.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const sql = "SELECT id FROM jobs WHERE id LIKE ? ESCAPE '\\' ORDER BY created_at DESC LIMIT ?";
    return this.all(sql, pattern, limit).map((row) => String(row.id));
  }

  /** A page of what a job removed (whole batches are skipped by their count), and how many in all. */
  removalsPage(id: string, offset: number, limit: number): { removals: Removal[]; total: number } {
    const total = Number(this.get('SELECT coalesce(sum(count), 0) AS n FROM removals WHERE job_id = ?', id)?.n ?? 0);
    const removals: Removal[] = [];
    let skipped = 0;
    // Counts first (small), then only the batches the page needs (each up to 1,000 removals).
    for (const row of this.all('SELECT id, count FROM removals WHERE job_id = ? ORDER BY id', id)) {
      if (removals.length >= limit) break;
      const count = Number(row.count);
      if (skipped + count <= offset) {
        skipped += count;
        continue;
      }
      const data = this.get('SELECT data FROM removals WHERE id = ?', Number(row.id))?.data as Uint8Array;
      for (const removal of unpackRemovals(data)) {
        if (skipped < offset) skipped += 1;
        else if (removals.length < limit) removals.push(removal);
      }
    }
    return { removals, total };
  }

  /** What a job removed, in the order its batches were deleted. */
  *removals(id: string): Generator<Removal> {
    if (!this.db.isOpen) return;
    this.commit();
    const rows = this.statement('SELECT data FROM removals WHERE job_id = ? ORDER BY id').iterate(id);
    for (const row of rows as Iterable<{ data: Uint8Array }>) yield* unpackRemovals(row.data);
  }

  /** What an interrupted job left outside the journal: multipart uploads on the server, temporary files here. */
  leftovers(id: string): {
    uploads: { key: string; uploadId: string; startedAt?: number }[];
    temporaryFiles: string[];
    downloadKeys: string[];
  } {
    const downloads = this.all('SELECT key, temporary FROM downloads WHERE job_id = ?', id);
    return {
      uploads: this.all('SELECT key, upload_id, started_at FROM multipart_uploads WHERE job_id = ?', id).map((row) => ({
        key: String(row.key),
        uploadId: String(row.upload_id),
        startedAt: row.started_at === null ? undefined : Number(row.started_at),
      })),
      temporaryFiles: downloads.map((row) => String(row.temporary)),
      downloadKeys: downloads.map((row) => String(row.key)),
    };
  }

  /** Every object the job finished: key, local path, size, ETag, version ID, checksum. */
  *receipt(id: string): Generator<ReceiptLine> {
    if (!this.db.isOpen) return;
    this.commit();
    for (const row of this.statement('SELECT * FROM objects WHERE job_id = ? ORDER BY key').iterate(
      id,
    ) as Iterable<Row>) {
      yield { ...toFinishedObject(row), finishedAt: Number(row.finished_at) };
    }
  }

  /** The recording side, for one job's body. */
  forJob(id: string, resumed: boolean): JobJournal {
    return {
      resumed,
      finishedObject: (key) => {
        const row = this.get('SELECT * FROM objects WHERE job_id = ? AND key = ?', id, key);
        return row ? toFinishedObject(row) : undefined;
      },
      objectFinished: (object, options) =>
        (options?.now ? this.run.bind(this) : this.record.bind(this))(
          'INSERT OR REPLACE INTO objects (job_id, key, path, size, mtime_ms, etag, version_id, checksum, ' +
            'verified, finished_at, dev, ino, ctime_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          id,
          object.key,
          object.path,
          object.size,
          object.local?.mtimeMs ?? object.mtimeMs ?? null,
          object.etag ?? null,
          object.versionId ?? null,
          object.checksum ?? null,
          object.verified ?? null,
          this.now(),
          object.local?.dev ?? null,
          object.local?.ino ?? null,
          object.local?.ctimeMs ?? null,
        ),
      multipart: (key) => {
        const row = this.get('SELECT * FROM multipart_uploads WHERE job_id = ? AND key = ?', id, key);
        return row
          ? {
              uploadId: String(row.upload_id),
              path: String(row.path),
              size: Number(row.size),
              mtimeMs: Number(row.mtime_ms),
              partSize: Number(row.part_size),
              checksumAlgorithm: optionalString(row.checksum_algorithm),
              startedAt: row.started_at === null || row.started_at === undefined ? undefined : Number(row.started_at),
              ino: row.ino === null || row.ino === undefined ? undefined : Number(row.ino),
              ctimeMs: row.ctime_ms === null || row.ctime_ms === undefined ? undefined : Number(row.ctime_ms),
            }
          : undefined;
      },
      multipartStarted: (key, record: MultipartRecord) =>
        this.run(
          'INSERT OR REPLACE INTO multipart_uploads (job_id, key, upload_id, path, size, mtime_ms, part_size, ' +
            'checksum_algorithm, started_at, ino, ctime_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          id,
          key,
          record.uploadId,
          record.path,
          record.size,
          record.mtimeMs,
          record.partSize,
          record.checksumAlgorithm ?? null,
          record.startedAt ?? this.now(),
          record.ino ?? null,
          record.ctimeMs ?? null,
        ),
      parts: (uploadId) =>
        this.all('SELECT * FROM parts WHERE upload_id = ? ORDER BY part_number', uploadId).map((row): PartRecord => ({
          partNumber: Number(row.part_number),
          etag: String(row.etag),
          checksum: optionalString(row.checksum),
        })),
      partFinished: (uploadId, part) =>
        this.record(
          'INSERT OR REPLACE INTO parts (job_id, upload_id, part_number, etag, checksum) VALUES (?, ?, ?, ?, ?)',
          id,
          uploadId,
          part.partNumber,
          part.etag,
          part.checksum ?? null,
        ),
      multipartEnded: (key, uploadId) => {
        this.record('DELETE FROM parts WHERE upload_id = ?', uploadId);
        this.record('DELETE FROM multipart_uploads WHERE job_id = ? AND key = ?', id, key);
      },
      download: (key) => {
        const row = this.get('SELECT * FROM downloads WHERE job_id = ? AND key = ?', id, key);
        return row
          ? {
              path: String(row.path),
              temporary: String(row.temporary),
              etag: optionalString(row.etag),
              size: Number(row.size),
              partSize: Number(row.part_size),
            }
          : undefined;
      },
      // Held with the progress records: one download per small file must not cost a commit each, and
      // a temporary file the last 100 ms did not record is at worst left beside its target, never
      // under the target's name.
      downloadStarted: (key, record: DownloadRecord) => {
        this.record('DELETE FROM ranges WHERE job_id = ? AND key = ?', id, key);
        this.record(
          'INSERT OR REPLACE INTO downloads (job_id, key, path, temporary, etag, size, part_size) VALUES (?, ' +
            '?, ?, ?, ?, ?, ?)',
          id,
          key,
          record.path,
          record.temporary,
          record.etag ?? null,
          record.size,
          record.partSize,
        );
      },
      rangesFinished: (key) =>
        this.all('SELECT part_number FROM ranges WHERE job_id = ? AND key = ?', id, key).map((row) =>
          Number(row.part_number),
        ),
      rangeFinished: (key, partNumber) =>
        this.record('INSERT OR IGNORE INTO ranges (job_id, key, part_number) VALUES (?, ?, ?)', id, key, partNumber),
      downloadEnded: (key) => {
        this.record('DELETE FROM ranges WHERE job_id = ? AND key = ?', id, key);
        this.record('DELETE FROM downloads WHERE job_id = ? AND key = ?', id, key);
      },
      target: () => optionalString(this.get('SELECT target FROM jobs WHERE id = ?', id)?.target),
      targetOpened: (real) => this.run('UPDATE jobs SET target = ? WHERE id = ? AND target IS NULL', real, id),
      strays: () => {
        const dead = (jobId: string) => jobId !== id && !this.locks.heldHere(jobId) && !this.locks.heldElsewhere(jobId);
        const uploads = this.all(
          'SELECT m.job_id, m.key, m.upload_id, j.spec FROM multipart_uploads m JOIN jobs j ON j.id = m.job_id ' +
            "WHERE m.upload_id != ''",
        )
          .filter((row) => dead(String(row.job_id)))
          .map((row) => ({
            jobId: String(row.job_id),
            bucket: String((JSON.parse(String(row.spec)) as { bucket?: unknown }).bucket),
            key: String(row.key),
            uploadId: String(row.upload_id),
          }));
        const downloads = this.all('SELECT job_id, key, path, temporary FROM downloads')
          .filter((row) => dead(String(row.job_id)))
          .map((row) => ({
            jobId: String(row.job_id),
            key: String(row.key),
            path: String(row.path),
            temporary: String(row.temporary),
          }));
        return { uploads, downloads };
      },
      strayGone: (kind, jobId, key) => {
        if (kind === 'upload') this.run('DELETE FROM multipart_uploads WHERE job_id = ? AND key = ?', jobId, key);
        else this.run('DELETE FROM downloads WHERE job_id = ? AND key = ?', jobId, key);
      },
      deletedCount: () => Number(this.get('SELECT deleted_count FROM jobs WHERE id = ?', id)?.deleted_count ?? 0),
      deleteBatchFinished: (count, removed = []) => {
        this.record(
          'UPDATE jobs SET deleted_count = deleted_count + ?, updated_at = ? WHERE id = ?',
          count,
          this.now(),
          id,
        );
        if (removed.length > 0)
          this.record(
            'INSERT INTO removals (job_id, count, data) VALUES (?, ?, ?)',
            id,
            removed.length,
            packRemovals(removed),
          );
      },
      versioningSeen: (state) => this.run('UPDATE jobs SET versioning = ? WHERE id = ?', state, id),
      removalsOf: (jobId) => this.removals(jobId),
      // An undone delete is never resumed: run again, it is a new delete, with markers of its own to undo.
      undid: (jobId) => this.run('UPDATE jobs SET undone_by = ?, dismissed = 1 WHERE id = ?', id, jobId),
    };
  }

  // Speed tests (issue 29 §2): the last result of each connection on each endpoint, as JSON.

  /** Keep a speed test's result as the last of its connection on its endpoint. */
  saveSpeedTest(test: SavedSpeedTestRow): void {
    this.run(
      'INSERT OR REPLACE INTO speed_tests (endpoint, connection_ref, measured_at, result) VALUES (?, ?, ?, ?)',
      test.endpoint,
      test.connectionRef,
      test.measuredAt,
      test.result,
    );
  }

  /** The last speed test on an endpoint: this connection's where it has one, else any connection's there. */
  lastSpeedTest(endpoint: string, connectionRef: string | undefined): SavedSpeedTestRow | undefined {
    const row = this.get(
      'SELECT * FROM speed_tests WHERE endpoint = ? ORDER BY (connection_ref = ?) DESC, measured_at DESC LIMIT 1',
      endpoint,
      connectionRef ?? null,
    );
    if (!row) return undefined;
    return {
      endpoint: String(row.endpoint),
      connectionRef: String(row.connection_ref),
      measuredAt: Number(row.measured_at),
      result: String(row.result),
    };
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // Once closed (the app quitting), work still in flight records nothing: the next start resumes from
  // what was recorded, which is never more than what was done.
  /** A write that must be in the file before the caller goes on: written now, after what is held. */
  private run(sql: string, ...values: SqlValue[]): void {
    if (!this.db.isOpen) return;
    this.commit();
    this.guard(() => this.statement(sql).run(...values));
  }

  /** A progress record: held, and written with the others within BATCH_MS. */
  private record(sql: string, ...values: SqlValue[]): void {
    if (!this.db.isOpen) return;
    this.pending.push({ sql, values });
    if (this.pending.length >= BATCH_RECORDS) this.commit();
    else if (!this.commitTimer) {
      this.commitTimer = setTimeout(() => this.commit(), BATCH_MS);
      this.commitTimer.unref();
    }
  }

  // Reads see every record: what is held is written first.
  private get(sql: string, ...values: SqlValue[]): Row | undefined {
    if (!this.db.isOpen) return undefined;
    this.commit();
    return this.guard(() => this.statement(sql).get(...values) as Row | undefined);
  }

  private all(sql: string, ...values: SqlValue[]): Row[] {
    if (!this.db.isOpen) return [];
    this.commit();
    return this.guard(() => this.statement(sql).all(...values) as Row[]) ?? [];
  }

  /** Run a database call; a failure is told once and otherwise ignored (see the header). */
  private guard<T>(call: () => T): T | undefined {
    try {
      return call();
    } catch (error) {
      if (!this.warned) {
        this.warned = true;
        this.warn(
          `The job journal ${this.file} could not be written (${(error as Error).message}); transfers go on, ` +
            `but may redo work after a crash.`,
        );
      }
      return undefined;
    }
  }
}

type SqlValue = string | number | null | Uint8Array;

function optionalString(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

function toJob(row: Row): JournaledJob {
  return {
    id: String(row.id),
    host: row.host as JournalHost,
    kind: row.kind as JobKind,
    name: String(row.name),
    spec: JSON.parse(String(row.spec)),
    connectionRef: String(row.connection_ref),
    status: row.status as JournalStatus,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at ?? row.created_at),
    ...(typeof row.outcome === 'string' ? { outcome: row.outcome } : {}),
  };
}

function toHistoryRecord(row: Row): HistoryRecord {
  return {
    ...toJob(row),
    ...(row.ended_at === null || row.ended_at === undefined ? {} : { endedAt: Number(row.ended_at) }),
    ...(typeof row.connection_label === 'string' ? { connectionLabel: row.connection_label } : {}),
    dismissed: Number(row.dismissed ?? 0) === 1,
    ...(typeof row.versioning === 'string' ? { versioning: row.versioning } : {}),
    ...(typeof row.undone_by === 'string' ? { undoneBy: row.undone_by } : {}),
    removedCount: Number(row.deleted_count ?? 0),
  };
}

function toFinishedObject(row: Row): FinishedObject {
  const mtimeMs = optionalNumber(row.mtime_ms);
  const [dev, ino, ctimeMs] = [optionalNumber(row.dev), optionalNumber(row.ino), optionalNumber(row.ctime_ms)];
  return {
    key: String(row.key),
    path: String(row.path),
    size: Number(row.size),
    mtimeMs,
    etag: optionalString(row.etag),
    versionId: optionalString(row.version_id),
    checksum: optionalString(row.checksum),
    verified: isVerification(row.verified) ? row.verified : undefined,
    local:
      dev !== undefined && ino !== undefined && ctimeMs !== undefined && mtimeMs !== undefined
        ? { dev, ino, ctimeMs, mtimeMs, size: Number(row.size) }
        : undefined,
  };
}

function optionalNumber(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}
