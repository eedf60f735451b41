// The transfer engine: one scheduler, one set of settings, every job.
//
// Hosts (the command line, the Electron shell, the web host) create one Engine and talk to it only
// through this class. It has no idea which host it runs in, and never imports Electron.

import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { ConnectionConfig } from '../../src/connection.ts';
import type { EngineStats } from '../../src/contract/models.ts';
import type { JobKind, JobSnapshot, JobState } from '../../src/jobs.ts';
import { isFinished } from '../../src/jobs.ts';
import type { Settings, SettingsPatch } from '../../src/settings.ts';
import { DEFAULT_SETTINGS, settingsPatchSchema, settingsSchema } from '../../src/settings.ts';
import { formatS3Url } from '../../src/s3-url.ts';
import { ThroughputMeter } from '../../src/throughput-meter.ts';
import { BargeError } from './errors.ts';
import type { ConflictChoice } from '../../src/if-exists.ts';
import { deleteBody } from './jobs/delete-job.ts';
import type { DeleteSpec } from './jobs/delete-job.ts';
import { downloadBody } from './jobs/download-job.ts';
import type { DownloadSpec } from './jobs/download-job.ts';
import { Job } from './jobs/job.ts';
import { jobFingerprint } from './journal/journal.ts';
import type { Journal, JournaledJob, JournalHost, JournalStatus } from './journal/journal.ts';
import type { ReceiptEntry } from '../../src/receipt.ts';
import type { JobBody, JobClock, JobRuntime } from './jobs/job.ts';
import { ProgressPublisher } from './queue/progress-publisher.ts';
import type { Timer } from './queue/progress-publisher.ts';
import { RequestScheduler } from './queue/request-scheduler.ts';
import { openConnection } from './s3/s3-connection.ts';
import type { AddressPolicy } from './s3/guarded-lookup.ts';
import type { S3Connection } from './s3/s3-connection.ts';
import { abortMultipartUpload, abortUnrecordedUploads, uploadBody } from './jobs/upload-job.ts';
import type { UploadSpec } from './jobs/upload-job.ts';

export interface EngineOptions {
  readonly settings?: SettingsPatch;
  readonly clock?: JobClock;
  readonly timer?: Timer;
  readonly env?: NodeJS.ProcessEnv;
  /** Where jobs are recorded so they survive a crash; none: jobs live as long as the process. */
  readonly journal?: Journal;
  /** Which host this engine runs in: each restores only its own jobs. */
  readonly host?: JournalHost;
  /** Addresses no connection may dial (a web host reachable beyond loopback: metadata services). */
  readonly refuseAddress?: AddressPolicy;
}

export interface JobStartOptions {
  readonly name?: string;
  /**
   * Names the connection in the journal (a saved connection's ID, or the command line's description
   * of its endpoint and profile). Without it the job is not recorded and cannot be resumed.
   */
  readonly connectionRef?: string;
  /** Continue an unfinished recorded job of the same spec, if there is one (the command line run again). */
  readonly resume?: boolean;
  /**
   * A recorded run last heard of longer ago than this is not resumed but started afresh (its
   * leftovers cleaned up): files and objects may have changed in ways nobody remembers.
   */
  readonly resumeWithinMs?: number;
}

/** The recorded run a job goes on from, or the one it replaced: how it ended, and when it was last heard of. */
export interface EarlierRun {
  /** 'failed': the run ended with failures (this one retries them); 'active': it was interrupted. */
  readonly status: JournalStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** True when it was too old to resume (resumeWithinMs), and the job started afresh. */
  readonly tooOld: boolean;
}

/** Resolves a journaled connection reference to a live connection, for jobs brought back after a restart. */
export type ConnectionResolver = (connectionRef: string) => Promise<S3Connection>;

type BodyFactory<Item> = (connection: S3Connection) => JobBody<Item>;

type ProgressListener = (batch: readonly JobSnapshot[]) => void;

