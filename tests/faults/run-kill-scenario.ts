// The engine killed with SIGKILL mid-job, then started again: the fault is the kill itself.
//
// A child process runs the job the way the app does, journaled (tests/support/journaled-engine.ts),
// through the HTTP fault proxy, which slows each request so the kill lands mid-job and records
// every request. Once the journal holds some finished parts or ranges, the child is killed. A new
// engine then brings the job back from the journal (as the app does at start: paused), resumes it,
// and the run is judged like any scenario, plus: no part the journal had recorded is sent again,
// and no range it had recorded is fetched again.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Engine } from '../../main/engine/engine.ts';
import { Journal } from '../../main/engine/journal/journal.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { JobSnapshot } from '../../src/jobs.ts';
import type { FaultLab } from './fault-lab.ts';
import { checkDownloadedFolder, checkNoIncompleteUploads, checkStoredObjects } from './integrity.ts';
import { PAYLOAD_FOLDER_NAME } from './payload.ts';
import type { Payload } from './payload.ts';
import type { ScenarioOutcome } from './run-scenario.ts';
import { MATRIX_SETTINGS } from './scenarios.ts';
import type { Direction } from './scenarios.ts';

export const KILL_SCENARIO = {
  id: 'engine-killed',
  description:
    'the engine process killed with SIGKILL mid-job, then started again: the job comes back from the journal and resumes',
} as const;

/** Each request is held this long, so the job is still running when the journal shows progress. */
const REQUEST_DELAY_MS = 150;
/** Kill once the journal holds this many finished parts or ranges. */
const KILL_AFTER_RECORDS = 2;
const CHILD = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'support', 'journaled-engine.ts');

interface Recorded {
  /** "uploadId partNumber" of the parts the journal holds. */
  readonly parts: ReadonlySet<string>;
  /** Per key of a multipart upload begun: its parts in all, and how many the journal holds. */
  readonly uploads: ReadonlyMap<string, { readonly parts: number; readonly recorded: number }>;
  /** "key bytes=start-" of the ranges the journal holds. */
  readonly ranges: ReadonlySet<string>;
}

