// The one API between the window and the engine: every method, its parameters (validated on the
// engine's side with these schemas) and its result type. The Electron preload and the web host's
// client both implement `BargeApi`; the main-side handlers and the web host both dispatch through
// the same service, so a method cannot exist on one side and not the other.

import { z } from 'zod';
import type { ItemError, JobSummary, JobUpdate } from '../jobs.ts';
import { sessionConnectionSchema } from '../connection.ts';
import type { Settings } from '../settings.ts';
import { settingsPatchSchema } from '../settings.ts';
import { conflictChoiceSchema, ifExistsSchema } from '../if-exists.ts';
import type { Result } from './result.ts';
import type { Bucket, ConnectionSummary, EngineStats, IncompleteUploads, ObjectDetails, ObjectPage } from './models.ts';
import { connectionInputSchema } from './models.ts';

const id = z.string().min(1).max(200);
const bucket = z.string().min(1).max(255);
const key = z.string().min(1).max(4096);
const onJob = z.object({ id: id.optional() });
const nothing = z.object({});
/**
 * An unfinished earlier run of the same job (the same command run again): go on from it (true), or
 * clean up what it left and start afresh (false); absent, none is looked for (the window's jobs).
 */
const rerun = {
  resume: z.boolean().optional(),
  /** An earlier run last heard of longer ago than this is started afresh, not resumed. */
  resumeWithinMs: z.number().int().positive().optional(),
};

export const methodSchemas = {
  'host.info': nothing,
  'connections.list': nothing,
  'connections.add': connectionInputSchema,
  'connections.edit': z.object({ id, input: connectionInputSchema }),
  'connections.remove': z.object({ id }),
  'connections.test': z.object({ id }),
  /**
   * A connection for this process only (the command line's flags, over its environment's
   * credentials): never saved, no secret. The same settings get the same ID, so a command run
   * again is the same job.
   */
  'connections.open': sessionConnectionSchema,
  'buckets.list': z.object({ connectionId: id }),
  'buckets.create': z.object({ connectionId: id, name: bucket }),
  'buckets.delete': z.object({ connectionId: id, name: bucket }),
  'objects.list': z.object({
    connectionId: id,
    bucket,
    prefix: z.string().max(4096),
    /** One level ("folders") or everything below the prefix. */
    recursive: z.boolean().default(false),
    token: z.string().max(4096).optional(),
    pageSize: z.number().int().min(1).max(1000).optional(),
  }),
  'objects.details': z.object({ connectionId: id, bucket, key }),
  'objects.presign': z.object({ connectionId: id, bucket, key, expiresInSeconds: z.number().int().min(1).max(7 * 24 * 3600).default(3600) }),
  /** Paths on the engine's machine (the Electron app's own disk, the command line's). */
  'jobs.upload': z.object({
    connectionId: id,
    bucket,
    /** Where they go: a prefix ending in "/" (or "" for the bucket's top), or for one file its key. */
    prefix: z.string().max(1024),
    paths: z.array(z.string().min(1).max(4096)).min(1).max(100_000),
    /** Follow symbolic links (default), or skip each, named. */
    followSymlinks: z.boolean().optional(),
    ...rerun,
  }),
  'jobs.download': z.object({
    connectionId: id,
    bucket,
    keys: z.array(key).max(100_000).default([]),
    prefixes: z.array(z.string().max(4096)).max(10_000).default([]),
    targetFolder: z.string().min(1).max(4096),
    /** Fail an object that can be checked only for its size, rather than save it with a warning. */
    requireVerified: z.boolean().default(false),
    /** A file that is already there: the host's default when absent (the web host fails it). */
    ifExists: ifExistsSchema.optional(),
    /** One key only: the name of the file it is saved as in targetFolder (not a path). */
    saveAs: z.string().min(1).max(255).refine((name) => !/[/\\\0]/.test(name) && name !== '.' && name !== '..', 'a file name, not a path').optional(),
    /** Names that differ only in case are one file (a folder bound for Windows or macOS); absent: the folder is asked. */
    caseInsensitive: z.boolean().optional(),
    ...rerun,
  }),
  'jobs.delete': z.object({
    connectionId: id,
    bucket,
    keys: z.array(key).max(1_000_000).default([]),
    prefixes: z.array(z.string().max(4096)).max(10_000).default([]),
    allVersions: z.boolean().default(false),
    dryRun: z.boolean().default(false),
    ...rerun,
  }),
  'jobs.pause': onJob,
  'jobs.resume': onJob,
  'jobs.cancel': onJob,
  'jobs.retry': onJob,
  /** The user's word on a file already there: for this one, or (applyToAll) every one of the job's. */
  'jobs.resolveConflict': z.object({ id: z.string().min(1).max(100), conflictId: z.string().min(1).max(20), choice: conflictChoiceSchema, applyToAll: z.boolean().default(false) }),
  /** What a job stored or saved, object by object (key, size, ETag, version ID, checksum). */
  'jobs.receipt': z.object({ id: z.string().min(1).max(100), format: z.enum(['csv', 'json']).default('csv') }),
  /** Write a job's receipt to a file on the engine's machine (below the download root, where the host has one). */
  'jobs.saveReceipt': z.object({ id: z.string().min(1).max(100), path: z.string().min(1).max(4096), format: z.enum(['csv', 'json']) }),
  /** Drop a finished job from the list and its record, keeping nothing for a resume. */
  'jobs.forget': z.object({ id: z.string().min(1).max(100) }),
  'jobs.clearFinished': nothing,
  'jobs.snapshot': nothing,
  /** A page of a job's item errors or warnings (the first ones it kept; its progress has the counts). */
  'jobs.items': z.object({ id: z.string().min(1).max(100), list: z.enum(['errors', 'warnings']), offset: z.number().int().nonnegative().default(0), limit: z.number().int().min(1).max(1000).default(1000) }),
  /** Multipart uploads begun and never completed or aborted, each costing storage: abort them (or, dryRun, list them). */
  'uploads.abortIncomplete': z.object({
    connectionId: id,
    bucket,
    prefix: z.string().max(4096).default(''),
    /** Only uploads begun at least this long ago: a younger one may be another process's, sending now. */
    olderThanMs: z.number().int().nonnegative().optional(),
    dryRun: z.boolean().default(false),
  }),
  'settings.get': nothing,
  'settings.update': settingsPatchSchema,
  'engine.stats': nothing,
} as const;

