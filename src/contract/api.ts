// The one API between the window and the engine: every method, its parameters (validated on the
// engine's side with these schemas) and its result type. The Electron preload and the web host's
// client both implement `BargeApi`; the main-side handlers and the web host both dispatch through
// the same service, so a method cannot exist on one side and not the other.

import { copyPlacesProblem } from '../copy-targets.ts';
import { syncOverlapProblem } from '../sync-places.ts';
import { z } from 'zod';
import type { ItemError, JobItem, JobKind, JobSummary, JobUpdate } from '../jobs.ts';
import type { HistoryEntry } from '../history.ts';
import { sessionConnectionSchema } from '../connection.ts';
import type { Settings } from '../settings.ts';
import { settingsPatchSchema } from '../settings.ts';
import { conflictChoiceSchema, ifExistsSchema } from '../if-exists.ts';
import type { IfExists } from '../if-exists.ts';
import { fileNameProblem } from '../key-path.ts';
import { metadataSchema, tagsSchema, uploadOptionsSchema } from '../upload-options.ts';
import type { UploadOptions } from '../upload-options.ts';
import { printable } from '../unsafe-text.ts';
import { keyBytesProblem } from '../s3-names.ts';
import { objectFilterSchema } from '../object-filter.ts';
import type { PrefixSize } from '../prefix-size.ts';
import type { ObjectStat } from '../object-stat.ts';
import type { ExpiryOnServer, LifecycleRule } from '../lifecycle-rules.ts';
import type { Result } from './result.ts';
import { DEFAULT_SPEED_TEST_BUDGET_MS, MAX_SPEED_TEST_BUDGET_MS, MIN_SPEED_TEST_BUDGET_MS } from '../speed-test.ts';
import type { SavedSpeedTest, SpeedTestOutcome, SpeedTestProgress } from '../speed-test.ts';
import { apiErrorSchema } from './result.ts';
import type {
  Bucket,
  BucketRegion,
  BucketVersioning,
  ConnectionCheck,
  ConnectionSummary,
  EngineStats,
  FolderListing,
  IncompleteUploads,
  ObjectDetails,
  ObjectPage,
  ObjectVersionRow,
  VersionPage,
} from './models.ts';
import { connectionInputSchema } from './models.ts';

const id = z.string().min(1).max(200);
/**
 * A bucket's name as a store may have it (old buckets may have capitals), but never a path or a
 * query: a name like "..", "a/../b" or "b?versions" would address something other than a bucket.
 */
