// The transfer engine: one scheduler, one set of settings, every job.
//
// The service (main/service/) is its one client: hosts reach the engine only through the service's
// API. It has no idea which host it runs in, and never imports Electron. What outlives a process
// (the journal, resume, clean-up) is the launch room's (launch/recovery.ts); this class runs work.

import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import type { ConnectionConfig } from '../../src/connection.ts';
import type { EngineStats } from '../../src/contract/models.ts';
import type { ItemError, ItemFilter, JobItem, JobKind, JobSummary, JobUpdate } from '../../src/jobs.ts';
import { isFinished } from '../../src/jobs.ts';
import type { RunSettings, Settings, SettingsPatch } from '../../src/settings.ts';
import {
  AUTO,
  DEFAULT_SETTINGS,
  FIXED_DEFAULT_PART_SIZE_BYTES,
  settingsPatchSchema,
  settingsSchema,
} from '../../src/settings.ts';
import { commonParent, jobLabel } from '../../src/job-label.ts';
import { plural } from '../../src/plural.ts';
import { filterBase, isFiltering, objectMatcher, patternRoot } from '../../src/object-filter.ts';
import type { ObjectFilter } from '../../src/object-filter.ts';
import { formatS3Url, parseS3Url } from '../../src/s3-url.ts';
import type { ConflictChoice } from '../../src/if-exists.ts';
import type { ReceiptEntry } from '../../src/receipt.ts';
import { BargeError } from './errors.ts';
import type { ConnectionLookup } from './jobs/job-bodies.ts';
import { copyPlacesProblem } from '../../src/copy-targets.ts';
import { asFolderPrefix } from '../../src/s3-url.ts';
import { launchSpec } from './launch/spec-launch.ts';
import type {
  CopySpec,
  DeleteSpec,
  DownloadSpec,
  JobSpecs,
  RestoreSpec,
  SyncSpec,
  UploadSpec,
} from './jobs/job-specs.ts';
import { Job } from './jobs/job.ts';
import type { JobBody, JobClock, JobTarget } from './jobs/job.ts';
import type { Arrival } from './jobs/arrival.ts';
import type { JobJournal } from './journal/job-journal.ts';
import type { JobOutcome } from './journal/job-outcome.ts';
import type { HistoryQuery, HistoryRecord, Journal, JournalHost } from './journal/journal.ts';
import type { Removal } from './journal/job-journal.ts';
import { undoRefusal } from './launch/undo-check.ts';
import { historyEntry } from './launch/history-entry.ts';
import type { HistoryEntry } from '../../src/history.ts';
import { Recovery } from './launch/recovery.ts';
import type { ConnectionResolver, EarlierRun, RecordedStart } from './launch/recovery.ts';
import { ProgressPublisher } from './queue/progress-publisher.ts';
import type { Timer } from './queue/progress-publisher.ts';
import { RequestScheduler } from './queue/request-scheduler.ts';
import { RequestSignals } from './queue/request-signals.ts';
import { CpuLoad } from './queue/cpu-load.ts';
import { enoughRequests, readLimit } from './queue/limit-readout.ts';
import type { LimitKind, LimitReadout } from '../../src/contract/models.ts';
import { AutoTune } from './queue/auto-tune.ts';
import { autoPartSize } from './queue/auto-part-size.ts';
import { ByteGate } from './queue/byte-gate.ts';
import { openConnection } from './s3/s3-connection.ts';
import { sameStore } from './s3/store-identity.ts';
import {
  abortIncompleteUploads,
  bucketVersioning,
  createBucket,
  deleteBucket,
  setBucketVersioning,
} from './s3/s3-buckets.ts';
import { expirePrefixOnServer, lifecycleRules, removeLifecycleRule } from './s3/bucket-lifecycle.ts';
import type { ExpiryOnServer, LifecycleRule } from '../../src/lifecycle-rules.ts';
import type { BucketRegion, BucketVersioning } from '../../src/contract/models.ts';
import type { AbortUploadsResult } from './s3/s3-buckets.ts';
import { headObject, listBuckets, listObjectsPage } from './s3/s3-listing.ts';
import { objectCheck, openObjectStream } from './s3/object-stream.ts';
import { countPrefixSize } from './s3/prefix-size.ts';
import { statObject } from './s3/object-stat.ts';
import { listVersionsPage } from './s3/object-versions.ts';
import type { VersionListOptions } from './s3/object-versions.ts';
import { deleteVersion, restoreVersion, undeleteKey } from './s3/version-actions.ts';
import type { VersionPlace } from './s3/version-actions.ts';
import type { ObjectVersionRow, VersionPage } from '../../src/contract/models.ts';
import { replaceObjectLabels } from './s3/object-labels.ts';
import { makeFolderMarker } from './s3/folder-marker.ts';
import type { ObjectLabels } from './s3/object-labels.ts';
import { openRangedObject } from './s3/ranged-object-stream.ts';
import { uploadStream } from './s3/stream-upload.ts';
import type { StreamUploadOptions, StreamUploadResult } from './s3/stream-upload.ts';
import type { ObjectStat } from '../../src/object-stat.ts';
import type { PrefixSizeOptions } from './s3/prefix-size.ts';
import type { PrefixSize } from '../../src/prefix-size.ts';
import type { ObjectCheck } from './s3/object-stream.ts';
import { checkConnection } from './s3/connection-check.ts';
import type { CheckOptions } from './s3/connection-check.ts';
import type { ConnectionCheck } from '../../src/contract/models.ts';
import type { ObjectStream } from './s3/object-stream.ts';
import type { BucketEntry, ListingPage, ListOptions, ObjectDetails } from './s3/s3-listing.ts';
import { confinedFolder, confinedTarget } from './disk/confined-path.ts';
import { listHostFolders, makeHostFolder } from './disk/host-folders.ts';
import type { FolderListingOptions } from './disk/host-folders.ts';
import type { FolderListing } from '../../src/contract/models.ts';
import type { AddressPolicy } from './s3/guarded-lookup.ts';
import type { S3Connection } from './s3/s3-connection.ts';
import { SpeedTestRuns } from './jobs/speed-test-runs.ts';
import type { SpeedTestRequest } from './jobs/speed-test-runs.ts';
import type { SavedSpeedTest, SpeedTestOutcome } from '../../src/speed-test.ts';

