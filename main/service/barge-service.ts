// The API of src/contract/api.ts, implemented once over the engine, for every host.
//
// The Electron IPC handlers and the web host's WebSocket both hand raw payloads to `dispatch`, which
// validates them with the contract's schemas, runs the method, and answers with a Result: no throw
// crosses to the window, and no secret either (errors carry codes and sentences, not requests).

import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import path from 'node:path';
import { methodSchemas, saveLinkUrl } from '../../src/contract/api.ts';
import { issueMessage } from '../../src/contract/schema-messages.ts';
import { printable, withoutUnsafeCharacters } from '../../src/unsafe-text.ts';
import type { ApiEvent, HostInfo, MethodName, MethodResults, ParsedParams } from '../../src/contract/api.ts';
import type { Result } from '../../src/contract/result.ts';
import { failure, ok } from '../../src/contract/result.ts';
import type { JobSummary } from '../../src/jobs.ts';
import type { Engine, Job, ObjectStream, StreamUploadResult } from '../engine/engine.ts';
import { hasUploadOptions, uploadOptionsSchema } from '../../src/upload-options.ts';
import type { UploadOptions } from '../../src/upload-options.ts';
import { isFiltering } from '../../src/object-filter.ts';
import type { ObjectFilter } from '../../src/object-filter.ts';
import { BargeError, toBargeError } from '../engine/errors.ts';
import type { IfExists } from '../../src/if-exists.ts';
import { formatReceipt } from '../../src/receipt.ts';
import type { ReceiptEntry } from '../../src/receipt.ts';
import { jobLabel } from '../../src/job-label.ts';
import { StagedNames } from './staged-names.ts';
import { asFolderPrefix, formatS3Url } from '../../src/s3-url.ts';
import { formatItemsCsv, itemsFileName } from '../../src/job-items.ts';
import { formatRemovalsCsv, formatRemovalsJson, removalsFileName } from '../../src/history.ts';
import { relativePathProblem } from '../../src/local-path.ts';
import type { ConnectionRegistry } from './connection-registry.ts';
import { ListingReadAhead } from './listing-read-ahead.ts';
import type { StagedFileTarget, StagingArea } from './staging-area.ts';
import type { DemoStoreLauncher } from './demo-store.ts';
import { SaveLinks } from './save-links.ts';
import type { SpeedTestOutcome } from '../../src/speed-test.ts';

const STATS_INTERVAL_MS = 1000;

type Handlers = { [M in MethodName]: (params: ParsedParams<M>) => Promise<MethodResults[M]> };

export interface BargeService {
  /** Validate and run one call; never throws. */
  dispatch(method: string, params: unknown): Promise<Result<unknown>>;
  subscribe(listener: (event: ApiEvent) => void): () => void;
  /**
   * Where a file a browser sends for a staged batch is written (the web host's data channel, not a
   * contract method: its body is bytes). NoSuchStaging for a batch unknown, started or expired.
   */
  stagedFile(stagingId: string, relativePath: string): Promise<Result<StagedFileTarget>>;
  /**
   * A save link (objects.saveLink) followed, for the web host to stream its object to a browser as
   * a file (a data channel, as staged files are): NoSuchSaveLink for a link unknown, followed
   * already, or stale. Known, it is the host's to vouch for at once, before the store is asked.
   */
  followSaveLink(link: string): Result<FollowedSaveLink>;
  /**
   * One object's bytes in order (ranges fetched in parallel), checked as they pass: the command
   * line's `cat` (a data channel: bytes, not a contract method's JSON).
   */
  readObject(target: ObjectTarget, signal?: AbortSignal): Promise<Result<ObjectStream>>;
  /** A stream stored as one object (multipart, aborted on failure or stop): the command line's `pipe`. */
  writeObject(
    target: ObjectTarget,
    source: AsyncIterable<Buffer>,
    options: { readonly uploadOptions?: UploadOptions; readonly signal?: AbortSignal },
  ): Promise<Result<StreamUploadResult>>;
  close(): Promise<void>;
}

export type { ObjectStream, StreamUploadResult };

/** One object on a connection. */
export interface ObjectTarget {
  readonly connectionId: string;
  readonly bucket: string;
  readonly key: string;
}

/** A save link being followed. */
export interface FollowedSaveLink {
  /**
   * Its object, opened: the link is spent; if the store does not give it (or `signal`, the browser
   * going away, stops it first), the link may be followed again within its minute.
   */
  open(signal?: AbortSignal): Promise<Result<SavedObject>>;
}

/** An object on its way to a browser's download. */
export interface SavedObject {
  /** The name it is saved under (the key's last part). */
  readonly fileName: string;
  readonly size: number;
  /** Its bytes, checked as they pass; fails (its last chunk unsent) when they are not right. */
  readonly body: Readable;
}

