// The one API between the window and the engine: every method, its parameters (validated on the
// engine's side with these schemas) and its result type. The Electron preload and the web host's
// client both implement `BargeApi`; the main-side handlers and the web host both dispatch through
// the same service, so a method cannot exist on one side and not the other.

import { z } from 'zod';
import type { JobSnapshot } from '../jobs.ts';
import type { Settings } from '../settings.ts';
import { settingsPatchSchema } from '../settings.ts';
import { conflictChoiceSchema, ifExistsSchema } from '../if-exists.ts';
import type { Result } from './result.ts';
import type { Bucket, ConnectionSummary, EngineStats, ObjectDetails, ObjectPage } from './models.ts';
import { connectionInputSchema } from './models.ts';

const id = z.string().min(1).max(200);
const bucket = z.string().min(1).max(255);
const key = z.string().min(1).max(4096);
const onJob = z.object({ id: id.optional() });
const nothing = z.object({});

export const methodSchemas = {
  'host.info': nothing,
  'connections.list': nothing,
  'connections.add': connectionInputSchema,
  'connections.edit': z.object({ id, input: connectionInputSchema }),
  'connections.remove': z.object({ id }),
  'connections.test': z.object({ id }),
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
  /** Paths on the engine's machine (the Electron app's own disk). */
  'jobs.upload': z.object({ connectionId: id, bucket, prefix: z.string().max(1024), paths: z.array(z.string().min(1).max(4096)).min(1).max(100_000) }),
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
  }),
  'jobs.delete': z.object({
    connectionId: id,
    bucket,
    keys: z.array(key).max(1_000_000).default([]),
    prefixes: z.array(z.string().max(4096)).max(10_000).default([]),
    allVersions: z.boolean().default(false),
    dryRun: z.boolean().default(false),
  }),
  'jobs.pause': onJob,
  'jobs.resume': onJob,
  'jobs.cancel': onJob,
  'jobs.retry': onJob,
  /** The user's word on a file already there: for this one, or (applyToAll) every one of the job's. */
  'jobs.resolveConflict': z.object({ id: z.string().min(1).max(100), conflictId: z.string().min(1).max(20), choice: conflictChoiceSchema, applyToAll: z.boolean().default(false) }),
  /** What a job stored or saved, object by object (key, size, ETag, version ID, checksum). */
  'jobs.receipt': z.object({ id: z.string().min(1).max(100), format: z.enum(['csv', 'json']).default('csv') }),
  'jobs.clearFinished': nothing,
  'jobs.snapshot': nothing,
  'settings.get': nothing,
  'settings.update': settingsPatchSchema,
  'engine.stats': nothing,
} as const;

export type MethodName = keyof typeof methodSchemas;
export type MethodParams<M extends MethodName> = z.input<(typeof methodSchemas)[M]>;
export type ParsedParams<M extends MethodName> = z.output<(typeof methodSchemas)[M]>;

export interface HostInfo {
  /** Electron: paths are local, pickers are native. Web: files are sent to the host first. */
  readonly kind: 'electron' | 'web';
  readonly defaultDownloadFolder: string;
}

export interface MethodResults {
  'host.info': HostInfo;
  'connections.list': ConnectionSummary[];
  'connections.add': ConnectionSummary;
  'connections.edit': ConnectionSummary;
  'connections.remove': null;
  'connections.test': { buckets: number };
  'buckets.list': Bucket[];
  'buckets.create': null;
  'buckets.delete': null;
  'objects.list': ObjectPage;
  'objects.details': ObjectDetails;
  'objects.presign': { url: string };
  'jobs.upload': JobSnapshot;
  'jobs.download': JobSnapshot;
  'jobs.delete': JobSnapshot;
  'jobs.pause': null;
  'jobs.resume': null;
  'jobs.cancel': null;
  'jobs.retry': null;
  'jobs.resolveConflict': null;
  'jobs.receipt': { fileName: string; text: string };
  'jobs.clearFinished': JobSnapshot[];
  'jobs.snapshot': JobSnapshot[];
  'settings.get': Settings;
  'settings.update': Settings;
  'engine.stats': EngineStats;
}

/** Pushed from the engine: job progress (batched, at most ten a second), settings, stats. */
export type ApiEvent =
  | { readonly type: 'jobs'; readonly jobs: readonly JobSnapshot[] }
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
  uploadFiles(request: FilesToUpload): Promise<Result<JobSnapshot>>;
  /** A folder to download into, or undefined if the user cancelled (Electron: native picker). */
  pickFolder(defaultPath: string): Promise<string | undefined>;
}