export type { ConnectionResolver, EarlierRun } from './launch/recovery.ts';
// What the service needs to hold of the engine's parts, through its front door.
export { DEFAULT_RETENTION, Journal } from './journal/journal.ts';
export type { HistoryQuery, HistoryRecord, HistoryRetention, JournalHost } from './journal/journal.ts';
export type { Removal } from './journal/job-journal.ts';
export type { S3Connection } from './s3/s3-connection.ts';
export type { Job } from './jobs/job.ts';
export type { ObjectStream } from './s3/object-stream.ts';
export type { StreamUploadResult } from './s3/stream-upload.ts';
export type { CheckOptions } from './s3/connection-check.ts';
export type { Arrival } from './jobs/arrival.ts';

export interface EngineOptions {
  readonly settings?: SettingsPatch;
  readonly clock?: JobClock;
  readonly timer?: Timer;
  readonly env?: NodeJS.ProcessEnv;
  /** Where jobs are recorded so they survive a crash; none: jobs live as long as the process. */
  readonly journal?: Journal;
  /** Which host this engine runs in: each restores only its own jobs. */
  readonly host?: JournalHost;
  /**
   * Addresses no connection may dial (a web host reachable beyond loopback: internal ones, src/internal-endpoints.ts).
   */
  readonly refuseAddress?: AddressPolicy;
}

export interface JobStartOptions extends Partial<RecordedStart> {
  readonly name?: string;
  /**
   * An upload's files still on their way to this host: the job appears at once, and waits for them as its first phase.
   */
  readonly arrival?: Arrival;
}

/**
 * What the engine tells of its jobs: numbers ten times a second ('jobs'), a job when it appears or
 * its questions change ('job'), and item errors and warnings once, when they happen ('job-items').
 */
export type EngineEvent =
  | { readonly type: 'jobs'; readonly jobs: readonly JobUpdate[] }
  | { readonly type: 'job'; readonly job: JobSummary }
  | {
      readonly type: 'job-items';
      readonly id: string;
      readonly errors: readonly ItemError[];
      readonly warnings: readonly ItemError[];
    };

type EngineListener = (event: EngineEvent) => void;

/** What limits a transfer is read from this many seconds of requests, or the longer look where few ended. */
const LIMIT_WINDOW_SECONDS = 5;
const LIMIT_LONG_WINDOW_SECONDS = 20;
/** The CPU's busy share is read over a shorter look: a loop that fills up is seen within a second or two. */
const CPU_WINDOW_SECONDS = 3;
/** Auto looks at the signals this often. */
const AUTO_TICK_MS = 250;
/** Auto's part size reads the bandwidth of the requests that ended in this window. */
const PART_SIZE_WINDOW_SECONDS = 5;

export class Engine {
  private current: Settings;
  private readonly scheduler: RequestScheduler;
  /** Every job's requests, measured: what Auto and the readout of a transfer's limit decide from. */
  readonly signals = new RequestSignals();
  /** How busy the client's CPU is, and the last readout of what limits the transfers (kept while it holds). */
  private readonly cpu = new CpuLoad();
  private limitKind: LimitKind | undefined;
  /** The jobs running now, as their changes tell, each with when it began to run (performance.now()). */
  private readonly runningSince = new Map<string, number>();
  /** Every body byte of every job's connection passes it: counted, and held to the Max speed. */
  private readonly gate: ByteGate;
  // Auto (Threads and Part size set from what `signals` measure): see queue/auto-tune.ts.
  private readonly tuner: AutoTune;
  private readonly autoTimer: NodeJS.Timeout;
  /** What the settings come to for a job: numbers, Auto's where a knob is on Auto. */
  private running: RunSettings;
  /** A speed test's best part size, for Auto to start from. */
  private autoPartStart: number | undefined;
  /** The last part size chosen for a file cut into parts, and why (under Auto). */
  private lastPart: { bytes: number; reason: string | undefined } = {
    bytes: FIXED_DEFAULT_PART_SIZE_BYTES,
    reason: undefined,
  };
  private readonly jobsById = new Map<string, Job<unknown>>();
  private readonly connections = new Set<S3Connection>();
  private readonly listeners = new Set<EngineListener>();
  private readonly publisher: ProgressPublisher<string, JobUpdate>;
  /** Item errors and warnings kept since the last batch, sent with it. */
  private readonly newItems = new Map<string, { errors: ItemError[]; warnings: ItemError[] }>();
  private readonly clock: JobClock;
  private readonly env: NodeJS.ProcessEnv;
  private readonly refuseAddress: AddressPolicy | undefined;
  /** Jobs recorded in the journal; none without one. */
  private recovery: Recovery | undefined;
  /** Speed tests: one at a time, saved for their endpoint, called off by close(). */
  private readonly speedTests: SpeedTestRuns;

  constructor(options: EngineOptions = {}) {
    this.current = settingsSchema.parse({ ...DEFAULT_SETTINGS, ...options.settings });
    this.scheduler = new RequestScheduler(1);
    this.tuner = new AutoTune({
      now: () => performance.now(),
      signals: this.signals,
      waiting: () => this.scheduler.waiting(),
      cpuBusy: (seconds) => {
        const shares = this.cpu.shares(seconds);
        return shares && Math.max(shares.eventLoop, shares.process);
      },
    });
    this.running = this.runSettings();
    this.scheduler.threads = this.running.threads;
    this.autoTimer = setInterval(() => this.autoTick(), AUTO_TICK_MS);
    this.autoTimer.unref();
    this.gate = new ByteGate(this.current.maxRate);
    this.clock = options.clock ?? { now: () => Date.now() };
    this.env = options.env ?? process.env;
    this.refuseAddress = options.refuseAddress;
    this.recovery = options.journal ? new Recovery(options.journal, options.host ?? 'app') : undefined;
    this.speedTests = new SpeedTestRuns({
      journalRead: (read) => this.recovery?.journalRead(read),
      maxRate: () => this.current.maxRate,
      runningJobs: () => [...this.jobsById.values()].filter((job) => job.state.status === 'running').length,
    });
    this.publisher = new ProgressPublisher({
      snapshot: (id) => this.jobsById.get(id)?.update(),
      publish: (batch) => {
        // Items before numbers: a window that sees a job fail already has its errors.
        for (const [id, items] of this.newItems) this.emit({ type: 'job-items', id, ...items });
        this.newItems.clear();
        this.emit({ type: 'jobs', jobs: batch });
      },
      timer: options.timer,
    });
  }

