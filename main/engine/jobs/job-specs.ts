// What each kind of job is asked to do, as one schema per kind.
//
// A spec is validated where it enters the engine and again wherever it is read back (the journal
// keeps specs as JSON: a file from another version, or a damaged one, must not reach a job body as
// whatever it happens to hold). The parsed spec is also the job's identity for "run the same
// command again" (journal.ts, jobFingerprint), so every host that builds the same spec gets the
// same job.

import { z } from 'zod';
import { ifExistsSchema } from '../../../src/if-exists.ts';
import { uploadOptionsSchema } from '../../../src/upload-options.ts';
import { commonParent } from '../../../src/job-label.ts';
import { copyPlacesProblem, isFolderDestination } from '../../../src/copy-targets.ts';
import { syncOverlapProblem } from '../../../src/sync-places.ts';
import type { JobKind } from '../../../src/jobs.ts';
import { BargeError } from '../errors.ts';
import { issueMessage } from '../../../src/contract/schema-messages.ts';
import { objectFilterSchema, wildcardPrefix } from '../../../src/object-filter.ts';

const bucket = z.string().min(1);

/**
 * S3-URL wildcard keys ("logs/2024-*\/*.gz", src/object-filter.ts): each lists the literal part before
 * its first wildcard and keeps the objects it matches whole.
 */
const patterns = z.array(z.string().min(1)).readonly().optional();

export const uploadSpecSchema = z.object({
  /** Absolute paths of files and folders: "./big.bin", "big.bin" and the same file named from elsewhere are one job. */
  sources: z.array(z.string().min(1)).min(1).readonly(),
  bucket,
  /** A key (one file) or a prefix ending in "/" (or "" for the bucket's top). */
  destination: z.string(),
  /** Follow symbolic links (to folders, with loops refused; to files). Default true, as aws-cli and s5cmd. */
  followSymlinks: z.boolean().optional(),
  /** When an object is already there (default: replace it, as cp and aws s3 cp do). */
  ifExists: ifExistsSchema.optional(),
  /** Only the files this keeps (globs, size, modification time; upload-filter.ts). */
  filter: objectFilterSchema.optional(),
  /** What each object is stored with: storage class, content headers, metadata, tags, encryption, ACL. */
  uploadOptions: uploadOptionsSchema.optional(),
});

const downloadSpecFields = z.object({
  bucket,
  /** Objects, each saved as targetFolder/<its name> (or as targetFile, for a single key). */
  keys: z.array(z.string()).readonly().optional(),
  /** Prefixes ("folders"), each saved with its folder name and everything below it. */
  prefixes: z.array(z.string()).readonly().optional(),
  /** Wildcard keys: each object matched is saved by its key below the pattern's folder, as s5cmd saves it. */
  patterns,
  /** Of what prefixes and patterns list, only the objects this keeps (named keys are taken as named). */
  filter: objectFilterSchema.optional(),
  targetFolder: z.string().min(1),
  /** For a single key: the exact file to write. */
  targetFile: z.string().min(1).optional(),
  /**
   * Treat names that differ only in case as one file: true for a folder bound for Windows or macOS;
   * undefined to ask the target folder itself (probed once).
   */
  caseInsensitive: z.boolean().optional(),
  /** Fail an object that can be checked only for its size, rather than save it with a warning. */
  requireVerified: z.boolean().optional(),
  /** When the file is already there (default: overwrite, as cp and aws s3 cp do). */
  ifExists: ifExistsSchema.optional(),
  /**
   * A host's download root: the target must really lie below it, checked each time the job runs
   * (a job recorded under another root is not resumed into it).
   */
  confinedTo: z.string().min(1).optional(),
  /** One version of the one key named, not its latest (cp --version-id): fetched, checked, resumed as it. */
  versionId: z.string().min(1).max(1024).optional(),
});

/** A download's spec; a version ID names a version of one key only. */
export const downloadSpecSchema = downloadSpecFields.refine(
  (spec) =>
    spec.versionId === undefined || (spec.keys?.length === 1 && !spec.prefixes?.length && !spec.patterns?.length),
  { message: 'A version ID names a version of one key: download that key alone', path: ['versionId'] },
);

