// Jobs as both sides see them: what a job does, where it is, and its progress.
//
// A snapshot is plain, readonly data so it can cross IPC by structured clone.

export type JobKind = 'upload' | 'download' | 'delete' | 'sync' | 'copy' | 'undo' | 'restore';

/** Each kind of job as people call it: one word, in every place that names a kind. */
export const JOB_KIND_NAMES: Readonly<Record<JobKind, string>> = {
  upload: 'Upload',
  download: 'Download',
  delete: 'Delete',
  sync: 'Sync',
  copy: 'Copy',
  undo: 'Undo',
  restore: 'Restore',
};

export type JobState =
  | { readonly status: 'queued' }
  | { readonly status: 'running' }
  | { readonly status: 'paused' }
  | { readonly status: 'completed' }
  | { readonly status: 'cancelled' }
  /**
   * `whole`: the job stopped at an error every item would meet (wrong keys, no such bucket, a store
   * that refuses the region), not item by item: running it again unchanged cannot help.
   */
  | { readonly status: 'failed'; readonly error: JobError; readonly whole?: boolean };

export interface JobError {
  /** A code the UI can act on, such as "AccessDenied" or "NoSuchBucket". */
  readonly code: string;
  /** What a person reads. */
  readonly message: string;
  /** What running the job again does for it, where it cannot simply pass (absent: it may). */
  readonly rerun?: Rerun;
}

/**
 * `fails-again`: the same run fails it the same way (the key is not there, the name is refused,
 * the store lacks the feature); `needs-choice`: it does unless the user answers otherwise (a file
 * already there, with "fail" the answer).
 */
export type Rerun = 'fails-again' | 'needs-choice';

/** An item (file, object, key) that failed while the rest of the job went on. */
export interface ItemError extends JobError {
  readonly item: string;
}

export interface JobProgress {
  readonly objectsDone: number;
  readonly objectsFailed: number;
  /**
   * Objects whose bytes could be checked only for their count (no checksum or ETag to check them
   * against): done, but said loudly. Absent from snapshots of older versions.
   */
  readonly objectsSizeOnly?: number;
  /** Entries found but not sent (a named pipe, a device, a link not followed), each named in the warnings. */
  readonly objectsSkipped?: number;
  /**
   * Files (or, for an upload, objects) already there that were kept, as asked (counted in objectsDone too: nothing is
   * left to do for them).
   */
  readonly objectsKept?: number;
  /** Requests sent again (after a reset, a stall, a refusal): a resend is shown as one. */
  readonly retries?: number;
  /** The store stopped answering (refused connections) and the job is waiting it out. */
  readonly waitingForStore?: boolean;
  /** Objects found so far; final once `totalsKnown` is true. */
  readonly objectsTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  /** False while the job is still walking a folder or listing a prefix. */
  readonly totalsKnown: boolean;
  readonly bytesPerSecond: number;
  /** Objects done a second, live (a job of small files moves objects more than bytes); absent from older snapshots. */
  readonly objectsPerSecond?: number;
  /**
   * Seconds left, from the bytes or the objects left at their live rates (whichever is known, the
   * longer where both are): a lower bound while `totalsKnown` is false.
   */
  readonly etaSeconds: number | undefined;
  /**
   * A phase before the job's own work, while it lasts (the numbers above are the work's, still to
   * come): `receiving`, a browser's files on their way to the web host, which then uploads them.
   */
  readonly phase?: JobPhase;
}

/** A browser's files on their way to the host: the first phase of an upload through the web host. */
export interface JobPhase {
  readonly kind: 'receiving';
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly bytesPerSecond: number;
  /** At the rate of the last seconds; undefined while it is not known yet. */
  readonly etaSeconds: number | undefined;
}

/** A job as the window keeps it: what it is and where it is, without its item lists. */
export interface JobSummary {
  readonly id: string;
  readonly kind: JobKind;
  readonly name: string;
  readonly state: JobState;
  readonly progress: JobProgress;
  /** Files or objects already there that wait for the user's word (ifExists "ask"), oldest first (bounded). */
  readonly conflicts?: readonly Conflict[];
  readonly createdAt: number;
  /** When the job's current run started (a retry starts a new run); absent while it waits in the queue. */
  readonly startedAt?: number;
  /** When its current run ended (completed, failed or cancelled); absent while it runs. */
  readonly endedAt?: number;
  /** The bucket the job acts on. */
  readonly bucket?: string;
  /**
   * The folder of that bucket it changes or reads ("" for the top): where an upload puts its files,
   * the common parent of what a delete or download names. A window showing that folder lists it
   * again when the job completes. Absent for a dry run (it changes nothing).
   */
  readonly prefix?: string;
  /** The unfinished run of the same command this job goes on from, or (tooOld) replaced. */
  readonly earlierRun?: EarlierRun;
  /** A count of what the job would do (a delete's dry run): it changes nothing, and is no transfer to tell of. */
  readonly dryRun?: boolean;
}