export class Engine {
  private current: Settings;
  private readonly scheduler: RequestScheduler;
  private readonly jobsById = new Map<string, Job<unknown>>();
  private readonly connections = new Set<S3Connection>();
  private readonly listeners = new Set<ProgressListener>();
  private readonly publisher: ProgressPublisher<string, JobSnapshot>;
  private readonly clock: JobClock;
  private readonly meter = new ThroughputMeter();
  private readonly env: NodeJS.ProcessEnv;
  private readonly refuseAddress: AddressPolicy | undefined;
  private journal: Journal | undefined;
  private readonly host: JournalHost;
  /** Jobs that continue a journaled job from an earlier process. */
  private readonly resumedIds = new Set<string>();
  private readonly earlierRuns = new Map<string, EarlierRun>();
  /** Where each journaled job's leftovers would be cleaned up (its bucket and connection). */
  private readonly journaledJobs = new Map<string, { readonly bucket: string; readonly connection: () => Promise<S3Connection> }>();

  constructor(options: EngineOptions = {}) {
    this.current = settingsSchema.parse({ ...DEFAULT_SETTINGS, ...options.settings });
    this.scheduler = new RequestScheduler(this.current.threads);
    this.clock = options.clock ?? { now: () => Date.now() };
    this.env = options.env ?? process.env;
    this.refuseAddress = options.refuseAddress;
    this.journal = options.journal;
    this.host = options.host ?? 'app';
    this.publisher = new ProgressPublisher({
      snapshot: (id) => this.jobsById.get(id)?.snapshot(),
      publish: (batch) => {
        for (const listener of this.listeners) listener(batch);
      },
      timer: options.timer,
    });
  }

  get settings(): Readonly<Settings> {
    return this.current;
  }

  /** Change settings; Threads takes effect on running jobs at once, Part size on the next file, the stall timeout on the next request. */
  updateSettings(patch: SettingsPatch): Settings {
    const valid = settingsPatchSchema.parse(patch);
    this.current = settingsSchema.parse({ ...this.current, ...valid });
    this.scheduler.threads = this.current.threads;
    for (const connection of this.connections) connection.applySettings(this.current);
    return this.current;
  }

  /** A connection whose socket pool follows this engine's Threads setting. */
  async connect(config: ConnectionConfig): Promise<S3Connection> {
    const connection = await openConnection(config, { threads: this.current.threads, stallTimeoutMs: this.current.stallTimeoutMs, env: this.env, refuseAddress: this.refuseAddress });
    this.connections.add(connection);
    const close = connection.close.bind(connection);
    connection.close = () => {
      this.connections.delete(connection);
      close();
    };
    return connection;
  }

  upload(connection: S3Connection, spec: UploadSpec, options: JobStartOptions = {}): Job {
    const label = spec.sources.length === 1 ? spec.sources[0]! : `${spec.sources.length} items`;
    const name = options.name ?? `${label} → ${formatS3Url({ bucket: spec.bucket, key: spec.destination })}`;
    return this.start('upload', name, spec, connection, () => uploadBody(connection, spec), options);
  }

  download(connection: S3Connection, spec: DownloadSpec, options: JobStartOptions = {}): Job {
    const what = [...(spec.keys ?? []), ...(spec.prefixes ?? [])];
    const label = what.length === 1 ? formatS3Url({ bucket: spec.bucket, key: what[0]! }) : `${what.length} items from s3://${spec.bucket}`;
    const name = options.name ?? `${label} → ${spec.targetFile ?? spec.targetFolder}`;
    return this.start('download', name, spec, connection, () => downloadBody(connection, spec), options);
  }

  delete(connection: S3Connection, spec: DeleteSpec, options: JobStartOptions = {}): Job {
    const what = [...(spec.keys ?? []), ...(spec.prefixes ?? [])];
    const label = what.length === 1 ? formatS3Url({ bucket: spec.bucket, key: what[0]! }) : `${what.length} items in s3://${spec.bucket}`;
    const name = options.name ?? `${spec.dryRun ? 'Count' : 'Delete'} ${label}`;
    // A dry run changes nothing: there is nothing to resume.
    const recorded = spec.dryRun ? { ...options, connectionRef: undefined } : options;
    return this.start('delete', name, spec, connection, () => deleteBody(connection, spec), recorded);
  }

  /**
   * Bring back the unfinished jobs an earlier process of this host left in the journal (it crashed,
   * was killed, or quit mid-job), paused, so the user decides when they go on. `downloadRoot`: the
   * host confines downloads below it now; a download recorded under another root (the host was
   * started with a different --download-root since) fails when resumed instead of writing there.
   */
  restore(resolve: ConnectionResolver, confine: { readonly downloadRoot?: string } = {}): Job[] {
    if (!this.journal) return [];
    const journal = this.journal;
    // Jobs another process of this host is running (a second app window) stay with it.
    return journal.unfinished(this.host).filter((record) => journal.claim(record.id).ok).map((record) => {
      const job = this.startRecorded(record, resolve, confine.downloadRoot);
      job.pause();
      return job;
    });
  }