  get settings(): Readonly<Settings> {
    return this.current;
  }

  /**
   * Change settings; Threads and Max speed take effect on running jobs at once, Part size on the next file, the stall
   * timeout on the next request.
   */
  updateSettings(patch: SettingsPatch): Settings {
    const valid = settingsPatchSchema.parse(patch);
    const pinnedThreads = this.current.threads;
    this.current = settingsSchema.parse({ ...this.current, ...valid });
    // Back to Auto from a pinned count: Auto goes on from there, not from where it was before.
    if (this.current.threads === AUTO && pinnedThreads !== AUTO) this.tuner.startFrom(pinnedThreads);
    this.gate.rate = this.current.maxRate;
    this.applyRunSettings();
    return this.current;
  }

  /**
   * Where Auto starts (a speed test's best for this endpoint): Threads from `threads`, and parts of at least
   * `partSizeBytes`. Knobs that are pinned keep their value; Auto starts from these when it is turned on again.
   */
  autoStartFrom(start: { readonly threads?: number; readonly partSizeBytes?: number; readonly source?: string }): void {
    if (start.threads !== undefined) this.tuner.startFrom(start.threads, start.source);
    if (start.partSizeBytes !== undefined) this.autoPartStart = start.partSizeBytes;
    this.applyRunSettings();
  }

  /**
   * Auto starts from the best of the speed test saved for this endpoint, when a job starts with nothing
   * else running (what runs already is Auto's to measure).
   */
  private startFromSpeedTest(connection: S3Connection, connectionRef: string | undefined): void {
    if (this.current.threads !== AUTO && this.current.partSizeBytes !== AUTO) return;
    if ([...this.jobsById.values()].some((job) => job.state.status === 'running')) return;
    const saved = this.savedSpeedTest(connection, connectionRef);
    if (!saved) return;
    const day = new Date(saved.measuredAt).toISOString().slice(0, 10);
    this.autoStartFrom({ ...saved, source: `this endpoint's speed test of ${day}` });
  }

  /** One look of Auto at the signals: the scheduler's limit follows its choice at once. */
  private autoTick(): void {
    if (this.current.threads !== AUTO) return;
    if (!this.tuner.tick()) return;
    this.applyRunSettings();
  }

  /** The settings as they now come to (Auto's choice or the pinned values), in force at once. */
  private applyRunSettings(): void {
    this.running = this.runSettings();
    this.scheduler.threads = this.running.threads;
    for (const connection of this.connections) connection.applySettings(this.socketSettings());
  }

  private runSettings(): RunSettings {
    const threads = this.current.threads === AUTO ? this.tuner.threads : this.current.threads;
    const partSizeBytes =
      this.current.partSizeBytes === AUTO
        ? (this.autoPartStart ?? FIXED_DEFAULT_PART_SIZE_BYTES)
        : this.current.partSizeBytes;
    return { ...this.current, threads, partSizeBytes };
  }

  /**
   * The part size of a file of `size` bytes: Auto's choice for it (from its size, the threads and the
   * bandwidth measured), or the setting.
   */
  private partSizeFor(size: number): number {
    if (this.current.partSizeBytes !== AUTO) return this.current.partSizeBytes;
    const choice = autoPartSize(size, {
      threads: this.running.threads,
      summary: () => this.signals.summary(PART_SIZE_WINDOW_SECONDS),
      preferredBytes: this.autoPartStart,
    });
    if (size > choice.partSizeBytes || this.lastPart.reason === undefined)
      this.lastPart = { bytes: choice.partSizeBytes, reason: choice.reason };
    return choice.partSizeBytes;
  }

  /** A connection's sockets: as many as the threads in use (Auto's choice follows each change). */
  private socketSettings(): { threads: number; stallTimeoutMs: number } {
    return { threads: this.running.threads, stallTimeoutMs: this.current.stallTimeoutMs };
  }

  // What a store holds, outside any job's queue: the one way to it for the service, as jobs are.

  listBuckets(connection: S3Connection): Promise<BucketEntry[]> {
    return listBuckets(connection);
  }

  /**
   * One page of a listing (one level with a delimiter, or everything below the prefix). With `match`,
   * only the objects a wildcard key and a filter keep (src/object-filter.ts, as jobs keep them): a
   * pattern lists everything below its literal part; folders are kept as listed.
   */
  async listObjects(
    connection: S3Connection,
    options: ListOptions,
    token?: string,
    match?: { readonly pattern?: string; readonly filter?: ObjectFilter },
  ): Promise<ListingPage & { nextToken: string | undefined }> {
    if (match?.pattern === undefined && !isFiltering(match?.filter)) return listObjectsPage(connection, options, token);
    const root = match.pattern === undefined ? undefined : patternRoot(match.pattern);
    const listed = root ? { ...options, prefix: root.listPrefix, delimiter: undefined } : options;
    const page = await listObjectsPage(connection, listed, token);
    const matches = objectMatcher(match.filter, root?.base ?? filterBase(options.prefix ?? ''), match.pattern);
    return { ...page, objects: page.objects.filter(matches) };
  }

  objectDetails(connection: S3Connection, bucket: string, key: string): Promise<ObjectDetails> {
    return headObject(connection, bucket, key);
  }

  /**
   * An object's bytes as a stream, outside any job (a browser saving it through the web host):
   * counted and checked as they pass, the last chunk held back until they are found right.
   */
  openObject(
    connection: S3Connection,
    bucket: string,
    key: string,
    options: { readonly signal?: AbortSignal; readonly requireVerified?: boolean } = {},
  ): Promise<ObjectStream> {
    return openObjectStream(connection, bucket, key, options);
  }

  /** How an object's bytes can be checked (its checksum, ETag, parts), before any is fetched. */
  async objectCheck(
    connection: S3Connection,
    bucket: string,
    key: string,
  ): Promise<{ size: number; check: ObjectCheck['check']; why?: string }> {
    const looked = await objectCheck(connection, bucket, key);
    return { size: looked.size, check: looked.check, ...(looked.plan.why ? { why: looked.plan.why } : {}) };
  }

