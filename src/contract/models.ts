// The plain, serialisable shapes that cross between the engine and the window.

import { z } from 'zod';
import { checksumModeSchema, endpointUrlProblem, REGION_PROBLEM, uploadChecksumSchema } from '../connection.ts';
import { isRegion } from '../region.ts';

/** A connection as the window sees it: never its secret. */
export const connectionSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Where it came from: saved by the user, the AWS environment variables, or an AWS profile. */
  source: z.enum(['saved', 'environment', 'profile', 'demo']),
  endpoint: z.string().optional(),
  region: z.string().optional(),
  pathStyle: z.boolean().optional(),
  profile: z.string().optional(),
  accessKeyId: z.string().optional(),
  hasSecret: z.boolean(),
  checksumMode: checksumModeSchema.optional(),
  uploadChecksum: uploadChecksumSchema.optional(),
});
export type ConnectionSummary = z.infer<typeof connectionSummarySchema>;

/** What the user types to add or edit a connection. An empty secret on edit keeps the stored one. */
export const connectionInputSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .max(100)
    .refine((name) => name !== '', 'Give the connection a name'),
  endpoint: z
    .union([
      z.literal(''),
      z.string().superRefine((text, context) => {
        const problem = endpointUrlProblem(text);
        if (problem) context.addIssue({ code: 'custom', message: `The endpoint ${problem}.` });
      }),
    ])
    .optional(),
  /** Empty: the environment's, the profile's, or us-east-1. */
  region: z
    .string()
    .trim()
    .max(50)
    .refine((region) => region === '' || isRegion(region), REGION_PROBLEM)
    .optional(),
  pathStyle: z.boolean().optional(),
  profile: z.string().trim().max(100).optional(),
  accessKeyId: z.string().trim().max(256).optional(),
  secretAccessKey: z.string().max(1024).optional(),
  checksumMode: checksumModeSchema.optional(),
  uploadChecksum: uploadChecksumSchema.optional(),
});
export type ConnectionInput = z.infer<typeof connectionInputSchema>;

/** A field of the connection form a check's failure concerns. */
export type ConnectionField = 'endpoint' | 'region' | 'profile' | 'accessKeyId' | 'secretAccessKey';

/**
 * What failed when a connection was checked: the name could not be resolved (dns), nothing listens
 * there (refused) or nothing is reached (unreachable), the secure connection failed (tls), the
 * store did not answer in time (timeout), it refused the keys (keys: 403), the region is not the
 * bucket's (region), no credentials came (credentials), this host refuses the endpoint (endpoint),
 * something answers there but not as an S3 store (not-s3: a web server).
 */
export type ConnectionFailure =
  | 'dns'
  | 'refused'
  | 'unreachable'
  | 'tls'
  | 'timeout'
  | 'keys'
  | 'region'
  | 'credentials'
  | 'endpoint'
  | 'not-s3'
  | 'other';

/** Whether a connection reaches its store (connections.check), and if not, what failed and where. */
export type ConnectionCheck =
  | {
      readonly ok: true;
      /** How many buckets it lists; undefined where its keys may not list buckets (said in `note`). */
      readonly buckets: number | undefined;
      readonly note?: string;
    }
  | {
      readonly ok: false;
      readonly failed: ConnectionFailure;
      /** The field to correct, where one is to blame. */
      readonly field: ConnectionField | undefined;
      readonly code: string;
      /** What failed and what to do, in words (never a secret). */
      readonly message: string;
    };

export const bucketSchema = z.object({ name: z.string(), createdAt: z.number().optional() });
export type Bucket = z.infer<typeof bucketSchema>;

export const objectRowSchema = z.object({
  key: z.string(),
  size: z.number(),
  lastModified: z.number().optional(),
  etag: z.string().optional(),
  storageClass: z.string().optional(),
});
export type ObjectRow = z.infer<typeof objectRowSchema>;

/** A page of a listing, read-only: it goes to the window as the engine parsed it. */
export interface ObjectPage {
  readonly objects: readonly ObjectRow[];
  readonly prefixes: readonly string[];
  /**
   * Keys and folders the store listed with a broken URL encoding ("%zz"), as it sent them: no
   * request can name them, so they are not among the rest; say them, escaped.
   */
  readonly unreadable?: readonly string[];
  /** Pass back for the next page; absent on the last page. */
  readonly nextToken?: string;
}

/**
 * The region a bucket is in: as the store named it (`told`), or, where it has not, the connection's
 * region, which its requests are then signed for.
 */
export interface BucketRegion {
  readonly region: string;
  readonly told: boolean;
}