export const deleteSpecSchema = z
  .object({
    bucket,
    keys: z.array(z.string()).readonly().optional(),
    /**
     * The sizes the caller listed for `keys`, in order (the window knows them from its listing), so
     * a delete counts the same bytes its preview did without a HEAD per key. Without them, a preview
     * looks each key up, and the delete itself counts keys only.
     */
    keySizes: z.array(z.number().int().nonnegative()).readonly().optional(),
    /** Each is taken as a folder: "photos" deletes "photos/…", never "photos2/…". "" is the whole bucket. */
    prefixes: z.array(z.string()).readonly().optional(),
    /** Wildcard keys: the objects each matches whole. */
    patterns,
    /**
     * Of what prefixes and patterns list, only the objects (or versions) this keeps; counts and
     * totals are of those. Named keys are taken as named.
     */
    filter: objectFilterSchema.optional(),
    /** Delete every version and delete marker, not just the current versions (versioned buckets). */
    allVersions: z.boolean().optional(),
    /** Count objects and bytes; delete nothing. */
    dryRun: z.boolean().optional(),
    /** Abort the multipart uploads begun below the prefixes and never finished, once the objects are gone. */
    abortUploads: z.boolean().optional(),
    /**
     * Then delete the bucket itself: "empty and delete". Only with the whole bucket (prefixes [""]),
     * every version (allVersions) and its unfinished uploads (abortUploads): the bucket must be empty.
     */
    deleteBucket: z.boolean().optional(),
  })
  .refine((spec) => spec.keySizes === undefined || spec.keySizes.length === (spec.keys?.length ?? 0), {
    message: 'keySizes must give one size for each key',
    path: ['keySizes'],
  });

export const syncSpecSchema = z
  .object({
    /**
     * upload: the folder's files to the prefix; download: the prefix's objects to the folder; copy:
     * the source prefix's objects to the prefix, copied by the store (one connection).
     */
    direction: z.enum(['upload', 'download', 'copy']),
    /** The local folder, an absolute path (upload and download). */
    folder: z.string().min(1).optional(),
    /** copy: where the objects come from, a bucket and a prefix ("" or ending in "/"). */
    sourceBucket: bucket.optional(),
    sourcePrefix: z
      .string()
      .refine((prefix) => prefix === '' || prefix.endsWith('/'), 'a sync prefix ends in "/"')
      .optional(),
    bucket,
    /** The prefix: "" (the bucket's top) or ending in "/". */
    prefix: z.string().refine((prefix) => prefix === '' || prefix.endsWith('/'), 'a sync prefix ends in "/"'),
    /**
     * A wildcard key of the remote source (below its prefix, matched whole), as in s3://b/logs/*.gz:
     * only the keys it matches are compared, sent or deleted, on both sides.
     */
    pattern: z.string().min(1).optional(),
    /**
     * Its globs select names on both sides (excluded names are neither sent nor deleted, rclone's
     * rule); its time, size and storage-class limits select only which source entries are sent.
     */
    filter: objectFilterSchema.optional(),
    /** upload: what each object sent is stored with (src/upload-options.ts). */
    uploadOptions: uploadOptionsSchema.optional(),
    /** Remove what is only at the destination, once the sends are done. */
    delete: z.boolean().optional(),
    /** List what would be sent and deleted, each with its reason; change nothing. */
    dryRun: z.boolean().optional(),
    /** Compare keys on both sides by checksum (an ETag that is an MD5) instead of by time. */
    checksum: z.boolean().optional(),
    followSymlinks: z.boolean().optional(),
    /** A host's download root, as a download's (a download sync's folder must lie below it). */
    confinedTo: z.string().min(1).optional(),
  })
  .superRefine((spec, context) => {
    const remote = spec.direction === 'copy';
    if (remote !== (spec.folder === undefined))
      context.addIssue({ code: 'custom', message: 'a sync names a folder, unless it copies between prefixes' });
    if (remote !== (spec.sourceBucket !== undefined && spec.sourcePrefix !== undefined))
      context.addIssue({ code: 'custom', message: 'a copy sync names its source bucket and prefix, and only it' });
    if (spec.uploadOptions !== undefined && spec.direction !== 'upload')
      context.addIssue({ code: 'custom', message: 'upload options are for a sync that uploads' });
    if (spec.pattern !== undefined && spec.direction === 'upload')
      context.addIssue({ code: 'custom', message: "a sync's wildcard names its remote source" });
    const from = remote ? spec.sourcePrefix : spec.prefix;
    if (spec.pattern !== undefined && from !== undefined && !spec.pattern.startsWith(from))
      context.addIssue({ code: 'custom', message: "a sync's wildcard lies below its source prefix" });
    if (remote && spec.sourceBucket !== undefined && spec.sourcePrefix !== undefined) {
      const overlap = syncOverlapProblem({ ...spec, sourceBucket: spec.sourceBucket, sourcePrefix: spec.sourcePrefix });
      if (overlap) context.addIssue({ code: 'custom', message: overlap });
    }
  });
