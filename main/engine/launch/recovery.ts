// Jobs that outlive their process: started under the journal, found again when the same command
// runs again, brought back after a crash, and cleaned up after when no run will come for them.
//
// The one owner of a job's walk through the journal: its spec is validated going in (the engine)
// and coming back (here), its fingerprint taken once, its leftovers (multipart uploads begun,
// temporary files) discarded here and nowhere else.

import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { EarlierRun, JobKind, JobState } from '../../../src/jobs.ts';
import { BargeError } from '../errors.ts';
import type { JobBody, JobRuntime, JobTarget } from '../jobs/job.ts';
import { jobTarget } from '../jobs/job-specs.ts';
import type { JobSpecs } from '../jobs/job-specs.ts';
import { abortMultipartUpload, abortUnrecordedUploads } from '../s3/multipart-aborts.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import type { JobJournal } from '../journal/job-journal.ts';
import { outcomeRecord, parseOutcome } from '../journal/job-outcome.ts';
import type { JobOutcome } from '../journal/job-outcome.ts';
import { jobFingerprint } from '../journal/journal.ts';
import type { Journal, JournaledJob, JournalHost, JournalStatus } from '../journal/journal.ts';
import { launchSpec } from './spec-launch.ts';
import type { SpecLaunch } from './spec-launch.ts';

/** How a job starts under the journal (the command line's options, or a host's). */
export type { EarlierRun } from '../../../src/jobs.ts';

export interface RecordedStart {
  /**
   * Names the connection in the journal (a saved connection's ID, or a session connection's, which
   * is the same for the same settings). Without it the job is not recorded and cannot be resumed.
   */
  readonly connectionRef: string;
  /** The connection as people know it, for the job's history (never a secret). */
  readonly connectionLabel?: string;
  /**
   * Kept in the history only, never resumed nor brought back after a restart: a browser's upload,
   * whose files are staged on this host and go with it.
   */
  readonly historyOnly?: boolean;
  /**
   * An unfinished earlier run of the same command: true goes on from it, false cleans it up and
   * starts afresh; undefined does not look for one.
   */
  readonly resume?: boolean;
  /**
   * A recorded run last heard of longer ago than this is not resumed but started afresh (its
   * leftovers cleaned up): files and objects may have changed in ways nobody remembers.
   */
  readonly resumeWithinMs?: number;
}

/** Resolves a journaled connection reference to a live connection, for jobs brought back after a restart. */
export type ConnectionResolver = (connectionRef: string) => Promise<S3Connection>;

/** What the engine needs to run a recorded job. */
export interface RecordedLaunch {
  readonly id: string;
  readonly kind: JobKind;
  readonly name: string;
  readonly body: JobBody<unknown>;
  readonly createdAt?: number;
  /** Where the job records its progress (and, resumed, finds what the earlier run did). */
  readonly recorder: JobJournal;
  /** Where it acts, as far as its record says (a job brought back after a restart). */
  readonly target?: JobTarget;
  /**
   * Where a job brought back after a restart stood when its process last saw it: it comes back so
   * (a failed job failed, an unfinished one paused, with their counts) and runs when told. Absent
   * after a crash mid-run: the job then comes back paused, counting again from its journal.
   */
  readonly outcome?: JobOutcome;
}

type Place = { readonly bucket: string; readonly connection: () => Promise<S3Connection> };

export class Recovery {
  private journal: Journal | undefined;
  private readonly host: JournalHost;
  private readonly earlierRuns = new Map<string, EarlierRun>();
  /** Where each recorded job's leftovers would be cleaned up (its bucket and connection). */
  private readonly places = new Map<string, Place>();
  private readonly statuses = new Map<string, JournalStatus>();
  /** Jobs whose record holds where they stood: it goes once they run again (it would be stale). */
  private readonly withOutcome = new Set<string>();

  constructor(journal: Journal, host: JournalHost) {
    this.journal = journal;
    this.host = host;
  }