/** One side of a question: what is there, or what would take its place. */
export interface ConflictSide {
  readonly size?: number;
  /** Milliseconds since 1970: a file's modification time, an object's Last-Modified. */
  readonly modifiedAt?: number;
}

/**
 * A destination already there, waiting for the user's word: a file (a download's path) or an object
 * (an upload's s3:// address), with both sides as far as they are known.
 */
export interface Conflict {
  readonly id: string;
  readonly path: string;
  /** What is there now. */
  readonly existing?: ConflictSide;
  /** What would take its place (the object to download, the file to upload). */
  readonly incoming?: ConflictSide;
  /** An upload's bucket keeps versions ("enabled"): what is there stays, as an older version. Absent where unknown. */
  readonly versioning?: 'enabled' | 'suspended' | 'off';
}

/**
 * What changes ten times a second while a job runs: numbers only. Item errors and warnings go out
 * once, when they happen (and are paged on request); a job's name and questions, when they change.
 * The run's start and end are numbers too, and change when its state does.
 */
export type JobUpdate = Pick<JobSummary, 'id' | 'state' | 'progress' | 'startedAt' | 'endedAt'>;

/** A job with its item lists, as the engine has it (its first item errors and warnings, bounded). */
export interface JobSnapshot extends JobSummary {
  /** The first item errors (bounded); `progress.objectsFailed` has the count. */
  readonly itemErrors: readonly ItemError[];
  /** The first files kept, entries skipped and objects checked for size only, each with why (bounded). */
  readonly itemWarnings?: readonly ItemError[];
}

/** Which of a job's lists: items that failed, or items done with a word to say (kept, skipped, size only). */
export type ItemList = 'errors' | 'warnings';

/**
 * What became of one item of a job: done; failed (with why); skipped (found and not sent: a pipe, a
 * link not followed); kept (a file already there, kept as asked); retrying (it failed, and a retry
 * of the failed items is trying it again).
 */
export type ItemState = 'done' | 'failed' | 'skipped' | 'kept' | 'retrying';

/** Where one item of a job comes from and goes. */
export interface ItemPlace {
  /** A local path (an upload), or an s3:// address (a download, a delete). */
  readonly source: string;
  /** An s3:// address (an upload), or a local path (a download); "" for a delete, or where none was reached. */
  readonly destination: string;
  /** Its size in bytes, where known. */
  readonly size?: number;
}

/** One item of a job as its details list it: where from, where to, its size, and what became of it. */
export interface JobItem extends ItemPlace {
  readonly state: ItemState;
  /** Why it failed, was skipped or kept (a code and a sentence), or a word on one done. */
  readonly code?: string;
  readonly message?: string;
}

/** Which of a job's items: every one, or those that failed. */
export type ItemFilter = 'all' | 'failed';

/** A recorded run of the same command that a new job goes on from, or replaces. */
export interface EarlierRun {
  /** 'failed': the run ended with failures (this one retries them); 'active': it was interrupted. */
  readonly status: 'active' | 'failed' | 'completed' | 'cancelled';
  readonly createdAt: number;
  readonly updatedAt: number;
  /** True when it was too old to resume, and the job started afresh (its leftovers cleaned up). */
  readonly tooOld: boolean;
}

export function isFinished(state: JobState): boolean {
  return state.status === 'completed' || state.status === 'cancelled' || state.status === 'failed';
}

/** How far a job is, 0 to 1: by bytes when it has any, else by objects (a delete by key). */
export function progressFraction(snapshot: JobUpdate): number {
  const p = snapshot.progress;
  const fraction =
    p.bytesTotal > 0
      ? p.bytesDone / p.bytesTotal
      : p.objectsTotal > 0
        ? (p.objectsDone + p.objectsFailed) / p.objectsTotal
        : isFinished(snapshot.state)
          ? 1
          : 0;
  return Math.max(0, Math.min(1, fraction));
}