/**
 * Copy (or move) objects within one connection (the store copies them, no byte passes the client), or
 * from another connection (`sourceConnectionRef`: the bytes stream through the engine).
 */
export const copySpecSchema = z
  .object({
    /** The connection the sources are read on, as the journal names connections; absent: the job's own. */
    sourceConnectionRef: z.string().min(1).optional(),
    sourceBucket: bucket,
    /** Objects, each copied as named. */
    keys: z.array(z.string().min(1)).readonly().optional(),
    /** Prefixes ("folders"), each copied with everything below it. */
    prefixes: z.array(z.string()).readonly().optional(),
    /** Wildcard keys: each object matched is copied below the destination folder by its key below the pattern's. */
    patterns,
    /** Of what prefixes and patterns list, only the objects this keeps (named keys are taken as named). */
    filter: objectFilterSchema.optional(),
    /** The destination bucket. */
    bucket,
    /** A folder (ending in "/", or "" for the top) or a new name (src/copy-targets.ts). */
    destination: z.string(),
    /** Delete each source once its copy is verified. */
    move: z.boolean().optional(),
    /** When an object is already at the destination (default: replace it, as cp does). */
    ifExists: z.enum(['overwrite', 'skip', 'newer', 'fail']).optional(),
    /** Objects above this many bytes are copied in parts (default 5 GiB, CopyObject's limit). */
    partCopyAboveBytes: z
      .number()
      .int()
      .min(5 * 1024 * 1024)
      .optional(),
    /** One version of the one key named, copied by the store (cp --version-id): a copy on one connection only. */
    sourceVersionId: z.string().min(1).max(1024).optional(),
  })
  .superRefine((spec, context) => {
    const problem = copyPlacesProblem(spec, spec.move ? 'move' : 'copy', spec.sourceConnectionRef === undefined);
    if (problem) context.addIssue({ code: 'custom', message: problem });
    const versionProblem = sourceVersionProblem(spec);
    if (versionProblem) context.addIssue({ code: 'custom', message: versionProblem, path: ['sourceVersionId'] });
  });

/** Undo a delete (undo-job.ts): remove the delete markers it made, which its history records. */
export const undoSpecSchema = z.object({
  bucket,
  /** The delete job's ID. */
  undoes: z.string().min(1).max(100),
});

/** Restore a prefix to how it was at a moment (restore-job.ts), from the versions its bucket keeps. */
export const restoreSpecSchema = z.object({
  bucket,
  /** "" (the whole bucket), a folder ending in "/", or the start of keys. */
  prefix: z.string(),
  /** The moment, in milliseconds since 1970 (UTC). */
  to: z.number().int().nonnegative(),
  /** List each change it would make; make none. */
  dryRun: z.boolean().optional(),
});