/** The name a key is saved under in a browser: its last part ("a/b.txt" → "b.txt"; "photos/" → "photos"). */
export function savedFileName(key: string): string {
  // Control characters, bidi overrides and line separators (a key may hold any) never reach a
  // header or the browser's downloads list, where "invoice-\u202efdp.exe" would read as a PDF.
  const name = withoutUnsafeCharacters(
    key
      .split('/')
      .filter((part) => part !== '')
      .pop() ?? '',
  );
  return name === '' || name === '.' || name === '..' ? 'download' : name;
}

/**
 * Why a sync --delete onto a bucket's top is not run unasked: every object of the bucket that the
 * folder does not hold would go.
 */
export function syncDeleteAtTopRule(bucket: string): string {
  return (
    `A sync with --delete to the top of bucket ${bucket} deletes every object in the bucket that the ` +
    `source does not hold: confirm it with --yes (or look first with --dry-run).`
  );
}

/**
 * Any failure as a code and a sentence a person can act on (secrets never in either): what every
 * answer of the service carries, for a host that meets a failure of its own (the command line's last
 * word on an error).
 */
export function describeError(error: unknown): BargeError {
  return toBargeError(error);
}

/** Run and wrap: a value, or the error as a code and a sentence (never a throw across hosts). */
async function settle<T>(run: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await run());
  } catch (error) {
    const e = describeError(error);
    // A name in it (a key, a file) is shown escaped, line by line: no window or terminal reorders it.
    return failure(e.code, e.message.split('\n').map(printable).join('\n'));
  }
}

/** Run, naming what was being done in the error ("Cannot list buckets: …"). */
async function withContext<T>(context: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toBargeError(error, context);
  }
}

/**
 * Refuse a relative path: the service's working folder is no place anyone chose (the command line
 * resolves its own relative paths, against its user's folder, before it calls).
 */
function requireWholePath(local: string): void {
  if (!path.isAbsolute(local)) throw new BargeError('RelativePath', relativePathProblem(local));
}

/** A job control (one job, or all when no id is given), answered with null. */
function onJobs(act: (id: string | undefined) => void) {
  return async ({ id }: { id?: string }) => {
    act(id);
    return null;
  };
}

export interface BargeServiceOptions {
  readonly engine: Engine;
  readonly registry: ConnectionRegistry;
  readonly host: HostInfo['kind'];
  readonly downloadFolder?: string;
  /**
   * Downloads go only below this folder (the web host: whoever holds its token must not be able to
   * write anywhere the host's user can, such as ~/.aws or ~/.ssh). Checked on real paths.
   */
  readonly downloadRoot?: string;
  /** What a download does with a file already there when the window does not say (default: overwrite). */
  readonly defaultIfExists?: IfExists;
  /**
   * Bring back, paused, the jobs an earlier process of this host left unfinished (default true; the command line
   * resumes by running a command again).
   */
  readonly restoreJobs?: boolean;
  /**
   * On close, leave running jobs in the journal to come back at the next start (default true: an
   * app that quits loses nothing), or cancel them and clean up (the command line).
   */
  readonly suspendOnClose?: boolean;
  /** Where files a browser sends wait for their job (the web host's); without it, uploads.stage is NotSupported. */
  readonly staging?: StagingArea;
  /**
   * The host serves save links, objects a browser saves with its own download (the web host); without it,
   * objects.saveLink is NotSupported.
   */
  readonly browserDownloads?: boolean;
  /**
   * The callers are pages that hold the web host's token (default false): they name no file on
   * this machine (no upload sources, no receipts written here: they send and fetch files instead)
   * and keep no session connections (those are the command line's). Whoever holds the token must
   * not read or write the host user's disk, nor grow the host's memory.
   */
  readonly pageCallers?: boolean;
  /** Starts the local demo store when the window asks (`npm run serve` and `npm run demo` give one). */
  readonly demoStore?: DemoStoreLauncher;
  /** The command that started this host (`npm run demo`), which a window that lost it names (host.info). */
  readonly startedBy?: string;
}