  /** An object's bytes in order, fetched as ranges of the part size in parallel, checked as they pass (cat). */
  openObjectRanged(connection: S3Connection, bucket: string, key: string, signal?: AbortSignal): Promise<ObjectStream> {
    return openRangedObject(connection, bucket, key, { rangeBytes: this.running.partSizeBytes, signal });
  }

  /** A stream of unknown length stored as one object, in parts of the part size (pipe). */
  uploadStream(
    connection: S3Connection,
    options: Omit<StreamUploadOptions, 'partSizeBytes'>,
  ): Promise<StreamUploadResult> {
    return uploadStream(connection, { ...options, partSizeBytes: this.running.partSizeBytes });
  }

  /** Replace an object's metadata and tags: a copy of it onto itself (s3/object-labels.ts). */
  replaceObjectLabels(connection: S3Connection, bucket: string, key: string, labels: ObjectLabels): Promise<void> {
    return replaceObjectLabels(connection, bucket, key, labels, this.running.partSizeBytes);
  }

  /** Everything the store says of one object, or of one version of it (s3/object-stat.ts). */
  statObject(connection: S3Connection, bucket: string, key: string, versionId?: string): Promise<ObjectStat> {
    return statObject(connection, bucket, key, undefined, versionId);
  }

  // One key's versions: listed, restored, deleted one by one, its delete marker removed (s3/version-actions.ts).

  /** A page of versions and delete markers below a prefix (s3/object-versions.ts). */
  listVersions(connection: S3Connection, options: VersionListOptions, token?: string): Promise<VersionPage> {
    return listVersionsPage(connection, options, token);
  }

  /** A version copied over its key as the latest. */
  restoreVersion(connection: S3Connection, place: VersionPlace): Promise<{ etag: string | undefined; size: number }> {
    return restoreVersion(connection, place, this.running.partSizeBytes);
  }

  /** One version or delete marker removed for good. */
  deleteVersion(connection: S3Connection, place: VersionPlace): Promise<ObjectVersionRow> {
    return deleteVersion(connection, place);
  }

  /** A key's latest delete marker removed, so the version before it is the key's again. */
  undeleteKey(
    connection: S3Connection,
    where: { readonly bucket: string; readonly key: string; readonly markerVersionId?: string },
  ): Promise<ObjectVersionRow> {
    return undeleteKey(connection, where, () => bucketVersioning(connection, where.bucket));
  }

  /** One stretch of a prefix's size count (s3/prefix-size.ts). */
  prefixSize(connection: S3Connection, options: PrefixSizeOptions): Promise<PrefixSize> {
    // "logs" is the folder logs/: never logs.txt nor logs2/ beside it.
    // A pattern names its own keys: its literal part is listed as typed.
    const prefix = options.pattern === undefined ? asFolderPrefix(options.prefix) : options.prefix;
    return countPrefixSize(connection, { ...options, prefix });
  }

  // The speed test (issue 29 §2): an endpoint measured, each connection's last result on it kept.

  /**
   * Measure the store behind `connection` in a bucket (jobs/speed-test.ts): its grid within the budget,
   * below a prefix of its own emptied afterwards. A measured result is saved for the connection and
   * endpoint (the journal's, or this process's without one).
   */
  async startSpeedTest(
    connection: S3Connection,
    request: SpeedTestRequest,
  ): Promise<{ readonly ended: Promise<SpeedTestOutcome> }> {
    return this.speedTests.start(connection, request);
  }

  /**
   * The last speed test on `connection`'s endpoint (this connection's where it has one), with its best
   * setting: threads, part size and parts in flight, and when it was measured. What Auto starts from.
   */
  savedSpeedTest(connection: S3Connection, connectionRef?: string): SavedSpeedTest | undefined {
    return this.speedTests.saved(connection, connectionRef);
  }

  /** A link that fetches the object without credentials until it expires. */
  presign(connection: S3Connection, bucket: string, key: string, expiresInSeconds: number): Promise<string> {
    return connection.wire.presignGet(bucket, key, expiresInSeconds);
  }

  /** A new empty folder `name` in `prefix`: its zero-byte marker (s3/folder-marker.ts); answers its key. */
  makeBucketFolder(connection: S3Connection, bucket: string, prefix: string, name: string): Promise<string> {
    return makeFolderMarker(connection, bucket, prefix, name);
  }

  createBucket(connection: S3Connection, name: string): Promise<void> {
    return createBucket(connection, name);
  }

  deleteBucket(connection: S3Connection, name: string): Promise<void> {
    return deleteBucket(connection, name);
  }

  bucketVersioning(connection: S3Connection, name: string): Promise<BucketVersioning> {
    return bucketVersioning(connection, name);
  }

  /** Turn a bucket's versioning on (or suspend it), and say how it stands after. */
  setBucketVersioning(
    connection: S3Connection,
    name: string,
    status: 'enabled' | 'suspended',
  ): Promise<BucketVersioning> {
    return setBucketVersioning(connection, name, status);
  }

  /** A bucket's lifecycle rules, as Barge shows them (s3/bucket-lifecycle.ts). */
  lifecycleRules(connection: S3Connection, bucket: string): Promise<LifecycleRule[]> {
    return lifecycleRules(connection, bucket);
  }

  /** Have the store expire everything below a folder ("logs" is logs/), beside the bucket's other rules. */
  expirePrefixOnServer(connection: S3Connection, bucket: string, prefix: string): Promise<ExpiryOnServer> {
    return expirePrefixOnServer(connection, bucket, asFolderPrefix(prefix));
  }

  /** Remove one lifecycle rule by its ID, every other kept. */
  removeLifecycleRule(connection: S3Connection, bucket: string, id: string): Promise<void> {
    return removeLifecycleRule(connection, bucket, id);
  }

  /** The region a bucket is in, as the store names it (asked once if nothing has said yet); else the connection's. */
  bucketRegion(connection: S3Connection, name: string): Promise<BucketRegion> {
    return connection.regions.confirmed(name);
  }

  /** Abort (or, dryRun, list) the multipart uploads begun below a prefix and never finished. */
  abortIncompleteUploads(
    connection: S3Connection,
    bucket: string,
    prefix: string,
    dryRun: boolean,
    olderThanMs?: number,
  ): Promise<AbortUploadsResult> {
    return abortIncompleteUploads(connection, bucket, prefix, dryRun, olderThanMs);
  }