/** A source version names one key copied by the store: not a folder, a pattern, a move, nor another store's. */
export function sourceVersionProblem(spec: {
  readonly sourceVersionId?: string | undefined;
  readonly keys?: readonly string[] | undefined;
  readonly prefixes?: readonly string[] | undefined;
  readonly patterns?: readonly string[] | undefined;
  readonly move?: boolean | undefined;
  readonly sourceConnectionRef?: string | undefined;
}): string | undefined {
  if (spec.sourceVersionId === undefined) return undefined;
  if (spec.keys?.length !== 1 || spec.prefixes?.length || spec.patterns?.length)
    return 'A version ID names a version of one key: copy that key alone';
  if (spec.move) return 'A version is copied, never moved: moving would delete the key, not that version';
  if (spec.sourceConnectionRef !== undefined)
    return 'A version is copied by the store itself, on one connection: download it, then upload it elsewhere';
  return undefined;
}

export type UploadSpec = Readonly<z.infer<typeof uploadSpecSchema>>;
export type DownloadSpec = Readonly<z.infer<typeof downloadSpecSchema>>;
export type DeleteSpec = Readonly<z.infer<typeof deleteSpecSchema>>;
export type SyncSpec = Readonly<z.infer<typeof syncSpecSchema>>;
export type CopySpec = Readonly<z.infer<typeof copySpecSchema>>;
export type UndoSpec = Readonly<z.infer<typeof undoSpecSchema>>;
export type RestoreSpec = Readonly<z.infer<typeof restoreSpecSchema>>;

export interface JobSpecs {
  readonly upload: UploadSpec;
  readonly download: DownloadSpec;
  readonly delete: DeleteSpec;
  readonly sync: SyncSpec;
  readonly copy: CopySpec;
  readonly undo: UndoSpec;
  readonly restore: RestoreSpec;
}

const schemas: { readonly [K in JobKind]: z.ZodType<JobSpecs[K]> } = {
  upload: uploadSpecSchema,
  download: downloadSpecSchema,
  delete: deleteSpecSchema,
  sync: syncSpecSchema,
  copy: copySpecSchema,
  undo: undoSpecSchema,
  restore: restoreSpecSchema,
};

/** A spec of `kind`, validated; a spec that does not fit fails with a code and the first problem. */
export function parseJobSpec<K extends JobKind>(kind: K, spec: unknown): JobSpecs[K] {
  const parsed = schemas[kind].safeParse(spec, { reportInput: true });
  if (parsed.success) return parsed.data;
  const problem = issueMessage(parsed.error.issues[0]).replace(/\.$/, '');
  throw new BargeError(
    'InvalidJobSpec',
    `This ${kind} job's description is not valid (${problem}); it cannot run. Start it again.`,
  );
}

/**
 * Where a job acts: its bucket and the folder it changes or reads (JobSummary's bucket and prefix),
 * or undefined for a dry run or a spec that does not fit (read back from an older journal).
 */
export function jobTarget(kind: JobKind, spec: unknown): { bucket: string; prefix: string } | undefined {
  const parsed = schemas[kind].safeParse(spec);
  if (!parsed.success) return undefined;
  const valid = parsed.data as JobSpecs[JobKind];
  if ('direction' in valid) return valid.dryRun ? undefined : { bucket: valid.bucket, prefix: valid.prefix };
  if ('sourceBucket' in valid) {
    return {
      bucket: valid.bucket,
      prefix: isFolderDestination(valid.destination) ? valid.destination : commonParent([valid.destination]),
    };
  }
  if ('sources' in valid) {
    // A destination ending in "/" (or "") is the folder; otherwise it is the one file's key.
    return {
      bucket: valid.bucket,
      prefix:
        valid.destination === '' || valid.destination.endsWith('/')
          ? valid.destination
          : commonParent([valid.destination]),
    };
  }
  if ('undoes' in valid) return { bucket: valid.bucket, prefix: '' };
  if ('to' in valid) return valid.dryRun ? undefined : { bucket: valid.bucket, prefix: commonParent([valid.prefix]) };
  if ('dryRun' in valid && valid.dryRun) return undefined;
  const listed = (valid.patterns ?? []).map(wildcardPrefix);
  return {
    bucket: valid.bucket,
    prefix: commonParent([...(valid.keys ?? []), ...(valid.prefixes ?? []), ...listed]),
  };
}
