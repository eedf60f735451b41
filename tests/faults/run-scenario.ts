// Run one fault scenario in one direction and judge it: the job must complete despite the fault,
// and then every object must be intact, no multipart upload left over, no partial file in sight.
//
// The engine is used as every host uses it (Engine, connect, upload/download, job.finished()).
// Each run gets a fresh engine and bucket; downloads are seeded through a straight connection first,
// so only the job under test meets the fault.

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Engine } from '../../main/engine/engine.ts';
import type { Job } from '../../main/engine/jobs/job.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import type { JobSnapshot } from '../../src/jobs.ts';
import type { FaultLab } from './fault-lab.ts';
import { checkDownloadedFolder, checkNoIncompleteUploads, checkStoredObjects } from './integrity.ts';
import { PAYLOAD_FOLDER_NAME } from './payload.ts';
import type { Payload } from './payload.ts';
import { MATRIX_SETTINGS } from './scenarios.ts';
import type { Direction, FaultContext, FaultScenario } from './scenarios.ts';

const PROGRESS_POLL_MS = 10;

export interface ScenarioOutcome {
  readonly scenario: string;
  readonly direction: Direction;
  /** As the job reports them when it ends. */
  readonly objectsDone: number;
  readonly objectsTotal: number;
  readonly bytesDone: number;
  readonly retries: number;
  /** Empty when the scenario passed. */
  readonly problems: readonly string[];
  /** From the job's start to its end (seeding and checks not included). */
  readonly durationMs: number;
}

export async function runScenario(
  lab: FaultLab,
  scenario: FaultScenario,
  direction: Direction,
  payload: Payload,
): Promise<ScenarioOutcome> {
  const engine = new Engine({ settings: { ...MATRIX_SETTINGS, ...scenario.settings } });
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'barge-faults-'));
  try {
    const straight = await engine.connect(lab.connectionConfig('direct'));
    const faulty = await engine.connect(lab.connectionConfig(scenario.route));
    const bucket = `faults-${randomUUID().slice(0, 18)}`;
    await createBucket(straight, bucket);
    if (direction === 'download') await seed(engine, straight, bucket, payload);

    const downloadFolder = path.join(workDir, 'downloaded');
    const started = Date.now();
    const job =
      direction === 'upload'
        ? engine.upload(faulty, { sources: [payload.root], bucket, destination: '' })
        : engine.download(faulty, { bucket, prefixes: [`${PAYLOAD_FOLDER_NAME}/`], targetFolder: downloadFolder });
    const end = await withFault(lab, scenario, direction, payload, job);
    const durationMs = Date.now() - started;

    const problems = [
      ...jobProblems(end, payload),
      ...faultProblems(scenario, job.retryCount, durationMs, payload),
      ...(direction === 'upload'
        ? await checkStoredObjects(straight.client, bucket, payload)
        : await checkDownloadedFolder(path.join(downloadFolder, PAYLOAD_FOLDER_NAME), payload)),
      ...(await checkNoIncompleteUploads(straight.client, bucket)),
    ];
    return {
      scenario: scenario.id,
      direction,
      objectsDone: end.progress.objectsDone,
      objectsTotal: end.progress.objectsTotal,
      bytesDone: end.progress.bytesDone,
      retries: job.retryCount,
      problems,
      durationMs,
    };
  } finally {
    try {
      await lab.clearFaults();
    } finally {
      await engine.close();
      await rm(workDir, { recursive: true, force: true });
    }
  }
}

/** Run the scenario's fault beside the job until both are over. */
async function withFault(
  lab: FaultLab,
  scenario: FaultScenario,
  direction: Direction,
  payload: Payload,
  job: Job,
): Promise<JobSnapshot> {
  const jobEnded = new AbortController();
  const context: FaultContext = {
    lab,
    direction,
    dataStream: direction === 'upload' ? 'upstream' : 'downstream',
    totalBytes: payload.totalBytes,
    jobEnded: jobEnded.signal,
    bytesMoved: (bytes) => bytesMoved(job, bytes, jobEnded.signal),
  };
  const fault = scenario.inject(context);
  // A fault that throws (toxiproxy refused a toxic) must not leave the job hanging on it, nor hide.
  const faultError = fault.then(
    () => undefined,
    (error: unknown) => error,
  );
  const end = await job.finished();
  jobEnded.abort();
  const error = await faultError;
  if (error) throw error;
  return end;
}

/** Resolves once the job has moved `bytes` bytes, or as soon as it ends. */
async function bytesMoved(job: Job, bytes: number, jobEnded: AbortSignal): Promise<void> {
  while (!jobEnded.aborted && job.snapshot().progress.bytesDone < bytes) {
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
  }
}

/** Whether the fault reached the job at all: a scenario that never met its fault proves nothing. */
function faultProblems(scenario: FaultScenario, retries: number, durationMs: number, payload: Payload): string[] {
  const problems: string[] = [];
  if (scenario.expectsRetries && retries === 0) problems.push('the fault never hit: no request was retried');
  const minimumMs = scenario.minimumDurationMs?.(payload.totalBytes);
  if (minimumMs !== undefined && durationMs < minimumMs)
    problems.push(
      `the fault never hit: the job took ${durationMs} ms, under the ${Math.round(minimumMs)} ms it allows`,
    );
  return problems;
}

function jobProblems(end: JobSnapshot, payload: Payload): string[] {
  if (end.state.status === 'failed') {
    const error = end.state.error;
    // A job-wide error is also its first item's: name only the items that add something.
    const items = end.itemErrors
      .filter((item) => item.message !== error.message)
      .slice(0, 3)
      .map((item) => `${item.item}: ${item.code}: ${item.message}`);
    return [`the job failed: ${error.code}: ${error.message}${items.length ? ` [${items.join('; ')}]` : ''}`];
  }
  if (end.state.status !== 'completed') return [`the job ended ${end.state.status}`];
  const problems: string[] = [];
  if (end.progress.objectsDone !== payload.files.length)
    problems.push(`the job reports ${end.progress.objectsDone} objects done, expected ${payload.files.length}`);
  // Bytes of failed attempts are taken back: at the end, each byte counts once.
  if (end.progress.bytesDone !== payload.totalBytes)
    problems.push(`the job reports ${end.progress.bytesDone} bytes done, expected ${payload.totalBytes}`);
  return problems;
}

async function seed(engine: Engine, connection: S3Connection, bucket: string, payload: Payload): Promise<void> {
  const end = await engine.upload(connection, { sources: [payload.root], bucket, destination: '' }).finished();
  if (end.state.status !== 'completed')
    throw new Error(`seeding the bucket for a download scenario failed: ${JSON.stringify(end.state)}`);
}
