// The transfer engine: one scheduler, one set of settings, every job.
//
// Hosts (the command line, the Electron shell, the web host) create one Engine and talk to it only
// through this class. It has no idea which host it runs in, and never imports Electron.

import { randomUUID } from 'node:crypto';
import type { ConnectionConfig } from '../../src/connection.ts';
import type { JobKind, JobSnapshot } from '../../src/jobs.ts';
import { isFinished } from '../../src/jobs.ts';
import type { Settings, SettingsPatch } from '../../src/settings.ts';
import { DEFAULT_SETTINGS, settingsPatchSchema, settingsSchema } from '../../src/settings.ts';
import { formatS3Url } from '../../src/s3-url.ts';
import { ThroughputMeter } from '../../src/throughput-meter.ts';
import { deleteBody } from './delete-job.ts';
import type { DeleteSpec } from './delete-job.ts';
import { downloadBody } from './download-job.ts';
import type { DownloadSpec } from './download-job.ts';
import { Job } from './job.ts';
import type { JobBody, JobClock } from './job.ts';
import { ProgressPublisher } from './progress-publisher.ts';
import type { Timer } from './progress-publisher.ts';
import { RequestScheduler } from './request-scheduler.ts';
import { openConnection } from './s3-connection.ts';
import type { S3Connection } from './s3-connection.ts';
import { uploadBody } from './upload-job.ts';
import type { UploadSpec } from './upload-job.ts';

export interface EngineOptions {
  readonly settings?: SettingsPatch;
  readonly clock?: JobClock;
  readonly timer?: Timer;
  readonly env?: NodeJS.ProcessEnv;
}

export interface EngineStats {
  readonly activeRequests: number;
  readonly waitingRequests: number;
  readonly bytesPerSecond: number;
}

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

  constructor(options: EngineOptions = {}) {
    this.current = settingsSchema.parse({ ...DEFAULT_SETTINGS, ...options.settings });
    this.scheduler = new RequestScheduler(this.current.threads);
    this.clock = options.clock ?? { now: () => Date.now() };
    this.env = options.env ?? process.env;
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
    const connection = await openConnection(config, { threads: this.current.threads, stallTimeoutMs: this.current.stallTimeoutMs, env: this.env });
    this.connections.add(connection);
    const close = connection.close.bind(connection);
    connection.close = () => {
      this.connections.delete(connection);
      close();
    };
    return connection;
  }

  upload(connection: S3Connection, spec: UploadSpec, name?: string): Job {
    const label = spec.sources.length === 1 ? spec.sources[0]! : `${spec.sources.length} items`;
    return this.start('upload', name ?? `${label} → ${formatS3Url({ bucket: spec.bucket, key: spec.destination })}`, uploadBody(connection, spec));
  }

  download(connection: S3Connection, spec: DownloadSpec, name?: string): Job {
    const what = [...(spec.keys ?? []), ...(spec.prefixes ?? [])];
    const label = what.length === 1 ? formatS3Url({ bucket: spec.bucket, key: what[0]! }) : `${what.length} items from s3://${spec.bucket}`;
    return this.start('download', name ?? `${label} → ${spec.targetFile ?? spec.targetFolder}`, downloadBody(connection, spec));
  }

  delete(connection: S3Connection, spec: DeleteSpec, name?: string): Job {
    const what = [...(spec.keys ?? []), ...(spec.prefixes ?? [])];
    const label = what.length === 1 ? formatS3Url({ bucket: spec.bucket, key: what[0]! }) : `${what.length} items in s3://${spec.bucket}`;
    return this.start('delete', name ?? `${spec.dryRun ? 'Count' : 'Delete'} ${label}`, deleteBody(connection, spec));
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

  clearFinished(): void {
    for (const [id, job] of this.jobsById) if (isFinished(job.state)) this.jobsById.delete(id);
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

  /** Cancel everything, wait for clean-up (multipart aborts), close the connections. */
  async close(): Promise<void> {
    this.cancel();
    await Promise.all([...this.jobsById.values()].map((job) => job.finished()));
    this.publisher.flush();
    this.publisher.dispose();
    for (const connection of [...this.connections]) connection.close();
  }

  private start<Item>(kind: JobKind, name: string, body: JobBody<Item>): Job {
    const job = new Job<Item>({
      id: randomUUID(),
      kind,
      name,
      body,
      scheduler: this.scheduler,
      settings: () => this.current,
      clock: this.clock,
      onChange: (changed) => {
        this.publisher.changed(changed.id);
        if (isFinished(changed.state)) this.publisher.flush();
      },
      onBytes: (bytes, now) => this.meter.add(bytes, now),
    });
    this.jobsById.set(job.id, job as Job<unknown>);
    job.start();
    return job as Job<unknown>;
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