  /**
   * `target` below `root` (a host's download root), made if missing, checked on real paths; else OutsideDownloadRoot.
   */
  confinedFolder(root: string, target: string): Promise<string> {
    return confinedFolder(root, target);
  }

  /**
   * `target` if it lies below `root` (see confined-path.ts), made nowhere: a download makes its folder when an object
   * is on its way.
   */
  confinedTarget(root: string, target: string): Promise<string> {
    return confinedTarget(root, target);
  }

  /** The subfolders of a folder of this machine (names only), confined below `options.root` where given. */
  listFolders(folder: string | undefined, options: FolderListingOptions): Promise<FolderListing> {
    return listHostFolders(folder, options);
  }

  /** A new folder in a folder of this machine (a picker's New folder), confined as listings are; then its listing. */
  makeFolder(parent: string, name: string, options: FolderListingOptions): Promise<FolderListing> {
    return makeHostFolder(parent, name, options);
  }

  /**
   * Whether `config` reaches its store: one ListBuckets on a connection of its own, tried once within
   * a short time, then closed. What failed, if anything, in words and with the field it concerns.
   */
  checkConnection(config: ConnectionConfig, options: CheckOptions = {}): Promise<ConnectionCheck> {
    const open = () =>
      openConnection(config, {
        threads: 1,
        stallTimeoutMs: this.current.stallTimeoutMs,
        env: this.env,
        refuseAddress: this.refuseAddress,
      });
    return checkConnection(config, open, options);
  }

  /**
   * A connection whose socket pool follows this engine's Threads setting. `internalAllowed`: a store
   * the host itself runs on loopback (the demo store), which the refusal of internal addresses spares.
   */
  async connect(config: ConnectionConfig, options: { readonly internalAllowed?: boolean } = {}): Promise<S3Connection> {
    const refuseAddress = options.internalAllowed ? undefined : this.refuseAddress;
    const connection = await openConnection(config, {
      ...this.socketSettings(),
      env: this.env,
      refuseAddress,
      gate: this.gate,
    });
    this.connections.add(connection);
    const close = connection.close.bind(connection);
    connection.close = () => {
      this.connections.delete(connection);
      close();
    };
    return connection;
  }

  upload(connection: S3Connection, spec: UploadSpec, options: JobStartOptions = {}): Job {
    // Named after what it sends: a file's or folder's name, or "3 files and 1 folder" (a stat each;
    // a source that cannot be read is counted as a file, and fails by name when the job reaches it).
    const label = jobLabel(
      spec.sources.map((source) => ({
        name: source,
        folder: statSync(source, { throwIfNoEntry: false })?.isDirectory() ?? false,
      })),
    );
    const name = options.name ?? `${label} → ${formatS3Url({ bucket: spec.bucket, key: spec.destination })}`;
    return this.start('upload', name, spec, connection, options);
  }

  download(connection: S3Connection, spec: DownloadSpec, options: JobStartOptions = {}): Job {
    const name = options.name ?? `${remoteLabel(spec)} → ${spec.targetFile ?? spec.targetFolder}`;
    return this.start('download', name, spec, connection, options);
  }

  delete(connection: S3Connection, spec: DeleteSpec, options: JobStartOptions = {}): Job {
    const name =
      options.name ??
      (spec.deleteBucket
        ? `Empty and delete bucket ${spec.bucket}`
        : `${spec.dryRun ? 'Count' : 'Delete'} ${remoteLabel(spec)}`);
    // A dry run changes nothing: there is nothing to resume.
    const recorded = spec.dryRun ? { ...options, connectionRef: undefined } : options;
    return this.start('delete', name, spec, connection, recorded);
  }

  /**
   * Undo a delete of the history (undo-job.ts): remove the delete markers it made. Refused, with why,
   * for a job that is not a delete, not ended, undone already, run on another connection, or run
   * where no versions were kept.
   */
  undo(connection: S3Connection, jobId: string, options: JobStartOptions = {}): Job {
    const record = this.historyRecord(jobId);
    const refusal = undoRefusal(record, options.connectionRef);
    if (refusal) throw refusal;
    const bucket = (record.spec as { bucket: string }).bucket;
    const name = options.name ?? `Undo ${record.name}`;
    return this.start('undo', name, { bucket, undoes: record.id }, connection, options);
  }

  /** Bring a prefix back to how it was at a moment (restore-job.ts); a dry run lists each change. */
  restoreTo(connection: S3Connection, spec: RestoreSpec, options: JobStartOptions = {}): Job {
    const where = formatS3Url({ bucket: spec.bucket, key: spec.prefix });
    const name =
      options.name ?? `${spec.dryRun ? 'Plan restore of' : 'Restore'} ${where} to ${new Date(spec.to).toISOString()}`;
    const recorded = spec.dryRun ? { ...options, connectionRef: undefined } : options;
    return this.start('restore', name, spec, connection, recorded);
  }

  /** Jobs of the history (every host's, kept after they end), newest first. */
  history(query: HistoryQuery = {}): { jobs: HistoryEntry[]; total: number } {
    const found = this.recovery?.journalRead((journal) => journal.history(query)) ?? { jobs: [], total: 0 };
    return { total: found.total, jobs: found.jobs.map((record) => this.historyEntryOf(record)) };
  }

  /** One job of the history as its hosts show it (see historyRecord for how it is named). */
  historyEntry(id: string): HistoryEntry {
    return this.historyEntryOf(this.historyRecord(id));
  }

  private historyEntryOf(record: HistoryRecord): HistoryEntry {
    return historyEntry(record, this.jobsById.has(record.id));
  }

  /** One job of the history, named by its ID or the start of it (as git names commits); NoSuchJob if none. */
  historyRecord(id: string): HistoryRecord {
    const found = this.recovery?.journalRead((journal) => {
      const exact = journal.historyRecord(id);
      if (exact) return exact;
      const ids = id.length >= 4 ? journal.idsStartingWith(id) : [];
      if (ids.length > 1)
        throw new BargeError('AmbiguousJob', `More than one job's ID begins with ${id}: give more of it.`);
      return ids[0] === undefined ? undefined : journal.historyRecord(ids[0]);
    });
    if (!found)
      throw new BargeError(
        'NoSuchJob',
        `No job ${id} in the history (it keeps jobs of the last 90 days, up to 10,000, unless set otherwise).`,
      );
    return found;
  }