export async function runKillScenario(lab: FaultLab, direction: Direction, payload: Payload): Promise<ScenarioOutcome> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'barge-faults-kill-'));
  const journalFile = path.join(workDir, 'journal.sqlite');
  const seeder = new Engine({ settings: MATRIX_SETTINGS });
  let engine: Engine | undefined;
  try {
    const straight = await seeder.connect(lab.connectionConfig('direct'));
    const bucket = `faults-${randomUUID().slice(0, 18)}`;
    await createBucket(straight, bucket);
    if (direction === 'download') {
      const seeded = await seeder.upload(straight, { sources: [payload.root], bucket, destination: '' }).finished();
      if (seeded.state.status !== 'completed') throw new Error(`seeding failed: ${JSON.stringify(seeded.state)}`);
    }
    const downloadFolder = path.join(workDir, 'downloaded');
    const spec =
      direction === 'upload'
        ? { sources: [payload.root], bucket, destination: '' }
        : { bucket, prefixes: [`${PAYLOAD_FOLDER_NAME}/`], targetFolder: downloadFolder };

    const started = Date.now();
    const recorded = await runAndKill(lab, journalFile, direction, spec);
    lab.httpProxy.seen.length = 0;

    engine = new Engine({ journal: await Journal.open(journalFile), host: 'app', settings: MATRIX_SETTINGS });
    const viaProxy = await engine.connect(lab.connectionConfig('http-proxy'));
    const restored = engine.restore(async () => viaProxy);
    if (restored.length !== 1)
      return outcome(direction, undefined, 0, Date.now() - started, [
        `${restored.length} jobs came back from the journal, expected 1`,
      ]);
    const job = restored[0]!;
    if (job.state.status !== 'paused')
      return outcome(direction, undefined, 0, Date.now() - started, [
        `the restored job was ${job.state.status}, not paused`,
      ]);
    job.resume();
    const end = await job.finished();
    const problems = [
      ...endProblems(end, payload),
      ...resentWork(lab, recorded),
      ...(direction === 'upload'
        ? await checkStoredObjects(straight.client, bucket, payload)
        : await checkDownloadedFolder(path.join(downloadFolder, PAYLOAD_FOLDER_NAME), payload)),
      ...(await checkNoIncompleteUploads(straight.client, bucket)),
    ];
    return outcome(direction, end, job.retryCount, Date.now() - started, problems);
  } finally {
    lab.httpProxy.setRule(() => undefined);
    await engine?.close();
    await seeder.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Run the job in a child process and kill it (SIGKILL) once the journal shows progress; what the journal then holds.
 */
async function runAndKill(lab: FaultLab, journalFile: string, direction: Direction, spec: object): Promise<Recorded> {
  lab.httpProxy.setRule(() => ({ kind: 'delay', ms: REQUEST_DELAY_MS }));
  const child = spawn(
    process.execPath,
    [CHILD, journalFile, JSON.stringify(lab.connectionConfig('http-proxy')), direction, JSON.stringify(spec), 'lab'],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  try {
    while (countRecords(journalFile) < KILL_AFTER_RECORDS) {
      if (child.exitCode !== null) throw new Error('the engine finished before it could be killed');
      if (Date.now() > deadline) throw new Error('the journal recorded no progress in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    child.kill('SIGKILL');
    await exited;
    lab.httpProxy.setRule(() => undefined);
  }
  return readRecorded(journalFile);
}

function withJournal<T>(file: string, read: (db: DatabaseSync) => T, fallback: T): T {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    return read(db);
  } catch {
    return fallback;
  } finally {
    db?.close();
  }
}

function countRecords(file: string): number {
  return withJournal(
    file,
    (db) =>
      ['parts', 'ranges'].reduce(
        (sum, table) => sum + Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n),
        0,
      ),
    0,
  );
}

function readRecorded(file: string): Recorded {
  return withJournal(
    file,
    (db) => ({
      parts: new Set(
        (
          db.prepare('SELECT upload_id, part_number FROM parts').all() as { upload_id: string; part_number: number }[]
        ).map((p) => `${p.upload_id} ${p.part_number}`),
      ),
      uploads: new Map(
        (
          db
            .prepare(
              'SELECT m.key, m.size, m.part_size, (SELECT count(*) FROM parts p WHERE p.upload_id = m.upload_id) AS recorded FROM multipart_uploads m',
            )
            .all() as { key: string; size: number; part_size: number; recorded: number }[]
        ).map((u) => [u.key, { parts: Math.ceil(u.size / u.part_size), recorded: u.recorded }]),
      ),
      ranges: new Set(
        (
          db
            .prepare('SELECT r.key, r.part_number, d.part_size FROM ranges r JOIN downloads d USING (job_id, key)')
            .all() as { key: string; part_number: number; part_size: number }[]
        ).map((r) => `${r.key} bytes=${(r.part_number - 1) * r.part_size}-`),
      ),
    }),
    { parts: new Set(), uploads: new Map(), ranges: new Set() },
  );
}

/** Parts and ranges the journal had recorded that the resumed job sent or fetched again. */
function resentWork(lab: FaultLab, recorded: Recorded): string[] {
  const problems: string[] = [];
  const partsSent = new Map<string, number>();
  for (const request of lab.httpProxy.seen) {
    const url = new URL(request.url, 'http://proxy');
    const partNumber = url.searchParams.get('partNumber');
    const uploadId = url.searchParams.get('uploadId');
    if (request.method === 'PUT' && partNumber && uploadId && recorded.parts.has(`${uploadId} ${partNumber}`))
      problems.push(`part ${partNumber} of ${url.pathname} was sent again`);
    const key = decodeURIComponent(url.pathname.split('/').slice(2).join('/'));
    // Successful part uploads only: a retried attempt is not work done twice.
    if (request.method === 'PUT' && partNumber && request.status === 200)
      partsSent.set(key, (partsSent.get(key) ?? 0) + 1);
    const range = request.range;
    if (request.method === 'GET' && range && recorded.ranges.has(`${key} ${range.replace(/-\d*$/, '-')}`))
      problems.push(`${range} of ${key} was fetched again`);
  }
  // A file whose upload started over (a new upload ID) would send its recorded parts again too.
  for (const [key, upload] of recorded.uploads) {
    const sent = partsSent.get(key) ?? 0;
    if (sent > upload.parts - upload.recorded)
      problems.push(
        `${key}: ${sent} parts sent after the restart, but only ${upload.parts - upload.recorded} of ${upload.parts} were missing`,
      );
  }
  if (recorded.parts.size + recorded.ranges.size === 0)
    problems.push('the kill came before the journal recorded anything: nothing was proven');
  return problems;
}

function endProblems(end: JobSnapshot, payload: Payload): string[] {
  if (end.state.status !== 'completed')
    return [
      `the resumed job ended ${end.state.status}${end.state.status === 'failed' ? `: ${end.state.error.code}: ${end.state.error.message}` : ''}`,
    ];
  const problems: string[] = [];
  if (end.progress.objectsDone !== payload.files.length)
    problems.push(`the job reports ${end.progress.objectsDone} objects done, expected ${payload.files.length}`);
  if (end.progress.bytesDone !== payload.totalBytes)
    problems.push(`the job reports ${end.progress.bytesDone} bytes done, expected ${payload.totalBytes}`);
  return problems;
}

function outcome(
  direction: Direction,
  end: JobSnapshot | undefined,
  retries: number,
  durationMs: number,
  problems: string[],
): ScenarioOutcome {
  return {
    scenario: KILL_SCENARIO.id,
    direction,
    objectsDone: end?.progress.objectsDone ?? 0,
    objectsTotal: end?.progress.objectsTotal ?? 0,
    bytesDone: end?.progress.bytesDone ?? 0,
    retries,
    problems,
    durationMs,
  };
}