export function createBargeService(options: BargeServiceOptions): BargeService {
  const { engine, registry } = options;
  const { staging } = options;
  /** Each staged upload's files by the names they were dropped with, in everything said of its job. */
  const stagedNames = new StagedNames();
  // Staged files go when their job completes or is cleared (a failed one may be retried).
  const releaseStaged = (event: ApiEvent) => {
    if (!staging) return;
    if (event.type === 'jobs')
      staging.jobsDone(event.jobs.filter((j) => j.state.status === 'completed').map((j) => j.id));
    else if (event.type === 'jobs-removed') {
      staging.jobsDone(event.ids);
      stagedNames.remove(event.ids);
    }
  };
  /** A job's receipt, line by line (it may hold millions), a staged upload's files as dropped. */
  function* receiptAsDropped(id: string): Generator<ReceiptEntry> {
    for (const entry of engine.receipt(id)) yield stagedNames.of(id, entry);
  }
  const saveLinks = options.browserDownloads ? new SaveLinks() : undefined;
  const requireStaging = (): StagingArea => {
    if (!staging)
      throw new BargeError('NotSupported', 'This host takes no staged files: files are uploaded by their paths here.');
    return staging;
  };

  /** Speed tests running, by their run's ID: speedtest.cancel stops one. */
  const speedTests = new Map<string, AbortController>();
  const readAhead = new ListingReadAhead<MethodResults['objects.list']>();
  const listeners = new Set<(event: ApiEvent) => void>();
  const emit = (event: ApiEvent) => {
    releaseStaged(event);
    const said = stagedNames.event(event);
    for (const listener of listeners) listener(said);
  };
  const stopProgress = engine.onEvent(emit);
  // Jobs an earlier run left unfinished (it crashed, was killed, or quit mid-job) come back paused.
  if (options.restoreJobs ?? true)
    engine.restore((connectionId) => registry.connection(connectionId), { downloadRoot: options.downloadRoot });
  // Requests in flight and overall throughput, once a second while anyone listens.
  const statsTimer = setInterval(() => {
    if (listeners.size > 0) emit({ type: 'stats', stats: engine.stats() });
  }, STATS_INTERVAL_MS);
  statsTimer.unref();

  const upload = async (params: ParsedParams<'jobs.upload'>): Promise<JobSummary> => {
    const { connectionId, bucket, prefix } = params;
    // Left out when on (the default), so a spec is the same whether or not it was said; so is
    // replacing an object already there (the default, as cp and aws s3 cp do).
    const choices = {
      ...(params.followSymlinks === false ? { followSymlinks: false } : {}),
      ...(params.ifExists === undefined || params.ifExists === 'overwrite' ? {} : { ifExists: params.ifExists }),
      ...matching([], params.filter),
      ...(hasUploadOptions(params.uploadOptions) ? { uploadOptions: params.uploadOptions } : {}),
    };
    if (params.staged) {
      const area = requireStaging();
      const { stagingId, entries, arriving } = params.staged;
      const sources = area.claim(stagingId, entries);
      let job: Job;
      try {
        const connection = await registry.connection(connectionId);
        // Files still to come: the job appears now, and receives them as its first phase.
        const arrival = arriving ? area.receive(stagingId, arriving) : undefined;
        // Staged under their own names, the entries name the job as dropped ("photos", "2 files and
        // 1 folder"): a folder is one with files below it. The staging folder goes with the host, so
        // such a job cannot resume: it is journaled for its history only.
        const name = arriving
          ? `${jobLabel(entries.map((entry) => ({ name: entry, folder: arriving.folders.includes(entry) })))} ` +
            `→ ${formatS3Url({ bucket, key: prefix })}`
          : undefined;
        const recorded = { ...(await recordedOn(connectionId)), historyOnly: true };
        job = engine.upload(
          connection,
          { sources, bucket, destination: prefix, ...choices },
          { arrival, name, ...recorded },
        );
      } catch (error) {
        await area.discard(stagingId);
        throw error;
      }
      area.started(stagingId, job.id);
      if (sources.length > 0) stagedNames.add(job.id, path.dirname(sources[0]!) + path.sep);
      return started(job);
    }
    if (options.pageCallers)
      throw new BargeError('Forbidden', 'A page may not name files on the host: send them (uploads.stage).');
    const connection = await registry.connection(connectionId);
    // Absolute: "./big.bin", "big.bin" and the same file named from another folder are one job.
    // The same file named twice is one source.
    const sources = [...new Set((params.paths ?? []).map((source) => path.resolve(source)))];
    return started(
      engine.upload(
        connection,
        { sources, bucket, destination: prefix, ...choices },
        { ...(await recordedOn(connectionId)), resume: params.resume, resumeWithinMs: params.resumeWithinMs },
      ),
    );
  };
  /**
   * A page (a web host's token holder) names an endpoint: the connection brings its own keys or a
   * profile that holds credentials of its own. Without them the host's own credentials (its
   * environment, its default profile, its container's or instance's) would sign requests to
   * wherever the page points.
   */
  const ownCredentials = async <T extends { endpoint?: string; accessKeyId?: string; profile?: string }>(
    input: T,
  ): Promise<T> => {
    if (!options.pageCallers || input.accessKeyId) return input;
    if (input.profile) {
      const problem = await registry.profileProblem(input.profile);
      if (problem) throw problem;
    } else if (input.endpoint) {
      throw new BargeError(
        'MissingCredentials',
        'Give this connection its access key ID and secret key, or an AWS profile: the host does not lend its ' +
          'own credentials to an endpoint named in the window.',
      );
    }
    return input;
  };
  /** How a job records its connection: by reference (to resume it), and as people know it (for its history). */
  const recordedOn = async (connectionId: string) => ({
    connectionRef: connectionId,
    connectionLabel: await registry.label(connectionId).catch(() => connectionId),
  });
  /**
   * A job of the history, as this host's callers may see it: a page, only the web host's own jobs. The
   * others' name files and folders on this machine (an upload's sources, a download's folder) and the
   * command line's session connections, which a page must not learn.
   */
  const historyEntry = (id: string) => {
    const entry = engine.historyEntry(id);
    if (options.pageCallers && entry.host !== 'web')
      throw new BargeError('NoSuchJob', `No job ${id} in this host's history (the web host's own jobs only).`);
    return entry;
  };
  /** A new job as its starter sees it: with the earlier run of the same command it goes on from, if any. */
  const started = (job: Job): JobSummary => {
    const earlierRun = engine.earlierRun(job.id);
    return earlierRun ? { ...job.summary(), earlierRun } : job.summary();
  };

  const defaultDownloadFolder = options.downloadRoot ?? options.downloadFolder ?? path.join(os.homedir(), 'Downloads');
  const handlers: Handlers = {
    'host.info': async () => ({
      kind: options.host,
      defaultDownloadFolder,
      machineName: os.hostname(),
      ...(options.downloadRoot === undefined ? {} : { downloadRoot: path.resolve(options.downloadRoot) }),
      ...(options.startedBy === undefined ? {} : { startedBy: options.startedBy }),
    }),
    'connections.list': () => registry.list(),
    'connections.add': async (input) => registry.add(await ownCredentials(input)),
    'connections.edit': async ({ id, input }) => registry.edit(id, await ownCredentials(input)),
    'connections.remove': async ({ id }) => {
      await registry.remove(id);
      return null;
    },
    'connections.test': async ({ id }) => ({
      buckets: (await engine.listBuckets(await registry.connection(id))).length,
    }),
    'connections.check': async ({ input, id }) => registry.check(await ownCredentials(input), id),
    'connections.open': async (config) => {
      // Sessions are the command line's (its flags over its environment): a page adds connections.
      if (options.pageCallers)
        throw new BargeError('Forbidden', 'Session connections are for the command line: add a connection instead.');
      return registry.openSession(config);
    },
    'demo.open': async () => {
      if (!options.demoStore)
        throw new BargeError(
          'NotSupported',
          'This app has no demo store to start. Run `npm run demo` from a checkout of Barge, or add a ' +
            'connection to your own store.',
        );
      const access = await options.demoStore.start((line) => emit({ type: 'demo', line }));
      return registry.useDemo(access);
    },
    'buckets.list': async ({ connectionId }) =>
      withContext('list buckets', async () => engine.listBuckets(await registry.connection(connectionId))),
    'buckets.create': async ({ connectionId, name }) => {
      await engine.createBucket(await registry.connection(connectionId), name);
      return null;
    },
    'buckets.delete': async ({ connectionId, name }) => {
      await engine.deleteBucket(await registry.connection(connectionId), name);
      return null;
    },
    'buckets.versioning': async ({ connectionId, name }) =>
      engine.bucketVersioning(await registry.connection(connectionId), name),
    'buckets.setVersioning': async ({ connectionId, name, status }) =>
      engine.setBucketVersioning(await registry.connection(connectionId), name, status),
    'buckets.region': async ({ connectionId, name }) =>
      engine.bucketRegion(await registry.connection(connectionId), name),
    'buckets.emptyAndDelete': async ({ connectionId, name }) => {
      const spec = { bucket: name, prefixes: [''], allVersions: true, abortUploads: true, deleteBucket: true };
      return started(engine.delete(await registry.connection(connectionId), spec, await recordedOn(connectionId)));
    },
    // Lifecycle rules (issue 28 §4).
    'buckets.lifecycle': async ({ connectionId, name }) =>
      engine.lifecycleRules(await registry.connection(connectionId), name),
    'buckets.expirePrefix': async ({ connectionId, name, prefix }) =>
      engine.expirePrefixOnServer(await registry.connection(connectionId), name, prefix),
    'buckets.removeLifecycleRule': async ({ connectionId, name, id }) => {
      await engine.removeLifecycleRule(await registry.connection(connectionId), name, id);
      return null;
    },
    'objects.list': async ({ connectionId, bucket, prefix, recursive, token, pageSize, pattern, filter }) =>
      withContext(`list s3://${bucket}/${pattern ?? prefix}`, async () => {
        const connection = await registry.connection(connectionId);
        const options = { bucket, prefix, delimiter: recursive ? undefined : '/', pageSize };
        const match = { pattern, filter };
        const place = JSON.stringify([connectionId, bucket, prefix, recursive ?? false, pageSize ?? 0, match]);
        // The page as the listing parsed it: no copy on the way to the window; the next one read ahead.
        return readAhead.page(place, token, (at) => engine.listObjects(connection, options, at, match));
      }),
    'objects.details': async ({ connectionId, bucket, key }) => {
      const details = await engine.objectDetails(await registry.connection(connectionId), bucket, key);
      return { ...details, metadata: { ...details.metadata } };
    },
    'objects.stat': async ({ connectionId, bucket, key, versionId }) =>
      engine.statObject(await registry.connection(connectionId), bucket, key, versionId),
    'objects.editLabels': async ({ connectionId, bucket, key, metadata, tags }) =>
      withContext(`change the metadata and tags of s3://${bucket}/${key}`, async () => {
        const connection = await registry.connection(connectionId);
        await engine.replaceObjectLabels(connection, bucket, key, { metadata, tags });
        return engine.statObject(connection, bucket, key);
      }),
    'objects.size': async ({ connectionId, bucket, prefix, pattern, filter, versions, token }) =>
      withContext(`count the size of s3://${bucket}/${pattern ?? prefix}`, async () =>
        engine.prefixSize(await registry.connection(connectionId), {
          bucket,
          prefix,
          ...(pattern === undefined ? {} : { pattern }),
          ...(filter === undefined ? {} : { filter }),
          versions,
          token,
        }),
      ),
    'objects.makeFolder': async ({ connectionId, bucket, prefix, name }) => ({
      key: await engine.makeBucketFolder(await registry.connection(connectionId), bucket, prefix, name),
    }),
    'objects.presign': async ({ connectionId, bucket, key, expiresInSeconds }) => ({
      url: await engine.presign(await registry.connection(connectionId), bucket, key, expiresInSeconds),
    }),
    'objects.saveLink': async ({ connectionId, bucket, key, requireVerified }) => {
      if (!saveLinks)
        throw new BargeError('NotSupported', 'This host serves no browser downloads: download into a folder instead.');
      // Looked up first: a missing object, a refusal, or (when asked) one that can be checked only
      // for its size is said in the window, not as a failed download.
      const looked = await withContext(`save s3://${bucket}/${key}`, async () =>
        engine.objectCheck(await registry.connection(connectionId), bucket, key),
      );
      if (requireVerified && looked.check === 'size-only') {
        throw new BargeError(
          'Unverified',
          `s3://${bucket}/${key} can be checked only for its size${looked.why ? ` (${looked.why})` : ''}: not ` +
            `saved, as asked.`,
        );
      }
      const link = saveLinks.offer({ connectionId, bucket, key, ...(requireVerified ? { requireVerified } : {}) });
      return { url: saveLinkUrl(link), fileName: savedFileName(key), size: looked.size, check: looked.check };
    },
    'jobs.upload': (params) => upload(params),
    'jobs.download': async ({
      connectionId,
      bucket,
      keys,
      prefixes,
      targetFolder,
      requireVerified,
      ifExists,
      saveAs,
      caseInsensitive,
      versionId,
      patterns,
      filter,
      resume,
      resumeWithinMs,
    }) => {
      requireWholePath(targetFolder);
      const folder =
        options.downloadRoot === undefined
          ? path.resolve(targetFolder)
          : await engine.confinedTarget(options.downloadRoot, targetFolder);
      if (saveAs !== undefined && keys.length + prefixes.length !== 1)
        throw new BargeError('InvalidRequest', 'A file name to save as is for one object only.');
      if (versionId !== undefined && (keys.length !== 1 || prefixes.length + patterns.length > 0))
        throw new BargeError('InvalidRequest', 'A version ID names a version of one key: download that key alone.');
      const onExisting = ifExists ?? options.defaultIfExists;
      const spec = {
        bucket,
        keys,
        prefixes,
        ...matching(patterns, filter),
        targetFolder: folder,
        ...(saveAs === undefined ? {} : { targetFile: path.join(folder, saveAs) }),
        ...(caseInsensitive === undefined ? {} : { caseInsensitive }),
        ...(versionId === undefined ? {} : { versionId }),
        // Left out when off, so a spec is the same whether or not it was said.
        ...(requireVerified ? { requireVerified } : {}),
        ...(onExisting ? { ifExists: onExisting } : {}),
        ...(options.downloadRoot === undefined ? {} : { confinedTo: path.resolve(options.downloadRoot) }),
      };
      return started(
        engine.download(await registry.connection(connectionId), spec, {
          ...(await recordedOn(connectionId)),
          resume,
          resumeWithinMs,
        }),
      );
    },
    'jobs.delete': async ({ connectionId, resume, resumeWithinMs, patterns, filter, ...spec }) =>
      started(
        engine.delete(
          await registry.connection(connectionId),
          { ...spec, ...matching(patterns, filter) },
          {
            ...(await recordedOn(connectionId)),
            resume,
            resumeWithinMs,
          },
        ),
      ),
    'jobs.sync': async ({ connectionId, resume, resumeWithinMs, confirmed, folder, prefix, ...choices }) => {
      const folderPrefix = asFolderPrefix(prefix);
      const toBucket = choices.direction !== 'download';
      if (choices.delete && !choices.dryRun && !confirmed && toBucket && folderPrefix === '')
        throw new BargeError('ConfirmationNeeded', syncDeleteAtTopRule(choices.bucket));
      const common = {
        bucket: choices.bucket,
        prefix: folderPrefix,
        ...(choices.pattern === undefined ? {} : { pattern: choices.pattern }),
        ...(choices.filter === undefined ? {} : { filter: choices.filter }),
        ...(choices.uploadOptions === undefined ? {} : { uploadOptions: choices.uploadOptions }),
        // Left out when off, so a spec is the same whether or not it was said.
        ...(choices.delete ? { delete: true } : {}),
        ...(choices.dryRun ? { dryRun: true } : {}),
        ...(choices.checksum ? { checksum: true } : {}),
      };
      if (choices.direction === 'copy') {
        // Both sides are prefixes of this connection: no file of the host is read, written or deleted.
        const spec = {
          direction: 'copy' as const,
          sourceBucket: choices.sourceBucket!,
          sourcePrefix: asFolderPrefix(choices.sourcePrefix ?? ''),
          ...common,
        };
        return started(
          engine.sync(await registry.connection(connectionId), spec, {
            ...(await recordedOn(connectionId)),
            resume,
            resumeWithinMs,
          }),
        );
      }
      requireWholePath(folder!);
      // A page names no files on the host (jobs.upload refuses `paths`), except below the download
      // root the host gave it: a sync reads, writes and deletes there only, either way.
      if (options.pageCallers && options.downloadRoot === undefined && choices.direction === 'upload')
        throw new BargeError('Forbidden', 'A page may not name files on the host: send them (uploads.stage).');
      const local =
        options.downloadRoot === undefined
          ? path.resolve(folder!)
          : choices.direction === 'download'
            ? await engine.confinedTarget(options.downloadRoot, folder!)
            : await engine.confinedFolder(options.downloadRoot, folder!);
      const spec = {
        direction: choices.direction,
        folder: local,
        ...common,
        // A page's sync up reads below the root only: no link there leads it elsewhere on the host.
        ...(choices.followSymlinks === false || options.pageCallers ? { followSymlinks: false } : {}),
        ...(options.downloadRoot === undefined ? {} : { confinedTo: path.resolve(options.downloadRoot) }),
      };
      return started(
        engine.sync(await registry.connection(connectionId), spec, {
          ...(await recordedOn(connectionId)),
          resume,
          resumeWithinMs,
        }),
      );
    },
    'jobs.copy': async ({ connectionId, sourceConnectionId, resume, resumeWithinMs, patterns, filter, ...places }) => {
      const connection = await registry.connection(connectionId);
      const spec = { ...places, ...matching(patterns, filter) };
      const start = { ...(await recordedOn(connectionId)), resume, resumeWithinMs };
      if (sourceConnectionId === undefined || sourceConnectionId === connectionId)
        return started(engine.copy(connection, spec, start));
      // From another connection: its bytes stream through the engine (s3/streamed-copy.ts).
      const sourceConnection = await registry.connection(sourceConnectionId);
      return started(
        engine.copy(connection, { ...spec, sourceConnectionRef: sourceConnectionId }, { ...start, sourceConnection }),
      );
    },
    'jobs.pause': onJobs((id) => engine.pause(id)),
    'jobs.resume': onJobs((id) => engine.resume(id)),
    'jobs.cancel': onJobs((id) => engine.cancel(id)),
    'jobs.retry': onJobs((id) => engine.retry(id)),
    'jobs.resolveConflict': async ({ id, conflictId, choice, applyToAll }) => {
      if (!engine.resolveConflict(id, conflictId, choice, applyToAll))
        throw new BargeError('NoSuchConflict', 'That question was answered already, or its job has ended.');
      return null;
    },
    'jobs.receipt': async ({ id, format }) => {
      const job = engine.job(id);
      if (!job) throw new BargeError('NoSuchJob', 'That job is no longer in the list.');
      return {
        fileName: `barge-receipt-${job.kind}-${id.slice(0, 8)}.${format}`,
        text: [...formatReceipt(receiptAsDropped(id), format)].join(''),
      };
    },
    'jobs.saveReceipt': async ({ id, path: file, format }) => {
      // A page saves a receipt through the browser (jobs.receipt): it names no file on the host.
      if (options.pageCallers)
        throw new BargeError(
          'Forbidden',
          'A page may not name files on the host: fetch the receipt (jobs.receipt) and save it in the browser.',
        );
      if (!engine.job(id)) throw new BargeError('NoSuchJob', 'That job is no longer in the list.');
      requireWholePath(file);
      const name = path.basename(file);
      if (name === '' || name === '.' || name === '..')
        throw new BargeError('InvalidRequest', `${file} names no file: give the receipt a file name.`);
      // Where the host confines downloads, receipts too.
      const target =
        options.downloadRoot === undefined
          ? path.resolve(file)
          : path.join(await engine.confinedFolder(options.downloadRoot, path.dirname(file)), name);
      // Written aside under a name of its own, made new (never through a link that stands there),
      // then renamed: a receipt is whole or absent, never half a list, and nothing else is written.
      const partial = path.join(
        path.dirname(target),
        `.${path.basename(target).slice(0, 200)}.${randomUUID().slice(0, 8)}.barge-partial`,
      );
      try {
        await pipeline(
          Readable.from(formatReceipt(engine.receipt(id), format)),
          createWriteStream(partial, { flags: 'wx', mode: 0o644 }),
        );
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw toBargeError(error, `write the receipt ${target}`);
      }
      return null;
    },
    'jobs.forget': async ({ id }) => {
      if (!engine.job(id)) throw new BargeError('NoSuchJob', 'That job is no longer in the list.');
      engine.forget(id);
      emit({ type: 'jobs-removed', ids: [id] });
      return null;
    },
    'jobs.clearFinished': async () => {
      const before = new Set(engine.summaries().map((j) => j.id));
      engine.clearFinished();
      const after = engine.summaries();
      for (const job of after) before.delete(job.id);
      emit({ type: 'jobs-removed', ids: [...before] });
      return after.map((job) => stagedNames.of(job.id, job));
    },
    'jobs.snapshot': async () => engine.summaries().map((job) => stagedNames.of(job.id, job)),
    'jobs.items': async ({ id, list, offset, limit }) => {
      const job = engine.job(id);
      if (!job) throw new BargeError('NoSuchJob', 'That job is no longer in the list.');
      return stagedNames.of(id, job.items(list, offset, limit));
    },
    'jobs.details': async ({ id, filter, offset, limit }) => {
      const page = engine.details(id, filter, offset, limit);
      return stagedNames.of(id, page);
    },
    'jobs.detailsCsv': async ({ id, filter, offset, limit }) => {
      const job = engine.job(id);
      if (!job) throw new BargeError('NoSuchJob', 'That job is no longer in the list.');
      const page = engine.details(id, filter, offset, limit);
      const lines = [...formatItemsCsv(stagedNames.of(id, page.items))];
      // The header once, with the first page.
      const text = (offset === 0 ? lines : lines.slice(1)).join('');
      const end = offset + page.items.length;
      return {
        fileName: itemsFileName(job.kind, id, filter),
        text,
        ...(page.items.length > 0 && end < page.total ? { next: end } : {}),
      };
    },
    'jobs.retryFailed': async ({ id, ifExists }) => {
      engine.retryFailed(id, ifExists);
      return null;
    },
    'jobs.restore': async ({ connectionId, resume, resumeWithinMs, ...spec }) =>
      started(
        engine.restoreTo(await registry.connection(connectionId), spec, {
          ...(await recordedOn(connectionId)),
          resume,
          resumeWithinMs,
        }),
      ),
    'history.list': async (query) => engine.history(options.pageCallers ? { ...query, hosts: ['web'] } : query),
    'history.job': async ({ id }) => historyEntry(id),
    'history.removals': async ({ id, format, offset, limit }) => {
      const entry = historyEntry(id);
      const page = engine.removalsPage(entry.id, offset, limit);
      const lines =
        format === 'csv' ? formatRemovalsCsv(page.removals, offset === 0) : formatRemovalsJson(page.removals);
      const end = offset + page.removals.length;
      return {
        fileName: removalsFileName(entry.kind, entry.id, format),
        text: [...lines].join(''),
        total: page.total,
        ...(page.removals.length > 0 && end < page.total ? { next: end } : {}),
      };
    },
    'history.retry': async ({ id }) =>
      started(
        engine.retryFromHistory(id, (connectionId) => registry.connection(connectionId), {
          downloadRoot: options.downloadRoot,
        }),
      ),
    'history.undo': async ({ id, connectionId, resume, resumeWithinMs }) => {
      const entry = historyEntry(id);
      const on = connectionId ?? entry.connectionId;
      return started(
        engine.undo(await registry.connection(on), entry.id, {
          ...(await recordedOn(on)),
          resume,
          resumeWithinMs,
        }),
      );
    },
    'uploads.stage': async () => ({ stagingId: await requireStaging().create() }),
    'uploads.abortIncomplete': async ({ connectionId, bucket, prefix, olderThanMs, dryRun }) => {
      const result = await engine.abortIncompleteUploads(
        await registry.connection(connectionId),
        bucket,
        prefix,
        dryRun,
        olderThanMs,
      );
      return {
        ...result,
        failed: result.failed.map(({ upload, error }) => ({
          upload,
          error: { code: error.code, message: error.message },
        })),
      };
    },
    'fs.listFolders': async ({ path: folder }) =>
      engine.listFolders(folder, { root: options.downloadRoot, start: defaultDownloadFolder }),
    'fs.makeFolder': async ({ parent, name }) =>
      engine.makeFolder(parent, name, { root: options.downloadRoot, start: defaultDownloadFolder }),
    // Versions (issue 28 §1).
    'objects.versions': async ({ connectionId, bucket, prefix, recursive, token, pageSize }) =>
      withContext(`list the versions in s3://${bucket}/${prefix}`, async () =>
        engine.listVersions(
          await registry.connection(connectionId),
          { bucket, prefix, delimiter: recursive ? undefined : '/', pageSize },
          token,
        ),
      ),
    'objects.restoreVersion': async ({ connectionId, bucket, key, versionId }) =>
      withContext(`restore version "${versionId}" of s3://${bucket}/${key}`, async () => {
        const restored = await engine.restoreVersion(await registry.connection(connectionId), {
          bucket,
          key,
          versionId,
        });
        return { size: restored.size, ...(restored.etag === undefined ? {} : { etag: restored.etag }) };
      }),
    'objects.deleteVersion': async ({ connectionId, bucket, key, versionId }) =>
      withContext(`delete version "${versionId}" of s3://${bucket}/${key}`, async () =>
        engine.deleteVersion(await registry.connection(connectionId), { bucket, key, versionId }),
      ),
    'objects.undelete': async ({ connectionId, bucket, key, versionId }) =>
      withContext(`undelete s3://${bucket}/${key}`, async () =>
        engine.undeleteKey(await registry.connection(connectionId), {
          bucket,
          key,
          ...(versionId === undefined ? {} : { markerVersionId: versionId }),
        }),
      ),
    // The speed test (issue 29 §2): run by the engine, its progress and outcome told as `speedtest` events.
    'speedtest.start': async ({ connectionId, bucket, prefix, budgetMs }) => {
      const connection = await registry.connection(connectionId);
      const runId = randomUUID();
      const cancel = new AbortController();
      const { ended } = await engine.startSpeedTest(connection, {
        bucket,
        prefix: prefix === '' ? '' : asFolderPrefix(prefix),
        budgetMs,
        connectionRef: connectionId,
        signal: cancel.signal,
        onProgress: (progress) => emit({ type: 'speedtest', runId, progress }),
      });
      speedTests.set(runId, cancel);
      const place = formatS3Url({ bucket, key: prefix });
      void ended
        .catch((error: unknown): SpeedTestOutcome => {
          const e = describeError(error);
          const cleanup = {
            place,
            clean: false,
            objectsLeft: undefined,
            uploadsLeft: undefined,
            problem: 'It was not cleaned up.',
          };
          return { state: 'failed', error: { code: e.code, message: e.message }, cleanup };
        })
        .then((outcome) => emit({ type: 'speedtest', runId, outcome }))
        .finally(() => speedTests.delete(runId));
      return { runId };
    },
    'speedtest.cancel': async ({ runId }) => {
      speedTests.get(runId)?.abort();
      return null;
    },
    'speedtest.saved': async ({ connectionId }) =>
      engine.savedSpeedTest(await registry.connection(connectionId), connectionId) ?? null,
    'settings.get': async () => engine.settings,
    'settings.update': async (patch) => {
      const settings = engine.updateSettings(patch);
      emit({ type: 'settings', settings });
      return settings;
    },
    'engine.stats': async () => engine.stats(),
  };

  return {
    async dispatch(method, params) {
      if (!Object.hasOwn(methodSchemas, method))
        return failure('UnknownMethod', `There is no method "${String(method).slice(0, 80)}".`);
      const name = method as MethodName;
      // The input is kept in an issue only to tell a missing field from a wrong one: never said.
      const parsed = methodSchemas[name].safeParse(params ?? {}, { reportInput: true });
      // In words, whoever made the call: a form, the status line, the command line (schema-messages.ts).
      if (!parsed.success) return failure('InvalidRequest', issueMessage(parsed.error.issues[0]));
      const run = handlers[name] as (p: unknown) => Promise<unknown>;
      return settle(() => run(parsed.data));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stagedFile: (stagingId, relativePath) => settle(() => requireStaging().fileFor(stagingId, relativePath)),
    followSaveLink(link) {
      const taken = saveLinks?.take(link);
      if (!taken)
        return failure(
          'NoSuchSaveLink',
          'That download link was used already, or waited too long: save the object again from the window.',
        );
      const { connectionId, bucket, key, requireVerified } = taken.target;
      return ok({
        open: (signal) =>
          settle(async () => {
            try {
              const opened = await withContext(`save s3://${bucket}/${key}`, async () =>
                engine.openObject(await registry.connection(connectionId), bucket, key, { signal, requireVerified }),
              );
              return { fileName: savedFileName(key), size: opened.size, body: opened.body };
            } catch (error) {
              taken.giveBack();
              throw error;
            }
          }),
      });
    },
    readObject: ({ connectionId, bucket, key }, signal) =>
      settle(() =>
        withContext(`read s3://${bucket}/${key}`, async () =>
          engine.openObjectRanged(await registry.connection(connectionId), bucket, key, signal),
        ),
      ),
    writeObject: ({ connectionId, bucket, key }, source, { uploadOptions, signal }) =>
      settle(async () =>
        engine.uploadStream(await registry.connection(connectionId), {
          bucket,
          key,
          source,
          // Checked here as the contract checks a job's: a host other than the command line may call.
          uploadOptions: uploadOptions && uploadOptionsSchema.parse(uploadOptions),
          signal,
        }),
      ),
    async close() {
      clearInterval(statsTimer);
      stopProgress();
      listeners.clear();
      // Jobs still running are left in the journal, to come back (paused) at the next start.
      await engine.close({ suspend: options.suspendOnClose ?? true });
      await staging?.close();
    },
  };
}

/**
 * A job's wildcards and filter, left out when there are none: a spec is the same whether or not they
 * were said (the journal knows a job again by its spec).
 */
function matching(
  patterns: readonly string[],
  filter: ObjectFilter | undefined,
): { patterns?: readonly string[]; filter?: ObjectFilter } {
  return { ...(patterns.length > 0 ? { patterns } : {}), ...(isFiltering(filter) ? { filter } : {}) };
}