  /** What a job of the history removed: each key, the version it deleted or the delete marker it made. */
  removals(id: string): Iterable<Removal> {
    return this.recovery?.journalRead((journal) => journal.removals(id)) ?? [];
  }

  /** A page of what a job removed, and how many it removed in all. */
  removalsPage(id: string, offset: number, limit: number): { removals: Removal[]; total: number } {
    return (
      this.recovery?.journalRead((journal) => journal.removalsPage(id, offset, limit)) ?? { removals: [], total: 0 }
    );
  }

  /** Keep a prefix and a folder in step, sending only what differs (sync-job.ts); a dry run lists the plan. */
  sync(connection: S3Connection, spec: SyncSpec, options: JobStartOptions = {}): Job {
    const remote = formatS3Url({ bucket: spec.bucket, key: spec.prefix });
    const source =
      spec.direction === 'copy'
        ? formatS3Url({ bucket: spec.sourceBucket!, key: spec.pattern ?? spec.sourcePrefix! })
        : formatS3Url({ bucket: spec.bucket, key: spec.pattern ?? spec.prefix });
    const [from, to] =
      spec.direction === 'upload'
        ? [spec.folder, remote]
        : spec.direction === 'download'
          ? [source, spec.folder]
          : [source, remote];
    const name = options.name ?? `${spec.dryRun ? 'Compare' : 'Sync'} ${from} → ${to}`;
    // A dry run changes nothing: there is nothing to resume.
    const recorded = spec.dryRun ? { ...options, connectionRef: undefined } : options;
    return this.start('sync', name, spec, connection, recorded);
  }

  /**
   * Copy or move objects within the connection's store (copy-job.ts): the store copies, no byte passes
   * here. With `sourceConnection` (the spec's `sourceConnectionRef` names it), the sources are read on
   * that connection and their bytes stream through the engine to this one.
   */
  copy(
    connection: S3Connection,
    spec: CopySpec,
    options: JobStartOptions & { readonly sourceConnection?: S3Connection } = {},
  ): Job {
    const what = remoteLabel({ bucket: spec.sourceBucket, keys: spec.keys, prefixes: spec.prefixes });
    const to = formatS3Url({ bucket: spec.bucket, key: spec.destination });
    const name = options.name ?? `${spec.move ? 'Move' : 'Copy'} ${what} → ${to}`;
    const { sourceConnection, ...start } = options;
    if ((spec.sourceConnectionRef === undefined) !== (sourceConnection === undefined))
      throw new BargeError('InvalidRequest', 'A copy from another connection needs that connection, and its name.');
    // Two connections to one endpoint reach one store: a copy onto itself is refused there as within one.
    const problem =
      sourceConnection && sameEndpoint(sourceConnection, connection)
        ? copyPlacesProblem(spec, spec.move ? 'move' : 'copy')
        : undefined;
    if (problem) throw new BargeError('InvalidRequest', problem);
    const others = sourceConnection && (async () => sourceConnection);
    return this.start('copy', name, spec, connection, start, others);
  }

  /**
   * Bring back the unfinished jobs an earlier process of this host left in the journal (it crashed,
   * was killed, or quit mid-job), paused, so the user decides when they go on; a job that had failed
   * comes back failed. Each keeps the counts and times it had when its process last saw it (after a
   * crash mid-run there are none: it counts again from its journal, paused). `downloadRoot`: the
   * host confines downloads below it now; a download recorded under another root (the host was
   * started with a different --download-root since) fails when resumed instead of writing there.
   */
  restore(resolve: ConnectionResolver, confine: { readonly downloadRoot?: string } = {}): Job[] {
    return (this.recovery?.restore(resolve, confine.downloadRoot) ?? []).map((launch) => {
      const job = this.launch(launch);
      job.pause();
      return job;
    });
  }

  /**
   * Retry a job of the history: its failed items where it still knows them, else the whole job over
   * its journal (which skips what was done). One no longer in the list (cleared, or ended before a
   * restart) comes back into it first; only this host's jobs, which failed or were cancelled.
   */
  retryFromHistory(id: string, resolve: ConnectionResolver, confine: { readonly downloadRoot?: string } = {}): Job {
    const record = this.historyRecord(id);
    const refusal = this.undone(record.id);
    if (refusal) throw refusal;
    const listed = this.jobsById.get(record.id);
    if (listed) {
      if (!listed.retry())
        throw new BargeError('NothingToRetry', 'That job has not failed: there is nothing to retry.');
      return listed;
    }
    if (!this.recovery) throw new BargeError('Closed', 'The engine is closing: no job starts now.');
    const job = this.launch(this.recovery.bringBack(record.id, resolve, confine.downloadRoot));
    job.retry();
    return job;
  }

  /** The recorded run this job goes on from (or, `tooOld`, replaced), if any. */
  earlierRun(id: string): EarlierRun | undefined {
    return this.recovery?.earlierRun(id);
  }

  /**
   * What the job finished: each object's key, path, size, ETag, version ID and checksum; then what
   * failed (as far as the job kept its errors), so a receipt is written whatever the outcome.
   */
  *receipt(id: string): Generator<ReceiptEntry> {
    if (this.recovery) yield* this.recovery.receipt(id);
    const job = this.jobsById.get(id);
    if (!job) return;
    // A job no journal records (a browser's upload) keeps its own.
    yield* job.unjournaledReceipt();
    const snapshot = job.snapshot();
    // Every failure, each with its key and its local path (the item log keeps them all).
    for (const failure of job.allItems('failed')) {
      const remote = parseS3Url(failure.source) ?? parseS3Url(failure.destination);
      const local = failure.source.startsWith('s3://') ? failure.destination : failure.source;
      yield {
        key: remote?.key ?? '',
        path: local,
        size: failure.size ?? 0,
        finishedAt: snapshot.endedAt ?? snapshot.createdAt,
        status: 'failed',
        error: `${failure.code ?? 'Failed'}: ${failure.message ?? ''}`,
      };
    }
    // So is each file or object that was already there and kept, as asked: a job that kept all it
    // found had a receipt of its header alone.
    for (const kept of job.allItems('all')) {
      if (kept.state !== 'kept') continue;
      const remote = parseS3Url(kept.source) ?? parseS3Url(kept.destination);
      const local = kept.source.startsWith('s3://') ? kept.destination : kept.source;
      yield {
        key: remote?.key ?? '',
        path: local,
        size: kept.size ?? 0,
        finishedAt: snapshot.endedAt ?? snapshot.createdAt,
        status: 'kept',
        error: kept.message ?? 'Already there: kept.',
      };
    }
    // Entries found and not sent are named too: a receipt accounts for everything the job found.
    for (const skipped of snapshot.itemWarnings ?? []) {
      if (skipped.code !== 'Skipped') continue;
      yield {
        key: '',
        path: skipped.item,
        size: 0,
        finishedAt: snapshot.createdAt,
        status: 'skipped',
        error: skipped.message,
      };
    }
  }