const bucket = z
  .string()
  .min(1)
  .max(255)
  .superRefine((name, context) => {
    if (/[/\\?#%\s\u0000-\u001f\u007f]/.test(name) || name === '.' || name === '..') {
      context.addIssue({
        code: 'custom',
        message:
          `"${shortened(name)}" is not a bucket's name (letters, digits, dots and hyphens): a bucket is ` +
          `named alone, without a path.`,
      });
    }
  });
/**
 * Text that becomes a key or the start of keys: S3 takes at most 1,024 bytes of UTF-8 (not characters:
 * "é" is two bytes), so the limit is checked in bytes, and said as the engine says it of a file's key.
 * `what`: what the text is called ("The key"); a prefix of a folder is no key, but none longer fits one.
 */
function keyText(base: z.ZodString, what: (text: string) => string, advice: (text: string) => string) {
  return base.superRefine((text, context) => {
    const problem = keyBytesProblem(text);
    if (problem)
      context.addIssue({ code: 'custom', message: `${what(text)} "${shortened(text)}" ${problem}: ${advice(text)}.` });
  });
}
/** At most 80 characters of a name, escaped, for a message. */
function shortened(text: string): string {
  return printable(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
const key = keyText(
  z.string().min(1),
  () => 'The key',
  () => 'no object can have it',
);
const prefix = keyText(
  z.string(),
  () => 'The prefix',
  () => 'no key can begin with it',
);
/** Where an upload goes: a prefix ending in "/" (or "" for the bucket's top), or for one file its key. */
const destination = keyText(
  z.string(),
  (text) => (text.endsWith('/') ? 'The destination prefix' : 'The key'),
  (text) =>
    text.endsWith('/') ? 'no key can begin with it: shorten it' : 'shorten the name or the destination prefix',
);
/** An S3-URL wildcard key ("logs/2024-*\/*.gz"): `*` any characters ("/" too), `?` one (src/object-filter.ts). */
const pattern = keyText(
  z.string().min(1),
  () => 'The pattern',
  () => 'no key can match it',
);
/** Which listed objects a listing or a job keeps: wildcards and filters, one definition (src/object-filter.ts). */
const matching = {
  patterns: z.array(pattern).max(10_000).default([]),
  filter: objectFilterSchema.optional(),
};
const onJob = z.strictObject({ id: id.optional() });
/** A version of a key as the store names it ("null" for one written while versioning was off or suspended). */
const versionId = z
  .string()
  .min(1)
  .max(1024)
  .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'A version ID has no control characters: copy it again.');
const jobId = z.string().min(1).max(100);
/** Every item of a job, or the failed ones only. */
const itemFilter = z.enum(['all', 'failed']).default('all');
const nothing = z.strictObject({});
const jobKind = z.enum(['upload', 'download', 'delete', 'sync', 'copy', 'undo', 'restore'] satisfies JobKind[]);
/** One file or folder name: no path, nothing that leaves its folder. */
const entryName = z
  .string()
  .min(1)
  .max(255)
  .superRefine((name, context) => {
    if (/[/\\\0]/.test(name) || name === '.' || name === '..')
      context.addIssue({
        code: 'custom',
        message:
          `"${shortened(name)}" is not one file's or folder's name: name each item dropped alone, ` + `without a path.`,
      });
  });
/**
 * An unfinished earlier run of the same job (the same command run again): go on from it (true), or
 * clean up what it left and start afresh (false); absent, none is looked for (the window's jobs).
 */
const rerun = {
  resume: z.boolean().optional(),
  /** An earlier run last heard of longer ago than this is started afresh, not resumed. */
  resumeWithinMs: z.number().int().positive().optional(),
};

/** Every method's parameters; strict: a key the method does not take is refused, never ignored. */
export const methodSchemas = {
  'host.info': nothing,
  'connections.list': nothing,
  'connections.add': connectionInputSchema,
  'connections.edit': z.strictObject({ id, input: connectionInputSchema }),
  'connections.remove': z.strictObject({ id }),
  'connections.test': z.strictObject({ id }),
  /**
   * Whether a connection as typed in the form reaches its store, without saving it: one ListBuckets,
   * tried once within a short time. `id`: the saved connection being edited, whose stored secret
   * stands in for an empty one (the window never has it). Answers what failed, with the field it
   * concerns, as a value: a failed check is an answer, not an error.
   */
  'connections.check': z.strictObject({ input: connectionInputSchema, id: id.optional() }),
  /**
   * A connection for this process only (the command line's flags, over its environment's
   * credentials): never saved, no secret. The same settings get the same ID, so a command run
   * again is the same job.
   */
  'connections.open': sessionConnectionSchema,
  /** Start (once) the local demo store and offer it as a connection; progress comes as `demo` events. */
  'demo.open': nothing,
  'buckets.list': z.strictObject({ connectionId: id }),
  'buckets.create': z.strictObject({ connectionId: id, name: bucket }),
  'buckets.delete': z.strictObject({ connectionId: id, name: bucket }),
  'buckets.versioning': z.strictObject({ connectionId: id, name: bucket }),
  /** Turn a bucket's versioning on (or suspend it): a delete there can then be undone. */
  'buckets.setVersioning': z.strictObject({ connectionId: id, name: bucket, status: z.enum(['enabled', 'suspended']) }),
  /** The region a bucket is in: as the store names it (asked once per connection), else the connection's. */
  'buckets.region': z.strictObject({ connectionId: id, name: bucket }),
  /**
   * Empty a bucket and delete it: a delete job over all of it (every version and delete marker,
   * then its unfinished multipart uploads aborted) that deletes the bucket once it is empty. The
   * job is returned at once; its progress comes as any job's does.
   */
  'buckets.emptyAndDelete': z.strictObject({ connectionId: id, name: bucket }),
  // Lifecycle rules (issue 28 §4): deletes too big for one machine, handed to the store.
  /** A bucket's lifecycle rules, as Barge shows them (src/lifecycle-rules.ts); none where it has no configuration. */
  'buckets.lifecycle': z.strictObject({ connectionId: id, name: bucket }),
  /**
   * Have the store expire everything below `prefix` (a folder: "logs" is logs/; "" the whole bucket):
   * current and noncurrent versions, lone delete markers, incomplete uploads. Added beside the bucket's
   * rules (never dropping one), once per prefix, and read back: answers the rule as the store kept it,
   * what it dropped, and the bucket's versioning. The store runs it later, in its own time.
   */
  'buckets.expirePrefix': z.strictObject({ connectionId: id, name: bucket, prefix }),
  /** Remove one lifecycle rule by its ID, every other kept (NoSuchLifecycleRule where it has none of that ID). */
  'buckets.removeLifecycleRule': z.strictObject({ connectionId: id, name: bucket, id: z.string().min(1).max(255) }),
  'objects.list': z.strictObject({
    connectionId: id,
    bucket,
    prefix,
    /** One level ("folders") or everything below the prefix. */
    recursive: z.boolean().default(false),
    token: z.string().max(4096).optional(),
    pageSize: z.number().int().min(1).max(1000).optional(),
    /**
     * Only the objects this wildcard key matches, whole: the listing is then of everything below the
     * literal part before its first wildcard, whatever `prefix` and `recursive` say.
     */
    pattern: pattern.optional(),
    /** Only the objects this keeps (folders are listed as they are); a page may then be empty and go on. */
    filter: objectFilterSchema.optional(),
  }),
  'objects.details': z.strictObject({ connectionId: id, bucket, key }),
  /**
   * Everything the store says of one object: HEAD with its checksums, parts count, content headers,
   * metadata, and (each "not available" where the store refuses it) tags, retention and legal hold.
   */
  'objects.stat': z.strictObject({ connectionId: id, bucket, key, versionId: versionId.optional() }),
  /**
   * Replace an object's user metadata and tags (each whole: a name left out is removed): the store
   * copies the object onto itself with them, keeping its bytes, headers and storage class. Answers
   * with what the store then says of it, as objects.stat does.
   */
  'objects.editLabels': z.strictObject({ connectionId: id, bucket, key, metadata: metadataSchema, tags: tagsSchema }),
  /**
   * How much a prefix holds, per storage class (`versions`: noncurrent versions and delete markers
   * too), counted a stretch of listing pages at a time: call again with `nextToken` until it is
   * absent, adding the stretches up (src/prefix-size.ts); stop calling to cancel.
   */
  /** How much a prefix holds; with `pattern` (a wildcard key) and `filter`, only what they select. */
  'objects.size': z.strictObject({
    connectionId: id,
    bucket,
    prefix,
    pattern: pattern.optional(),
    filter: objectFilterSchema.optional(),
    versions: z.boolean().default(false),
    token: z.string().min(1).max(8192).optional(),
  }),
  /**
   * A new empty folder `name` in `prefix`: a zero-byte object `prefix` + `name` + "/", as the AWS
   * console and Cyberduck make one. Refused in words: an empty name, one with "/" or an unsafe
   * character, a key over 1,024 bytes (InvalidFolderName), a folder already there (FolderExists).
   */
  'objects.makeFolder': z.strictObject({ connectionId: id, bucket, prefix, name: z.string().max(1024) }),
  'objects.presign': z.strictObject({
    connectionId: id,
    bucket,
    key,
    expiresInSeconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .default(3600),
  }),
  /**
   * A link on this host that a browser follows to save one object with its own download (GET
   * saveLinkUrl(…)): followed once, within a minute; the object is streamed through the host and
   * checked as it passes. Only a host that serves such links has it (the web host: NotSupported
   * elsewhere, where downloads are saved on the machine the window runs on anyway).
   */
  'objects.saveLink': z.strictObject({ connectionId: id, bucket, key, requireVerified: z.boolean().default(false) }),
  /**
   * Files to upload: `paths` on the engine's machine (the Electron app's own disk, the command
   * line's), or files a browser sent first (`staged`: a batch from uploads.stage, and the names of
   * the top-level items dropped, found in it). Exactly one of the two; a host whose pages may not
   * name its files (the web host) refuses `paths`.
   */
  'jobs.upload': z
    .strictObject({
      connectionId: id,
      bucket,
      /** Where they go: a prefix ending in "/" (or "" for the bucket's top), or for one file its key. */
      prefix: destination,
      paths: z.array(z.string().min(1).max(4096)).min(1).max(100_000).optional(),
      staged: z
        .strictObject({
          stagingId: id,
          /** What the user dropped or picked at the top ("photos", "a.txt"): each one name, not a path. */
          entries: z.array(entryName).min(1).max(100_000),
          /**
           * The files still to come, when the job starts before they are sent (the window's way): it
           * appears at once and receives them as its first phase (`progress.phase`), its time counting
           * from then, and uploads once all have arrived; Cancel stops them and removes what came.
           * Absent: every file was sent already. `folders`: which entries are folders (the job's name).
           */
          arriving: z
            .strictObject({
              files: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
              bytes: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
              folders: z.array(entryName).max(100_000).default([]),
            })
            .optional(),
        })
        .optional(),
      /** Follow symbolic links (default), or skip each, named. */
      followSymlinks: z.boolean().optional(),
      /** An object already there: replaced when absent (as cp and aws s3 cp do); the window asks. */
      ifExists: ifExistsSchema.optional(),
      /** Only the files this keeps: globs, size, modification time (a storage class is no file's). */
      filter: objectFilterSchema.optional(),
      /** What each object is stored with (src/upload-options.ts): the same for every file of the job. */
      uploadOptions: uploadOptionsSchema.optional(),
      ...rerun,
    })
    .refine(
      (params) => (params.paths === undefined) !== (params.staged === undefined),
      'Give the files to upload either by their paths or as files sent (staged), one of the two.',
    ),
  'jobs.download': z.strictObject({
    connectionId: id,
    bucket,
    keys: z.array(key).max(100_000).default([]),
    prefixes: z.array(prefix).max(10_000).default([]),
    targetFolder: z.string().min(1).max(4096),
    /** Fail an object that can be checked only for its size, rather than save it with a warning. */
    requireVerified: z.boolean().default(false),
    /** A file that is already there: the host's default when absent (the web host fails it). */
    ifExists: ifExistsSchema.optional(),
    /** One key only: the name of the file it is saved as in targetFolder (not a path). */
    saveAs: z
      .string()
      .min(1)
      .max(255)
      .superRefine((name, context) => {
        const problem = fileNameProblem(name);
        if (problem)
          context.addIssue({
            code: 'custom',
            message: `The name to save as, "${printable(name)}", ${problem}: choose another name.`,
          });
      })
      .optional(),
    /**
     * Names that differ only in case are one file (a folder bound for Windows or macOS); absent: the folder is asked.
     */
    caseInsensitive: z.boolean().optional(),
    /** One version of the one key named, not its latest (cp --version-id, the window's Download this version). */
    versionId: versionId.optional(),
    ...matching,
    ...rerun,
  }),
  'jobs.delete': z
    .strictObject({
      connectionId: id,
      bucket,
      keys: z.array(key).max(1_000_000).default([]),
      /** The sizes listed for `keys`, in order: the delete then counts the bytes its preview showed. */
      keySizes: z.array(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)).max(1_000_000).optional(),
      prefixes: z.array(prefix).max(10_000).default([]),
      allVersions: z.boolean().default(false),
      dryRun: z.boolean().default(false),
      ...matching,
      ...rerun,
    })
    .refine((params) => params.keySizes === undefined || params.keySizes.length === params.keys.length, {
      message: 'Give one size for each key, or none.',
      path: ['keySizes'],
    }),
  /**
   * Keep a local folder and a prefix in step, or two prefixes of one connection, sending only what
   * differs (size or time, or with `checksum` an ETag that is an MD5): `upload` sends the folder's
   * new and changed files, `download` saves the prefix's, `copy` has the store copy the source
   * prefix's (`sourceBucket`, `sourcePrefix`). `pattern` (a wildcard key below the remote source's
   * prefix) and `filter`'s globs select names on both sides (what they leave out is neither sent nor
   * deleted); its time, size and storage-class limits select only which source entries are sent: a
   * destination key is extra only when its name is selected and absent from the source.
   * `uploadOptions` (upload only) is what each object sent is stored with. `delete` removes what is
   * only at the destination once the sends are done; `dryRun` changes nothing and lists each key to
   * send or delete, with why, as the job's items. A `delete` onto a bucket's whole top needs
   * `confirmed` (the window's comparison, the CLI's --yes).
   */
  'jobs.sync': z
    .strictObject({
      connectionId: id,
      direction: z.enum(['upload', 'download', 'copy']),
      /** The local folder (upload, download). */
      folder: z.string().min(1).max(4096).optional(),
      /** copy: the bucket and prefix the objects come from. */
      sourceBucket: bucket.optional(),
      sourcePrefix: prefix.optional(),
      bucket,
      /** "" for the bucket's top, or a prefix ("logs" and "logs/" are one folder). */
      prefix,
      pattern: pattern.optional(),
      filter: objectFilterSchema.optional(),
      uploadOptions: uploadOptionsSchema.optional(),
      delete: z.boolean().default(false),
      dryRun: z.boolean().default(false),
      checksum: z.boolean().default(false),
      followSymlinks: z.boolean().optional(),
      confirmed: z.boolean().default(false),
      ...rerun,
    })
    .refine(
      (params) => (params.direction === 'copy') === (params.folder === undefined),
      'Name a folder to sync with, unless both sides are prefixes (direction copy).',
    )
    .refine(
      (params) => (params.direction === 'copy') === (params.sourceBucket !== undefined),
      'A sync between prefixes names its source bucket (and only it does).',
    )
    .refine(
      (params) => params.uploadOptions === undefined || params.direction === 'upload',
      'Upload options apply to a sync that uploads: a download keeps what the objects hold, a copy keeps them too.',
    )
    .refine(
      (params) => params.pattern === undefined || params.direction !== 'upload',
      "A wildcard names the remote source's keys: an upload sync's source is a folder (use --include).",
    )
    .superRefine((params, context) => {
      if (params.direction !== 'copy' || params.sourceBucket === undefined) return;
      const problem = syncOverlapProblem({
        ...params,
        sourceBucket: params.sourceBucket,
        sourcePrefix: params.sourcePrefix ?? '',
      });
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  /**
   * Copy (move: then delete each source once its copy is verified) objects and folders within one
   * connection, by the store itself. `destination`: a folder ending in "/" ("" the top), or a new
   * name for one object or folder (src/copy-targets.ts); a pattern's matches go in a folder by their key
   * below the pattern's folder, as s5cmd puts them. `sourceConnectionId`: the sources are on
   * another connection (another store or account); their bytes then stream through the engine.
   */
  'jobs.copy': z
    .strictObject({
      connectionId: id,
      sourceConnectionId: id.optional(),
      sourceBucket: bucket,
      keys: z.array(key).max(1_000_000).default([]),
      prefixes: z.array(prefix).max(10_000).default([]),
      bucket,
      destination: prefix,
      move: z.boolean().default(false),
      /** Wildcard keys and a filter on what prefixes and patterns list (as a download's). */
      ...matching,
      ifExists: z.enum(['overwrite', 'skip', 'newer', 'fail']).optional(),
      /** One version of the one key named, copied by the store (cp --version-id s3://… s3://…). */
      sourceVersionId: versionId.optional(),
      /** Objects above this many bytes are copied in parts (default 5 GiB, CopyObject's limit). */
      partCopyAboveBytes: z
        .number()
        .int()
        .min(5 * 1024 * 1024)
        .optional(),
      ...rerun,
    })
    .superRefine((params, context) => {
      // Two connections may be two stores: the service decides whether they are one (same endpoint).
      const oneConnection =
        params.sourceConnectionId === undefined || params.sourceConnectionId === params.connectionId;
      const problem = copyPlacesProblem(params, params.move ? 'move' : 'copy', oneConnection);
      if (problem) context.addIssue({ code: 'custom', message: problem });
      if (params.sourceVersionId !== undefined && (!oneConnection || params.move || params.keys.length !== 1))
        context.addIssue({
          code: 'custom',
          message: 'A version ID names a version of one key, copied (never moved) on one connection.',
          path: ['sourceVersionId'],
        });
    }),
  'jobs.pause': onJob,
  'jobs.resume': onJob,
  'jobs.cancel': onJob,
  'jobs.retry': onJob,
  /** The user's word on a file already there: for this one, or (applyToAll) every one of the job's. */
  'jobs.resolveConflict': z.strictObject({
    id: z.string().min(1).max(100),
    conflictId: z.string().min(1).max(20),
    choice: conflictChoiceSchema,
    applyToAll: z.boolean().default(false),
  }),
  /** What a job stored or saved, object by object (key, size, ETag, version ID, checksum). */
  'jobs.receipt': z.strictObject({ id: z.string().min(1).max(100), format: z.enum(['csv', 'json']).default('csv') }),
  /** Write a job's receipt to a file on the engine's machine (below the download root, where the host has one). */
  'jobs.saveReceipt': z.strictObject({
    id: z.string().min(1).max(100),
    path: z.string().min(1).max(4096),
    format: z.enum(['csv', 'json']),
  }),
  /** Drop a finished job from the list and its record, keeping nothing for a resume. */
  'jobs.forget': z.strictObject({ id: z.string().min(1).max(100) }),
  'jobs.clearFinished': nothing,
  'jobs.snapshot': nothing,
  /** A page of a job's item errors or warnings (the first ones it kept; its progress has the counts). */
  'jobs.items': z.strictObject({
    id: z.string().min(1).max(100),
    list: z.enum(['errors', 'warnings']),
    offset: z.number().int().nonnegative().default(0),
    limit: z.number().int().min(1).max(1000).default(1000),
  }),
  /**
   * A page of a job's items one by one (every one, or the failed ones), in the order they ended:
   * where each came from and went, its size, and what became of it; `total` in the list, and
   * `unlisted`: items that ended past the most a job lists (failures are always listed).
   */
  'jobs.details': z.strictObject({
    id: jobId,
    filter: itemFilter,
    offset: z.number().int().nonnegative().default(0),
    limit: z.number().int().min(1).max(1000).default(200),
  }),
  /**
   * A job's items (every one, or the failed ones) as CSV, for the window to save as a file: a page
   * at a time (the header with the first), so a million items never stop the host for long nor
   * make one huge message; `next` is where the following page starts, absent after the last.
   */
  'jobs.detailsCsv': z.strictObject({
    id: jobId,
    filter: itemFilter,
    offset: z.number().int().nonnegative().default(0),
    limit: z.number().int().min(1).max(10_000).default(10_000),
  }),
  /**
   * Run exactly the items of a failed job that failed again, within the job; refused while it runs
   * (JobNotFinished), where it has none (NothingToRetry), or where it does not know them one by one
   * (FailedWhole, TooManyFailed). Items that failed for a file already there would fail the same way
   * again: `ifExists` answers for them, and without it the retry is refused (ChoiceNeeded, saying
   * how many), for the window to ask.
   */
  'jobs.retryFailed': z.strictObject({ id: jobId, ifExists: conflictChoiceSchema.optional() }),
  /**
   * Bring a prefix back to how it was at a moment (`to`, ms since 1970), from the versions its bucket
   * keeps: delete markers newer than it removed, newer versions covered by a copy of the version of
   * the moment, keys made since deleted. `dryRun` lists each change and makes none.
   */
  'jobs.restore': z.strictObject({
    connectionId: id,
    bucket,
    prefix: z.string().max(1024),
    to: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    dryRun: z.boolean().default(false),
    ...rerun,
  }),
  /** Jobs of the history (every host's, kept after they end for 90 days or 10,000 jobs), newest first. */
  'history.list': z.strictObject({
    kinds: z.array(jobKind).max(10).optional(),
    failedOnly: z.boolean().default(false),
    offset: z.number().int().nonnegative().default(0),
    limit: z.number().int().min(1).max(1000).default(100),
  }),
  /** One job of the history, by its ID (or its ID's start, at least 4 characters, when only one job has it). */
  'history.job': z.strictObject({ id: jobId }),
  /**
   * A page of what a job removed (each key, the version it deleted or the delete marker it made), as
   * CSV (the header with the first page) or JSON lines; `next` is where the following page starts.
   */
  'history.removals': z.strictObject({
    id: jobId,
    format: z.enum(['csv', 'json']).default('csv'),
    offset: z.number().int().nonnegative().default(0),
    limit: z.number().int().min(1).max(100_000).default(100_000),
  }),
  /**
   * Undo a delete of the history: remove exactly the delete markers it made, as a job of its own. On
   * the connection it ran on, or `connectionId` (refused when that is another one).
   */
  'history.undo': z.strictObject({ id: jobId, connectionId: id.optional(), ...rerun }),
  /**
   * Retry a job of the history that failed or was cancelled: its failed items where it knows them,
   * else the whole job over its journal; one no longer in the list comes back into it. This host's
   * jobs only (a command line's is retried by running the command again).
   */
  'history.retry': z.strictObject({ id: jobId }),
  /**
   * A batch for files a browser sends before its upload starts (each with PUT stagedFileUrl(…),
   * then jobs.upload with `staged`). Only a host that takes files this way has it (NotSupported
   * elsewhere: files are uploaded by their paths there).
   */
  'uploads.stage': nothing,
  /**
   * Multipart uploads begun and never completed or aborted, each costing storage: abort them (or, dryRun, list them).
   */
  'uploads.abortIncomplete': z.strictObject({
    connectionId: id,
    bucket,
    prefix: prefix.default(''),
    /** Only uploads begun at least this long ago: a younger one may be another process's, sending now. */
    olderThanMs: z.number().int().nonnegative().optional(),
    dryRun: z.boolean().default(false),
  }),
  /**
   * The subfolders of a folder on the engine's machine, by name (a folder picker where there is no
   * native one: a browser on the web host); absent `path`: where downloads go by default. Only below
   * the host's download root, where it has one; never a file's name or contents.
   */
  'fs.listFolders': z.strictObject({ path: z.string().min(1).max(4096).optional() }),
  /**
   * A new folder `name` in `parent` (a folder picker's New folder), confined as fs.listFolders is;
   * answers with its listing, for the picker to open it. Refused in words: a name with a / or a
   * control character, one too long, or one already there (InvalidFolderName, FolderExists).
   */
  'fs.makeFolder': z.strictObject({ parent: z.string().min(1).max(4096), name: z.string().max(1024) }),
  // Versions (issue 28 §1): a prefix's versions and delete markers, and what can be done to one.
  /**
   * A page of the versions and delete markers below a prefix: one level (folders as `prefixes`) or,
   * `recursive`, everything below; each key's latest first. Pass `nextToken` back for the next page.
   */
  'objects.versions': z.strictObject({
    connectionId: id,
    bucket,
    prefix,
    recursive: z.boolean().default(false),
    token: z.string().min(1).max(4096).optional(),
    pageSize: z.number().int().min(1).max(1000).optional(),
  }),
  /** Copy a version over its key, where it becomes the latest (the versions after it stay, older). */
  'objects.restoreVersion': z.strictObject({ connectionId: id, bucket, key, versionId }),
  /** Delete one version or delete marker for good (NoSuchVersion where the key has none of that ID). */
  'objects.deleteVersion': z.strictObject({ connectionId: id, bucket, key, versionId }),
  /**
   * Undelete a key: remove its latest version, which must be a delete marker (`versionId`, where given:
   * that marker); refused, saying why, where the key is not deleted.
   */
  'objects.undelete': z.strictObject({ connectionId: id, bucket, key, versionId: versionId.optional() }),
  // The speed test (issue 29 §2): an endpoint measured in a bucket of the user's, its last result kept.
  /**
   * Run the speed test (src/speed-test.ts's grid) in `bucket` below `prefix`, within `budgetMs`; answers
   * its run's ID at once. Progress, then the outcome (measured, cancelled or failed, with what its clean-up
   * left) come as `speedtest` events; a measured result is saved for the connection and endpoint.
   */
  'speedtest.start': z.strictObject({
    connectionId: id,
    bucket,
    prefix: prefix.default(''),
    budgetMs: z
      .number()
      .int()
      .min(MIN_SPEED_TEST_BUDGET_MS)
      .max(MAX_SPEED_TEST_BUDGET_MS)
      .default(DEFAULT_SPEED_TEST_BUDGET_MS),
  }),
  /** Stop a speed test: it cleans up, then ends as cancelled. */
  'speedtest.cancel': z.strictObject({ runId: id }),
  /** The last speed test on this connection's endpoint (its own, else another connection's there), or null. */
  'speedtest.saved': z.strictObject({ connectionId: id }),
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
  /** The name of the machine the engine runs on (where downloads land), as it calls itself. */
  readonly machineName: string;
  /** Downloads go only below this folder of that machine, where the host confines them. */
  readonly downloadRoot?: string;
  /**
   * The command that started this host (`npm run serve`, `npm run demo`): the window names it when the host is gone.
   */
  readonly startedBy?: string;
}

export interface MethodResults {
  'host.info': HostInfo;
  'connections.list': ConnectionSummary[];
  'connections.add': ConnectionSummary;
  'connections.edit': ConnectionSummary;
  'connections.remove': null;
  'demo.open': ConnectionSummary;
  'connections.test': { buckets: number };
  'connections.check': ConnectionCheck;
  'connections.open': ConnectionSummary;
  'buckets.list': Bucket[];
  'buckets.create': null;
  'buckets.delete': null;
  'buckets.versioning': BucketVersioning;
  'buckets.setVersioning': BucketVersioning;
  'buckets.region': BucketRegion;
  'buckets.emptyAndDelete': JobSummary;
  'buckets.lifecycle': LifecycleRule[];
  'buckets.expirePrefix': ExpiryOnServer;
  'buckets.removeLifecycleRule': null;
  'objects.list': ObjectPage;
  'objects.details': ObjectDetails;
  'objects.size': PrefixSize;
  'objects.stat': ObjectStat;
  'objects.editLabels': ObjectStat;
  'objects.makeFolder': { key: string };
  'objects.presign': { url: string };
  /** Where to send the browser (a path on this host), the file name it is saved as, and its size. */
  /** `check`: how the bytes will be checked as they pass ('maybe': only if a guessed part size is right). */
  'objects.saveLink': { url: string; fileName: string; size: number; check: 'checked' | 'maybe' | 'size-only' };
  'jobs.upload': JobSummary;
  'jobs.download': JobSummary;
  'jobs.delete': JobSummary;
  'jobs.sync': JobSummary;
  'jobs.copy': JobSummary;
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
  'jobs.details': { items: JobItem[]; total: number; unlisted: number };
  'jobs.detailsCsv': { fileName: string; text: string; next?: number };
  'jobs.retryFailed': null;
  'jobs.restore': JobSummary;
  'history.list': { jobs: HistoryEntry[]; total: number };
  'history.job': HistoryEntry;
  'history.removals': { fileName: string; text: string; total: number; next?: number };
  'history.undo': JobSummary;
  'history.retry': JobSummary;
  'uploads.stage': { stagingId: string };
  'uploads.abortIncomplete': IncompleteUploads;
  'fs.listFolders': FolderListing;
  'fs.makeFolder': FolderListing;
  'objects.versions': VersionPage;
  'objects.restoreVersion': { etag?: string; size: number };
  'objects.deleteVersion': ObjectVersionRow;
  'objects.undelete': ObjectVersionRow;
  'speedtest.start': { runId: string };
  'speedtest.cancel': null;
  'speedtest.saved': SavedSpeedTest | null;
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
  | {
      readonly type: 'job-items';
      readonly id: string;
      readonly errors: readonly ItemError[];
      readonly warnings: readonly ItemError[];
    }
  | { readonly type: 'jobs-removed'; readonly ids: readonly string[] }
  | { readonly type: 'settings'; readonly settings: Settings }
  | { readonly type: 'stats'; readonly stats: EngineStats }
  /** A line of the demo store's start (building MinIO the first time, seeding). */
  | { readonly type: 'demo'; readonly line: string }
  /** A speed test's progress, then how it ended (once). */
  | { readonly type: 'speedtest'; readonly runId: string; readonly progress: SpeedTestProgress }
  | { readonly type: 'speedtest'; readonly runId: string; readonly outcome: SpeedTestOutcome };

/** Where the API's WebSocket is opened. */
export const API_PATH = '/api';
/** The API's WebSocket subprotocol: the one the host answers with. */
export const API_PROTOCOL = 'barge.api.v1';
const TOKEN_PROTOCOL_PREFIX = 'barge.token.';

/**
 * The subprotocols a client offers when it opens the API's socket: the API's, and the access token
 * as a second (as Kubernetes carries a bearer token). A browser cannot set a header on a WebSocket,
 * and this way the token comes with the upgrade itself: no socket is ever open without it. The host
 * answers with the API's protocol alone, never echoing the token.
 */
export function apiProtocols(token: string): string[] {
  return [API_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`];
}

/** The token a client offered among its subprotocols (a Sec-WebSocket-Protocol header), if any. */
export function offeredToken(protocolHeader: string | undefined): string | undefined {
  for (const offered of (protocolHeader ?? '').split(',')) {
    const protocol = offered.trim();
    if (protocol.startsWith(TOKEN_PROTOCOL_PREFIX)) return protocol.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return undefined;
}

export const STAGED_FILES_PATH = '/uploads/';

/**
 * Where a browser sends one file of a staged batch: PUT, the file as the body, the access token as a
 * Bearer header. Bytes do not belong in the JSON socket, so they take this channel of their own;
 * the answer is a `Result` (stagedFileAnswerSchema), like every call's.
 */
export function stagedFileUrl(stagingId: string, relativePath: string, modifiedMs?: number): string {
  // The file's own modification time goes with it: the staged copy is what the upload compares
  // with the object already there ("Replace if newer") and shows in the question.
  const modified =
    modifiedMs !== undefined && Number.isFinite(modifiedMs) && modifiedMs > 0
      ? `&modified=${Math.trunc(modifiedMs)}`
      : '';
  return `${STAGED_FILES_PATH}${encodeURIComponent(stagingId)}?path=${encodeURIComponent(relativePath)}${modified}`;
}

export const SAVE_LINKS_PATH = '/save/';

/** Where a browser goes to save the object a save link stands for (objects.saveLink's `url`). */
export function saveLinkUrl(link: string): string {
  return `${SAVE_LINKS_PATH}${encodeURIComponent(link)}`;
}

/** The answer to a staged file's PUT. */
export const stagedFileAnswerSchema = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), value: z.null() }),
  z.strictObject({ ok: z.literal(false), error: apiErrorSchema }),
]);

/** A file below what was dropped, with its path relative to it ("photos/a.jpg" for a dropped folder "photos"). */
export interface PickedFile {
  readonly file: File;
  readonly relativePath: string;
}

/**
 * What the user dropped or picked, not yet walked: a host that reads files in place (Electron) needs
 * only the top-level items' paths; one that is sent the files (the web host) walks them.
 */
export interface DroppedItems {
  /**
   * The items dropped (a dropped folder is one File; Electron gives its path); undefined from a picker, which gives
   * files only.
   */
  readonly topLevel: readonly File[] | undefined;
  /** How many items were dropped, or files picked. */
  readonly count: number;
  /** Every file, dropped folders walked. */
  files(): Promise<readonly PickedFile[]>;
}

/** Files the user dropped or picked, and where they go. */
export interface FilesToUpload {
  readonly connectionId: string;
  readonly bucket: string;
  readonly prefix: string;
  readonly dropped: DroppedItems;
  /** What becomes of an object already there (the window asks by default). */
  readonly ifExists?: IfExists;
  /** What each object is stored with (the window's options for the connection or bucket). */
  readonly uploadOptions?: UploadOptions;
}

/** What the window talks to: implemented by the Electron preload and by the web host's client. */
export interface BargeApi {
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<Result<MethodResults[M]>>;
  subscribe(listener: (event: ApiEvent) => void): () => void;
  /** Upload dropped or picked files: by path in Electron, by streaming them to the host on the web. */
  uploadFiles(request: FilesToUpload): Promise<Result<JobSummary>>;
  /**
   * A folder to download into, or undefined if the user cancelled (Electron: its native dialog; a browser has none for
   * the host's disk: fs.listFolders).
   */
  pickFolder(defaultPath: string): Promise<string | undefined>;
  /**
   * The link to the host as it changes (a browser's: Electron's engine cannot go away under its
   * window). Returns the unsubscribe.
   */
  watchHost?(listener: (link: HostLink) => void): () => void;
}

/**
 * A browser's link to its host. `lost`: the socket closed, or went silent (the host sends its
 * stats every second), and the window tries again by itself at `nextTryAt` (ms since the epoch).
 * `refused`: the host answers but not to this page's token (it was started again with another
 * one): trying again would not help, `message` says what will.
 */
export type HostLink =
  | { readonly state: 'connected' }
  | { readonly state: 'lost'; readonly nextTryAt: number }
  | { readonly state: 'refused'; readonly message: string };