  /**
   * A job recorded in the journal: new, or going on from an unfinished run of the same command.
   * One process at a time runs a command: `release` ends its claim, once the job has ended.
   */
  begin<K extends JobKind>(
    spec: SpecLaunch<K>,
    name: string,
    connection: S3Connection,
    start: RecordedStart,
  ): { launch: RecordedLaunch; release: () => void } {
    const journal = this.open();
    const kind = spec.kind;
    const fingerprint = jobFingerprint(kind, spec.spec, start.connectionRef);
    const command = journal.claimCommand(fingerprint);
    if (!command.ok) throw alreadyRunning(command.holder);
    const release = () => {
      try {
        journal.releaseCommand(fingerprint);
      } catch {
        // The journal was closed with the engine: its locks went with it.
      }
    };
    try {
      return { launch: this.launchFor(journal, spec, name, connection, start, fingerprint), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * The unfinished jobs an earlier process of this host left (it crashed, was killed, or quit
   * mid-job), each on its connection once resolved. `downloadRoot`: the host confines downloads
   * below it now; a download recorded under another root fails when resumed instead of writing there.
   */
  restore(resolve: ConnectionResolver, downloadRoot: string | undefined): RecordedLaunch[] {
    const journal = this.journal;
    if (!journal) return [];
    // Jobs another process of this host is running (a second app window) stay with it.
    return journal
      .unfinished(this.host)
      .filter((record) => journal.claim(record.id).ok)
      .map((record) => this.relaunch(journal, record, resolve, downloadRoot));
  }

  /**
   * A job of the history that left the list (cleared, or ended before a restart) brought back into
   * it as it ended, to be retried: only this host's (another's connection is not known here), and only
   * one that failed or was cancelled.
   */
  bringBack(id: string, resolve: ConnectionResolver, downloadRoot: string | undefined): RecordedLaunch {
    const journal = this.open();
    const record = journal.historyRecord(id);
    if (!record) throw new BargeError('NoSuchJob', `No job ${id} in the history.`);
    if (record.host !== this.host)
      throw new BargeError(
        'OtherHost',
        record.host === 'cli'
          ? 'That job ran in the command line: run the same command again there, and it goes on from where it stopped.'
          : `That job ran in the ${record.host === 'web' ? 'web host' : 'app'}: retry it there.`,
      );
    if (record.status !== 'failed' && record.status !== 'cancelled')
      throw new BargeError(
        'NothingToRetry',
        `That job ${record.status === 'completed' ? 'completed' : 'has not ended'}: there is nothing to retry.`,
      );
    if (!journal.claim(id).ok) throw alreadyRunning(undefined);
    journal.bringBack(id);
    return this.relaunch(journal, { ...record, status: 'failed' }, resolve, downloadRoot);
  }

  private relaunch(
    journal: Journal,
    record: JournaledJob,
    resolve: ConnectionResolver,
    downloadRoot: string | undefined,
  ): RecordedLaunch {
    const connection = () => resolve(record.connectionRef);
    // Read back, the spec is checked again: a damaged or foreign record fails its job, not the host.
    const body: JobBody<unknown> = async (runtime, only) =>
      recordedSpec(record, downloadRoot, resolve).body(await connection())(runtime, only);
    const outcome = parseOutcome(record.outcome);
    const launch = this.recorded(
      journal,
      record.id,
      record.kind,
      record.name,
      bucketOf(record.spec),
      connection,
      body,
      true,
      record.createdAt,
    );
    // As the journal has it (a failed job stays failed there until it runs again).
    this.statuses.set(record.id, record.status);
    if (record.outcome !== undefined) this.withOutcome.add(record.id);
    return {
      ...launch,
      target: jobTarget(record.kind, record.spec),
      ...(outcome ? { outcome } : {}),
    };
  }

  /** The recorded run this job goes on from (or, `tooOld`, replaced), if any. */
  earlierRun(id: string): EarlierRun | undefined {
    return this.earlierRuns.get(id);
  }

  /**
   * Keep the job's status in the journal: a cancelled job is not resumed, but a retry may revive it.
   * A failed job keeps where it stood (`outcome`, asked only then), so a restart shows it as it was.
   */
  stateChanged(id: string, state: JobState, outcome: () => JobOutcome): void {
    const status = journalStatus(state.status);
    const stale = state.status === 'running' && this.withOutcome.has(id);
    if ((this.statuses.get(id) === status && !stale) || !this.journal) return;
    this.statuses.set(id, status);
    // Every ended job keeps where it stood, for its history; a failed one also comes back so after a restart.
    const record = status === 'active' ? null : outcomeRecord(outcome());
    if (record === null) this.withOutcome.delete(id);
    else this.withOutcome.add(id);
    this.journal.setStatus(id, status, record);
  }

  /** Where an unfinished recorded job stands as the process stops: the next start brings it back so. */
  suspended(id: string, outcome: JobOutcome): void {
    if (this.statuses.get(id) !== 'active' || !this.journal) return;
    this.withOutcome.add(id);
    this.journal.setOutcome(id, outcomeRecord(outcome));
  }

  /** Read the journal (its history), or undefined when it is closed. */
  journalRead<T>(read: (journal: Journal) => T): T | undefined {
    return this.journal ? read(this.journal) : undefined;
  }

  receipt(id: string): ReturnType<Journal['receipt']> | [] {
    return this.journal?.receipt(id) ?? [];
  }

  /** Drop a job's record (it completed, or was cancelled: nothing is left to resume). */
  forget(id: string): void {
    this.places.delete(id);
    this.statuses.delete(id);
    this.withOutcome.delete(id);
    this.journal?.forget(id);
  }

  /**
   * Drop a finished job's record, after cleaning up what a failed one kept for a resume (its
   * multipart uploads, its temporary files): no resume will come for it now.
   */
  discard(id: string): void {
    const journal = this.journal;
    const place = this.places.get(id);
    this.places.delete(id);
    this.statuses.delete(id);
    this.withOutcome.delete(id);
    if (!journal) return;
    if (!place) {
      journal.forget(id);
      return;
    }
    void place
      .connection()
      .then(async (connection) => discardLeftovers(connection, place.bucket, journal.leftovers(id)))
      .catch(() => undefined)
      .finally(() => journal.forget(id));
  }

  /** Stop recording and close the journal, leaving every record as a crash would: the next start brings them back. */
  close(): void {
    this.journal?.close();
    this.journal = undefined;
  }

  private open(): Journal {
    if (!this.journal) throw new BargeError('Closed', 'The engine is closing: no job starts now.');
    return this.journal;
  }

  private launchFor<K extends JobKind>(
    journal: Journal,
    launch: SpecLaunch<K>,
    name: string,
    connection: S3Connection,
    start: RecordedStart,
    fingerprint: string,
  ): RecordedLaunch {
    const { kind, spec } = launch;
    const bucket = spec.bucket;
    const connect = async () => connection;
    const earlier = start.resume === undefined ? undefined : journal.findResumable(this.host, fingerprint);
    const tooOld =
      earlier !== undefined &&
      start.resumeWithinMs !== undefined &&
      Date.now() - earlier.updatedAt > start.resumeWithinMs;
    // The same command running now in another process: refused, never started twice (nor started
    // afresh over its leftovers, which it is using).
    const claimed = earlier && journal.claim(earlier.id);
    if (claimed && !claimed.ok) throw alreadyRunning(claimed.holder);
    if (earlier && start.resume && !tooOld) {
      this.earlierRuns.set(earlier.id, {
        status: earlier.status,
        createdAt: earlier.createdAt,
        updatedAt: earlier.updatedAt,
        tooOld: false,
      });
      return this.recorded(
        journal,
        earlier.id,
        kind,
        name,
        bucket,
        connect,
        launch.body(connection),
        true,
        earlier.createdAt,
      );
    }
    const id = randomUUID();
    const createdAt = journal.addJob({
      id,
      host: this.host,
      kind,
      name,
      spec,
      connectionRef: start.connectionRef,
      ...(start.connectionLabel === undefined ? {} : { connectionLabel: start.connectionLabel }),
      fingerprint,
    });
    if (start.historyOnly) journal.historyOnly(id);
    const fresh = launch.body(connection);
    if (!earlier) return this.recorded(journal, id, kind, name, bucket, connect, fresh, false, createdAt);
    if (tooOld)
      this.earlierRuns.set(id, {
        status: earlier.status,
        createdAt: earlier.createdAt,
        updatedAt: earlier.updatedAt,
        tooOld: true,
      });
    // Starting afresh: the interrupted run's uploads and temporary files go first, or they would
    // linger; its record goes only once they are gone.
    const afterCleanUp: JobBody<unknown> = async (runtime, only) => {
      await discardLeftovers(connection, bucket, journal.leftovers(earlier.id));
      journal.forget(earlier.id);
      return fresh(runtime, only);
    };
    return this.recorded(journal, id, kind, name, bucket, connect, afterCleanUp, false, createdAt);
  }

  /**
   * The body, then clean-up of what the journal still names for the job: multipart uploads begun and
   * temporary files of items this run never came back to (a resumed job whose source files or
   * objects are gone, a job cancelled before it reached them). A job stopped by a job-wide failure
   * keeps them, for the run that resumes it.
   */
  private recorded(
    journal: Journal,
    id: string,
    kind: JobKind,
    name: string,
    bucket: string,
    connection: () => Promise<S3Connection>,
    body: JobBody<unknown>,
    resumed: boolean,
    createdAt?: number,
  ): RecordedLaunch {
    this.places.set(id, { bucket, connection });
    this.statuses.set(id, 'active');
    const tidied: JobBody<unknown> = async (runtime, only) => {
      await body(runtime, only);
      await this.discardLeftoversOf(runtime, id, bucket, connection);
    };
    return { id, kind, name, body: tidied, createdAt, recorder: journal.forJob(id, resumed) };
  }

  private async discardLeftoversOf(
    runtime: JobRuntime<unknown>,
    id: string,
    bucket: string,
    connection: () => Promise<S3Connection>,
  ): Promise<void> {
    const journal = this.journal;
    if (runtime.stoppedByFailure || !journal) return;
    const leftovers = journal.leftovers(id);
    if (leftovers.uploads.length === 0 && leftovers.temporaryFiles.length === 0) return;
    await discardLeftovers(await connection(), bucket, leftovers);
    const recorder = journal.forJob(id, false);
    for (const upload of leftovers.uploads) recorder.multipartEnded(upload.key, upload.uploadId);
    for (const key of leftovers.downloadKeys) recorder.downloadEnded(key);
  }
}

/**
 * A recorded job's spec, launched as a new one is; a download confined to the host's root as it is
 * now, not as it was when recorded.
 */
function recordedSpec(record: JournaledJob, downloadRoot: string | undefined, resolve: ConnectionResolver): SpecLaunch {
  // Confined to the host's root as it is now, not as it was when recorded (a sync writes and deletes files too).
  if (downloadRoot === undefined || (record.kind !== 'download' && record.kind !== 'sync'))
    return launchSpec(record.kind, record.spec, resolve);
  return launchSpec(record.kind, { ...(record.spec as JobSpecs['download' | 'sync']), confinedTo: downloadRoot });
}

function bucketOf(spec: unknown): string {
  const bucket = (spec as { bucket?: unknown } | null)?.bucket;
  return typeof bucket === 'string' ? bucket : '';
}

function alreadyRunning(holder: number | undefined): BargeError {
  return new BargeError(
    'AlreadyRunning',
    `The same command is already running${holder ? ` (process ${holder})` : ''}: wait for it to end, or stop it first.`,
  );
}

/** A job's state as the journal keeps it: cancelled jobs are not resumed, but a retry may revive them. */
function journalStatus(status: JobState['status']): JournalStatus {
  if (status === 'completed' || status === 'failed' || status === 'cancelled') return status;
  return 'active';
}

/** Abort an abandoned run's multipart uploads and remove its temporary files. */
async function discardLeftovers(
  connection: S3Connection,
  bucket: string,
  leftovers: ReturnType<Journal['leftovers']>,
): Promise<void> {
  for (const upload of leftovers.uploads) {
    if (upload.uploadId) await abortMultipartUpload(connection, bucket, upload.key, upload.uploadId);
    else await abortUnrecordedUploads(connection, bucket, upload.key, upload.startedAt);
  }
  await Promise.all(leftovers.temporaryFiles.map((file) => rm(file, { force: true })));
}