  /**
   * A page of a job's items (every one, or the failed ones) in the order they ended; NoSuchJob when it is not in the
   * list.
   */
  details(
    id: string,
    filter: ItemFilter,
    offset: number,
    limit: number,
  ): { items: JobItem[]; total: number; unlisted: number } {
    return this.listed(id).details(filter, offset, limit);
  }

  /**
   * Run exactly the items of a job that failed again, within the job (uploads, downloads and
   * deletes alike); refused, with why, where the job does not know them one by one.
   */
  retryFailed(id: string, answer?: ConflictChoice): void {
    const refusal = this.undone(id);
    if (refusal) throw refusal;
    this.listed(id).retryFailed(answer);
  }

  /**
   * Why a delete must not run again: it was undone. Retried, it would delete again what its undo
   * brought back, under a job undone already (whose new markers no undo could remove).
   */
  private undone(id: string): BargeError | undefined {
    const record = this.recovery?.journalRead((journal) => journal.historyRecord(id));
    if (record?.undoneBy === undefined) return undefined;
    return new BargeError(
      'AlreadyUndone',
      `Job ${record.id} was undone, by job ${record.undoneBy}: to delete again, run the delete again (a new job, ` +
        `which can be undone).`,
    );
  }

  /**
   * Drop a finished job from the list and its record, keeping nothing for a resume (the command line, once its receipt
   * is written).
   */
  forget(id: string): void {
    const job = this.jobsById.get(id);
    if (job && !isFinished(job.state))
      throw new BargeError('JobNotFinished', 'That job is still running: cancel it first.');
    this.jobsById.delete(id);
    job?.dispose();
    // A failed job's leftovers (uploads begun, temporary files) go with it: no resume will come.
    if (job?.state.status === 'failed') this.recovery?.discard(id);
    else this.recovery?.forget(id);
  }

  /** The user's word on a file already there (a download whose ifExists is "ask"). */
  resolveConflict(id: string, conflictId: string, choice: ConflictChoice, applyToAll: boolean): boolean {
    return this.jobsById.get(id)?.resolveConflict(conflictId, choice, applyToAll) ?? false;
  }

  job(id: string): Job | undefined {
    return this.jobsById.get(id);
  }

  summaries(): JobSummary[] {
    return [...this.jobsById.values()].map((job) => job.summary());
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
    const refusal = id === undefined ? undefined : this.undone(id);
    if (refusal) throw refusal;
    this.each(id, (job) => {
      if (!this.undone(job.id)) job.retry();
    });
  }

  /**
   * Drop finished jobs from the list, and their records. What a failed job kept for a resume (its
   * multipart uploads, its temporary files) is cleaned up first: no resume will come for it now.
   */
  clearFinished(): void {
    for (const [id, job] of this.jobsById) {
      if (!isFinished(job.state)) continue;
      this.jobsById.delete(id);
      job.dispose();
      this.recovery?.discard(id);
    }
  }