/** Whether a bucket keeps versions (GetBucketVersioning): what a delete there does. */
export type BucketVersioning = 'enabled' | 'suspended' | 'off';

export const objectDetailsSchema = objectRowSchema.extend({
  contentType: z.string().optional(),
  cacheControl: z.string().optional(),
  versionId: z.string().optional(),
  metadata: z.record(z.string(), z.string()),
});
export type ObjectDetails = z.infer<typeof objectDetailsSchema>;

// What limits the running transfers now (main/engine/queue/limit-readout.ts), in words a user acts on.
export const LIMIT_KINDS = ['max-speed', 'throttled', 'cpu', 'disk', 'latency', 'bandwidth'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** One measured figure behind a readout: a name for scripts, its value, and the value in words. */
export const limitFigureSchema = z.object({ name: z.string(), value: z.number(), text: z.string() });
export type LimitFigure = z.infer<typeof limitFigureSchema>;

export const limitReadoutSchema = z.object({
  kind: z.enum(LIMIT_KINDS),
  /** What it is and what would help: "Latency-bound: requests spend most of their time waiting…". */
  words: z.string(),
  figures: z.array(limitFigureSchema),
});
export type LimitReadout = z.infer<typeof limitReadoutSchema>;

export const engineStatsSchema = z.object({
  activeRequests: z.number(),
  waitingRequests: z.number(),
  /** The sum of the running jobs' rates: zero when none runs. */
  bytesPerSecond: z.number(),
  objectsPerSecond: z.number().optional(),
  /** What limits the running transfers now; absent when nothing runs or no one thing dominates. */
  limit: limitReadoutSchema.optional(),
  /** Threads and Part size in use, and why (main/engine/queue/auto-tune.ts). */
  auto: z
    .object({
      /** Threads in use now: Auto's choice, or the pinned value. */
      threads: z.number(),
      /** The most threads used since the engine started (or Auto was started again). */
      peakThreads: z.number(),
      /** The part size of the last file cut into parts (Auto's choice), or the pinned value. */
      partSizeBytes: z.number(),
      /** Under Auto: what it decided of the threads, and why ("96 threads: latency-bound, small objects"). */
      reason: z.string().optional(),
      /** Under Auto: why the last file's part size. */
      partSizeReason: z.string().optional(),
    })
    .optional(),
});
export type EngineStats = z.infer<typeof engineStatsSchema>;

/** One folder of the host's machine, for a folder picker: the names of its subfolders, nothing else. */
export interface FolderListing {
  /** The folder listed, as a whole path ("..", "." and a trailing "/" resolved away). */
  readonly path: string;
  /** The folder one level up, where it may be listed too: absent at the download root (or the disk's top). */
  readonly parent: string | undefined;
  /** Its subfolders' names, sorted (hidden ones, whose names begin with ".", left out). */
  readonly folders: readonly string[];
  /** It holds more subfolders than are named. */
  readonly truncated: boolean;
}

/** A multipart upload begun and never completed or aborted. */
export interface IncompleteUpload {
  readonly key: string;
  readonly uploadId: string;
  /** When it was begun, if the store says. */
  readonly initiated?: number;
}

/**
 * What abort-uploads did: aborted (or, in a dry run, would abort), failed to abort, and left alone for being younger.
 */
export interface IncompleteUploads {
  readonly aborted: readonly IncompleteUpload[];
  readonly failed: readonly {
    readonly upload: IncompleteUpload;
    readonly error: { readonly code: string; readonly message: string };
  }[];
  readonly younger: number;
}

/** One version of a key, or one of its delete markers (objects.versions: the window's Show versions, ls --versions). */
export interface ObjectVersionRow {
  readonly key: string;
  /** "null" for what was written while the bucket did not keep versions (never enabled, or suspended). */
  readonly versionId: string;
  /** 0 for a delete marker. */
  readonly size: number;
  readonly lastModified?: number;
  readonly etag?: string;
  /** What a GET of the key gives now: this version (or, for a marker, "the key is deleted"). */
  readonly isLatest: boolean;
  readonly isDeleteMarker: boolean;
  readonly storageClass?: string;
}

/** A page of a prefix's versions and delete markers: each key's newest first, keys in the store's order. */
export interface VersionPage {
  readonly versions: readonly ObjectVersionRow[];
  /** Common prefixes ("folders") at this level, each ending in "/". */
  readonly prefixes: readonly string[];
  /** Keys the store listed with a broken URL encoding, as it sent them: left out of the rest. */
  readonly unreadable?: readonly string[];
  /** Pass back for the next page; absent on the last page. */
  readonly nextToken?: string;
}