  /** The recorded run this job goes on from (or, `tooOld`, replaced), if any. */
  earlierRun(id: string): EarlierRun | undefined {
    return this.earlierRuns.get(id);
  }

  /** True when this job continues one recorded by an earlier process. */
  isResumed(id: string): boolean {
    return this.resumedIds.has(id);
  }

  /**
   * What the job finished: each object's key, path, size, ETag, version ID and checksum; then what
   * failed (as far as the job kept its errors), so a receipt is written whatever the outcome.
   */
  *receipt(id: string): Generator<ReceiptEntry> {
    if (this.journal) yield* this.journal.receipt(id);
    const snapshot = this.jobsById.get(id)?.snapshot();
    if (!snapshot) return;
    for (const failure of snapshot.itemErrors) {
      const remote = failure.item.startsWith('s3://');
      yield {
        key: remote ? failure.item.replace(/^s3:\/\/[^/]+\//, '') : '', path: remote ? '' : failure.item, size: 0,
        finishedAt: snapshot.createdAt, status: 'failed', error: `${failure.code}: ${failure.message}`,
      };
    }
    const unlisted = snapshot.progress.objectsFailed - snapshot.itemErrors.length;
    if (unlisted > 0) yield { key: '', path: '', size: 0, finishedAt: snapshot.createdAt, status: 'failed', error: `… and ${unlisted} more failed (not listed)` };
  }

  /** Drop a finished job's record (the command line, once its receipt is written). */
  forget(id: string): void {
    this.journal?.forget(id);
  }

  /** The user's word on a file already there (a download whose ifExists is "ask"). */
  resolveConflict(id: string, conflictId: string, choice: ConflictChoice, applyToAll: boolean): boolean {
    return this.jobsById.get(id)?.resolveConflict(conflictId, choice, applyToAll) ?? false;
  }

  job(id: string): Job | undefined {
    return this.jobsById.get(id);
  }

  snapshots(): JobSnapshot[] {
    return [...this.jobsById.values()].map((job) => job.snapshot());
  }

  /** Act on one job, or on every job when `id` is undefined. */
  pause(id?: string): void {
    this.each(id, (job) => job.pause());
  }

  resume(id?: string): void {
    this.each(id, (job) => job.resume());
  }

  cancel(id?: string): void {
    this.each(id, (job) => job.cancel());
  }

  retry(id?: string): void {
    this.each(id, (job) => job.retry());
  }

  /**
   * Drop finished jobs from the list, and their records. What a failed job kept for a resume (its
   * multipart uploads, its temporary files) is cleaned up first: no resume will come for it now.
   */
  clearFinished(): void {
    for (const [id, job] of this.jobsById) {
      if (!isFinished(job.state)) continue;
      this.jobsById.delete(id);
      const place = this.journaledJobs.get(id);
      this.journaledJobs.delete(id);
      const journal = this.journal;
      if (!journal) continue;
      if (!place) {
        journal.forget(id);
        continue;
      }
      void place.connection()
        .then(async (connection) => discardLeftovers(connection, place.bucket, journal.leftovers(id)))
        .catch(() => undefined)
        .finally(() => journal.forget(id));
    }
  }

  onProgress(listener: ProgressListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): EngineStats {
    return {
      activeRequests: this.scheduler.active,
      waitingRequests: this.scheduler.waiting(),
      bytesPerSecond: this.meter.bytesPerSecond(this.clock.now()),
    };
  }

  /**
   * Cancel everything, wait for clean-up (multipart aborts), close the connections.
   *
   * With `suspend`, journaled jobs are left as they are, like a crash would leave them, so the next
   * start brings them back: the app quitting mid-transfer loses nothing.
   */
  async close(options: { suspend?: boolean } = {}): Promise<void> {
    if (options.suspend && this.journal) {
      // Nothing is cancelled or cleaned up (that would abort the uploads the next start resumes):
      // no request starts any more, the journal stops recording, and the requests in flight end
      // with the process.
      for (const id of this.jobsById.keys()) this.scheduler.pause(id);
      this.journal.close();
      this.journal = undefined;
      this.publisher.dispose();
      return;
    }
    this.cancel();
    await Promise.all([...this.jobsById.values()].map((job) => job.finished()));
    this.publisher.flush();
    this.publisher.dispose();
    for (const connection of [...this.connections]) connection.close();
    this.journal?.close();
  }

  private start<Item>(kind: JobKind, name: string, spec: unknown, connection: S3Connection, body: () => JobBody<Item>, options: JobStartOptions): Job {
    const journal = this.journal;
    if (!journal || options.connectionRef === undefined) return this.launch({ id: randomUUID(), kind, name, body: body() });
    const fingerprint = jobFingerprint(kind, spec, options.connectionRef);
    // One process at a time runs a command: held from before the journal is searched to the job's end.
    const command = journal.claimCommand(fingerprint);
    if (!command.ok) {
      throw new BargeError('AlreadyRunning', `The same command is already running${command.holder ? ` (process ${command.holder})` : ''}: wait for it to end, or stop it first.`);
    }
    let job: Job;
    try {
      job = this.startJournaled(kind, name, spec, connection, body, { ...options, connectionRef: options.connectionRef }, journal, fingerprint);
    } catch (error) {
      journal.releaseCommand(fingerprint);
      throw error;
    }
    void job.finished().finally(() => {
      try {
        journal.releaseCommand(fingerprint);
      } catch {
        // The journal was closed with the engine: its locks went with it.
      }
    });
    return job;
  }

  private startJournaled<Item>(
    kind: JobKind, name: string, spec: unknown, connection: S3Connection, body: () => JobBody<Item>, options: JobStartOptions & { connectionRef: string }, journal: Journal, fingerprint: string,
  ): Job {
    const bucket = (spec as { bucket: string }).bucket;
    const earlier = options.resume === undefined ? undefined : journal.findResumable(this.host, fingerprint);
    const tooOld = earlier !== undefined && options.resumeWithinMs !== undefined && Date.now() - earlier.updatedAt > options.resumeWithinMs;
    // The same command running now in another process: refused, never started twice (nor started
    // afresh over its leftovers, which it is using).
    const claimed = earlier && journal.claim(earlier.id);
    if (claimed && !claimed.ok) {
      throw new BargeError('AlreadyRunning', `The same command is already running${claimed.holder ? ` (process ${claimed.holder})` : ''}: wait for it to end, or stop it first.`);
    }
    if (earlier && options.resume && !tooOld) {
      this.resumedIds.add(earlier.id);
      this.earlierRuns.set(earlier.id, { status: earlier.status, createdAt: earlier.createdAt, updatedAt: earlier.updatedAt, tooOld: false });
      return this.launch({ id: earlier.id, kind, name, body: this.tidied(earlier.id, bucket, async () => connection, body()), createdAt: earlier.createdAt, resumed: true });
    }
    const id = randomUUID();
    journal.addJob({ id, host: this.host, kind, name, spec, connectionRef: options.connectionRef, fingerprint });
    const fresh = this.tidied(id, bucket, async () => connection, body());
    if (!earlier) return this.launch({ id, kind, name, body: fresh, resumed: false });
    if (tooOld) this.earlierRuns.set(id, { status: earlier.status, createdAt: earlier.createdAt, updatedAt: earlier.updatedAt, tooOld: true });
    // Starting afresh: the interrupted run's uploads and temporary files go first, or they would
    // linger; its record goes only once they are gone.
    const afterCleanUp: JobBody<Item> = async (runtime, only) => {
      await discardLeftovers(connection, bucket, journal.leftovers(earlier.id));
      journal.forget(earlier.id);
      return fresh(runtime, only);
    };
    return this.launch({ id, kind, name, resumed: false, body: afterCleanUp });
  }

  /** A job from the journal, on its connection once that is resolved (a failure fails the job). */
  private startRecorded(record: JournaledJob, resolve: ConnectionResolver, downloadRoot: string | undefined): Job {
    const factories: Record<JobKind, BodyFactory<unknown>> = {
      upload: (connection) => uploadBody(connection, record.spec as UploadSpec) as JobBody<unknown>,
      // Confined to the host's root as it is now, not as it was when the job was recorded.
      download: (connection) => downloadBody(connection, { ...(record.spec as DownloadSpec), ...(downloadRoot === undefined ? {} : { confinedTo: downloadRoot }) }) as JobBody<unknown>,
      delete: (connection) => deleteBody(connection, record.spec as DeleteSpec) as JobBody<unknown>,
    };
    const connection = () => resolve(record.connectionRef);
    const body: JobBody<unknown> = async (runtime, only) => factories[record.kind](await connection())(runtime, only);
    this.resumedIds.add(record.id);
    const bucket = (record.spec as { bucket: string }).bucket;
    return this.launch({ id: record.id, kind: record.kind, name: record.name, body: this.tidied(record.id, bucket, connection, body), createdAt: record.createdAt, resumed: true });
  }

  /**
   * The body, then clean-up of what the journal still names for the job: multipart uploads begun and
   * temporary files of items this run never came back to (a resumed job whose source files or
   * objects are gone, a job cancelled before it reached them). A job stopped by a job-wide failure
   * keeps them, for the run that resumes it.
   */
  private tidied<Item>(id: string, bucket: string, connection: () => Promise<S3Connection>, body: JobBody<Item>): JobBody<Item> {
    this.journaledJobs.set(id, { bucket, connection });
    return async (runtime, only) => {
      await body(runtime, only);
      await this.discardLeftoversOf(runtime, id, bucket, connection);
    };
  }

  private async discardLeftoversOf(runtime: JobRuntime<unknown>, id: string, bucket: string, connection: () => Promise<S3Connection>): Promise<void> {
    if (runtime.stoppedByFailure || !this.journal) return;
    const leftovers = this.journal.leftovers(id);
    if (leftovers.uploads.length === 0 && leftovers.temporaryFiles.length === 0) return;
    await discardLeftovers(await connection(), bucket, leftovers);
    const recorder = this.journal.forJob(id, false);
    for (const upload of leftovers.uploads) recorder.multipartEnded(upload.key, upload.uploadId);
    for (const key of leftovers.downloadKeys) recorder.downloadEnded(key);
  }

  private launch<Item>(job: { id: string; kind: JobKind; name: string; body: JobBody<Item>; createdAt?: number; resumed?: boolean }): Job {
    const journal = this.journal;
    const recorded = journal && job.resumed !== undefined;
    let recordedStatus: JournalStatus = 'active';
    const created = new Job<Item>({
      id: job.id,
      kind: job.kind,
      name: job.name,
      body: job.body,
      createdAt: job.createdAt,
      journal: recorded ? journal.forJob(job.id, job.resumed === true) : undefined,
      scheduler: this.scheduler,
      settings: () => this.current,
      clock: this.clock,
      onChange: (changed) => {
        this.publisher.changed(changed.id);
        if (isFinished(changed.state)) this.publisher.flush();
        const status = journalStatus(changed.state.status);
        // this.journal, not journal: it is gone once the engine suspends.
        if (recorded && status !== recordedStatus && this.journal) {
          recordedStatus = status;
          this.journal.setStatus(changed.id, status);
        }
      },
      onBytes: (bytes, now) => this.meter.add(bytes, now),
    });
    this.jobsById.set(created.id, created as Job<unknown>);
    created.start();
    return created as Job<unknown>;
  }

  private each(id: string | undefined, act: (job: Job) => void): void {
    if (id !== undefined) {
      const job = this.jobsById.get(id);
      if (job) act(job);
      return;
    }
    for (const job of this.jobsById.values()) act(job);
  }
}

/** A job's state as the journal keeps it: cancelled jobs are not resumed, but a retry may revive them. */
function journalStatus(status: JobState['status']): JournalStatus {
  if (status === 'completed' || status === 'failed' || status === 'cancelled') return status;
  return 'active';
}

/** Abort an abandoned run's multipart uploads and remove its temporary files. */
async function discardLeftovers(connection: S3Connection, bucket: string, leftovers: ReturnType<Journal['leftovers']>): Promise<void> {
  for (const upload of leftovers.uploads) {
    if (upload.uploadId) await abortMultipartUpload(connection, bucket, upload.key, upload.uploadId);
    else await abortUnrecordedUploads(connection, bucket, upload.key, upload.startedAt);
  }
  await Promise.all(leftovers.temporaryFiles.map((file) => rm(file, { force: true })));
}