  onEvent(listener: EngineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every job's numbers, in batches (at most ten a second). */
  onProgress(listener: (batch: readonly JobUpdate[]) => void): () => void {
    return this.onEvent((event) => {
      if (event.type === 'jobs') listener(event.jobs);
    });
  }

  /**
   * Requests in flight and waiting, and the throughput of the jobs running now: the sum of their own
   * rates, so the overall line agrees with the rows beside it, and is zero once none runs.
   */
  stats(): EngineStats {
    let bytesPerSecond = 0;
    let objectsPerSecond = 0;
    for (const job of this.jobsById.values()) {
      const rates = job.rates();
      bytesPerSecond += rates.bytesPerSecond;
      objectsPerSecond += rates.objectsPerSecond;
    }
    const limit = this.limitNow(bytesPerSecond);
    return {
      activeRequests: this.scheduler.active,
      waitingRequests: this.scheduler.waiting(),
      bytesPerSecond,
      objectsPerSecond,
      ...(limit ? { limit } : {}),
      auto: {
        threads: this.running.threads,
        peakThreads: this.current.threads === AUTO ? this.tuner.peakThreads : this.running.threads,
        partSizeBytes: this.current.partSizeBytes === AUTO ? this.lastPart.bytes : this.current.partSizeBytes,
        reason: this.current.threads === AUTO ? this.tuner.reason : undefined,
        partSizeReason: this.current.partSizeBytes === AUTO ? this.lastPart.reason : undefined,
      },
    };
  }

  /**
   * What limits the running transfers now (queue/limit-readout.ts), from the last few seconds'
   * requests; a longer look back where too few ended in them (large parts on a slow link).
   */
  private limitNow(bytesPerSecond: number): LimitReadout | undefined {
    const running = this.runningSince.size > 0;
    const since = this.busySince();
    let requests = this.signals.summary(LIMIT_WINDOW_SECONDS, since);
    if (!enoughRequests(requests)) requests = this.signals.summary(LIMIT_LONG_WINDOW_SECONDS, since);
    const limit = readLimit(
      {
        running,
        requests,
        inFlight: this.signals.active,
        cpu: this.cpu.shares(CPU_WINDOW_SECONDS),
        bytesPerSecond,
        maxRate: this.current.maxRate,
        gateHeld: this.gate.heldAt !== undefined && performance.now() - this.gate.heldAt < LIMIT_WINDOW_SECONDS * 1000,
      },
      this.limitKind,
    );
    this.limitKind = limit?.kind;
    return limit;
  }

  /**
   * Cancel everything, wait for clean-up (multipart aborts), close the connections.
   *
   * With `suspend`, journaled jobs are left as they are, like a crash would leave them, so the next
   * start brings them back: the app quitting mid-transfer loses nothing.
   */
  async close(options: { suspend?: boolean } = {}): Promise<void> {
    clearInterval(this.autoTimer);
    if (options.suspend && this.recovery) {
      // Nothing is cancelled or cleaned up (that would abort the uploads the next start resumes):
      // no request starts any more, the journal stops recording, and the requests in flight end
      // with the process.
      for (const id of this.jobsById.keys()) this.scheduler.pause(id);
      // Where each stands, for the next start to show it so.
      for (const job of this.jobsById.values()) this.recovery.suspended(job.id, job.outcome());
      this.recovery.close();
      this.recovery = undefined;
      this.publisher.dispose();
      for (const job of this.jobsById.values()) job.dispose();
      return;
    }
    this.cancel();
    // A speed test cancelled still empties its prefix before the connections close.
    await this.speedTests.cancelAll();
    await Promise.all([...this.jobsById.values()].map((job) => job.finished()));
    this.publisher.flush();
    this.publisher.dispose();
    for (const job of this.jobsById.values()) job.dispose();
    for (const connection of [...this.connections]) connection.close();
    this.recovery?.close();
  }

  /**
   * Validate the spec (the one way in for every host), then run it: recorded in the journal when the host names its
   * connection.
   */
  private start<K extends JobKind>(
    kind: K,
    name: string,
    spec: JobSpecs[K],
    connection: S3Connection,
    options: JobStartOptions,
    others?: ConnectionLookup,
  ): Job {
    const launch = launchSpec(kind, spec, others);
    const { target, dryRun } = launch;
    this.startFromSpeedTest(connection, options.connectionRef);
    if (!this.recovery || options.connectionRef === undefined)
      return this.launch({
        id: randomUUID(),
        kind,
        name,
        body: launch.body(connection),
        target,
        dryRun,
        arrival: options.arrival,
      });
    // Files that are still arriving are gone with this process: such a job cannot be resumed, only kept
    // in the history.
    if (options.arrival && !options.historyOnly)
      throw new BargeError('InvalidRequest', 'An upload whose files are still arriving cannot be recorded to resume.');
    const recorded = this.recovery.begin(launch, name, connection, {
      ...options,
      connectionRef: options.connectionRef,
    });
    const job = this.launch({ ...recorded.launch, target, dryRun, arrival: options.arrival });
    const release = recorded.release;
    void job.finished().finally(release);
    return job;
  }

  private launch(job: {
    id: string;
    kind: JobKind;
    name: string;
    body: JobBody<unknown>;
    createdAt?: number;
    recorder?: JobJournal;
    target?: JobTarget;
    dryRun?: boolean;
    outcome?: JobOutcome;
    arrival?: Arrival;
  }): Job {
    const created = new Job<unknown>({
      id: job.id,
      kind: job.kind,
      name: job.name,
      body: job.body,
      createdAt: job.createdAt,
      target: job.target,
      dryRun: job.dryRun,
      journal: job.recorder,
      restored: job.outcome,
      arrival: job.arrival,
      scheduler: this.scheduler,
      signals: this.signals,
      settings: () => this.running,
      partSizeFor: (size) => this.partSizeFor(size),
      clock: this.clock,
      onChange: (changed) => {
        this.noteRunning(changed.id, changed.state.status === 'running');
        this.publisher.changed(changed.id);
        if (isFinished(changed.state)) this.publisher.flush();
        // this.recovery, read each time: it is gone once the engine suspends.
        if (job.recorder) this.recovery?.stateChanged(changed.id, changed.state, () => changed.outcome());
      },
      onItem: (changed, list, item) => {
        const items = this.newItems.get(changed.id) ?? { errors: [], warnings: [] };
        items[list].push(item);
        this.newItems.set(changed.id, items);
      },
      onQuestions: (changed) => this.emit({ type: 'job', job: changed.summary() }),
    });
    this.jobsById.set(created.id, created);
    this.emit({ type: 'job', job: created.summary() });
    created.start();
    return created;
  }

  /** A job's change, for the readout's look back (busySince). */
  private noteRunning(id: string, running: boolean): void {
    if (!running) this.runningSince.delete(id);
    else if (!this.runningSince.has(id)) this.runningSince.set(id, performance.now());
  }

  /**
   * When the oldest of the jobs running now began to run: the readout looks no further back. A download
   * started as an upload ends is limited by something else, and the upload's requests say nothing of it.
   */
  private busySince(): number {
    return Math.min(...this.runningSince.values());
  }

  private emit(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** The job with this ID; NoSuchJob when it is not in the list (any more). */
  private listed(id: string): Job {
    const job = this.jobsById.get(id);
    if (!job) throw new BargeError('NoSuchJob', 'That job is no longer in the list.');
    return job;
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

/** What a download or delete names, as a person would say it, and where: "a.txt in s3://b/logs/". */
function remoteLabel(
  spec: Pick<DeleteSpec, 'bucket' | 'keys' | 'prefixes'> & Partial<Pick<DeleteSpec, 'patterns' | 'filter'>>,
): string {
  const items = [
    ...(spec.keys ?? []).map((key) => ({ name: key, folder: false })),
    ...(spec.prefixes ?? []).map((prefix) => ({ name: prefix, folder: true })),
  ];
  const patterns = spec.patterns ?? [];
  const where = commonParent([...items.map((item) => item.name), ...patterns.map(filterBase)]);
  // A wildcard is named as typed below its folder ("2024-*/*.gz in s3://b/logs/"), beside the rest.
  const named =
    patterns.length === 0
      ? jobLabel(items)
      : items.length === 0 && patterns.length === 1
        ? patterns[0]!.slice(where.length)
        : `${jobLabel(items)} and ${plural(patterns.length, 'pattern')}`.replace(/^nothing and /, '');
  const filtered = isFiltering(spec.filter) ? ' (filtered)' : '';
  return `${named}${filtered} in ${formatS3Url({ bucket: spec.bucket, key: where })}`;
}

/** Whether two connections reach one store: their endpoints, written alike or not (s3/store-identity.ts). */
function sameEndpoint(a: S3Connection, b: S3Connection): boolean {
  return sameStore(a.endpoint.endpoint, b.endpoint.endpoint);
}