export type MethodName = keyof typeof methodSchemas;
export type MethodParams<M extends MethodName> = z.input<(typeof methodSchemas)[M]>;
export type ParsedParams<M extends MethodName> = z.output<(typeof methodSchemas)[M]>;

export interface HostInfo {
  /** Electron: paths are local, pickers are native. Web: files are sent to the host first. */
  readonly kind: 'electron' | 'web' | 'cli';
  readonly defaultDownloadFolder: string;
}

export interface MethodResults {
  'host.info': HostInfo;
  'connections.list': ConnectionSummary[];
  'connections.add': ConnectionSummary;
  'connections.edit': ConnectionSummary;
  'connections.remove': null;
  'connections.test': { buckets: number };
  'connections.open': ConnectionSummary;
  'buckets.list': Bucket[];
  'buckets.create': null;
  'buckets.delete': null;
  'objects.list': ObjectPage;
  'objects.details': ObjectDetails;
  'objects.presign': { url: string };
  'jobs.upload': JobSummary;
  'jobs.download': JobSummary;
  'jobs.delete': JobSummary;
  'jobs.pause': null;
  'jobs.resume': null;
  'jobs.cancel': null;
  'jobs.retry': null;
  'jobs.resolveConflict': null;
  'jobs.receipt': { fileName: string; text: string };
  'jobs.saveReceipt': null;
  'jobs.forget': null;
  'jobs.clearFinished': JobSummary[];
  'jobs.snapshot': JobSummary[];
  'jobs.items': { items: ItemError[]; total: number };
  'uploads.abortIncomplete': IncompleteUploads;
  'settings.get': Settings;
  'settings.update': Settings;
  'engine.stats': EngineStats;
}

/**
 * Pushed from the engine: job progress, numbers only (batched, at most ten a second); a job when it
 * appears or its questions change; item errors and warnings once, as they happen (with the batch);
 * jobs removed; settings; stats.
 */
export type ApiEvent =
  | { readonly type: 'jobs'; readonly jobs: readonly JobUpdate[] }
  | { readonly type: 'job'; readonly job: JobSummary }
  | { readonly type: 'job-items'; readonly id: string; readonly errors: readonly ItemError[]; readonly warnings: readonly ItemError[] }
  | { readonly type: 'jobs-removed'; readonly ids: readonly string[] }
  | { readonly type: 'settings'; readonly settings: Settings }
  | { readonly type: 'stats'; readonly stats: EngineStats };

/** Files the user dropped or picked, as the window has them. */
export interface FilesToUpload {
  readonly connectionId: string;
  readonly bucket: string;
  readonly prefix: string;
  /** Each with its path relative to what was dropped ("photos/a.jpg" for a dropped folder). */
  readonly files: readonly { readonly file: File; readonly relativePath: string }[];
}

/** What the window talks to: implemented by the Electron preload and by the web host's client. */
export interface BargeApi {
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<Result<MethodResults[M]>>;
  subscribe(listener: (event: ApiEvent) => void): () => void;
  /** Upload dropped or picked files: by path in Electron, by streaming them to the host on the web. */
  uploadFiles(request: FilesToUpload): Promise<Result<JobSummary>>;
  /** A folder to download into, or undefined if the user cancelled (Electron: native picker). */
  pickFolder(defaultPath: string): Promise<string | undefined>;
}
