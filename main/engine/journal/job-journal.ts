// What one job records as it goes, so that after a crash or a kill it continues where it was.
//
// The job bodies (upload, download, delete) see only this interface: a job with no journal (tests,
// dry runs) gets `NO_JOURNAL`, which records nothing and remembers nothing.

import type { Verification } from '../../../src/verification.ts';
import type { LocalFileIdentity } from '../disk/local-files.ts';

export type { LocalFileIdentity } from '../disk/local-files.ts';

export interface FinishedObject {
  readonly key: string;
  /** The local file (the source of an upload, the target of a download). */
  readonly path: string;
  readonly size: number;
  /** The local file's modification time when it was uploaded: a file changed since is sent again. */
  readonly mtimeMs?: number;
  readonly etag?: string;
  readonly versionId?: string;
  /** "ALGORITHM:base64 value" as the store reports it, e.g. "CRC32C:yZRlqg==" or "CRC64NVME:…". */
  readonly checksum?: string;
  /** How its bytes were checked (see src/verification.ts). */
  readonly verified?: Verification;
  /**
   * The local file as it was sent (upload) or written (download, after its final rename). Absent in
   * records from before schema 4: a file whose identity is unknown is not proven unchanged.
   */
  readonly local?: LocalFileIdentity;
}

export interface MultipartRecord {
  /** Empty while CreateMultipartUpload is on its way: an upload may exist that no record names yet. */
  readonly uploadId: string;
  /** When the upload was begun (this machine's clock), to find one whose ID was never recorded. */
  readonly startedAt?: number;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The file's inode and change time (absent in journals written before schema 3). */
  readonly ino?: number;
  readonly ctimeMs?: number;
  readonly partSize: number;
  readonly checksumAlgorithm?: string;
}

export interface PartRecord {
  readonly partNumber: number;
  readonly etag: string;
  readonly checksum?: string;
}

export interface DownloadRecord {
  readonly path: string;
  /** The temporary file the ranges are written into (renamed to `path` when complete). */
  readonly temporary: string;
  readonly etag: string | undefined;
  readonly size: number;
  readonly partSize: number;
}

/**
 * One object a job removed: the version it deleted for good (`versionId`), or the delete marker its
 * delete made (`markerVersionId`, in a bucket that keeps versions: removing it brings the object
 * back). Neither, in a bucket that keeps no versions.
 */
export interface Removal {
  readonly key: string;
  readonly versionId?: string;
  readonly markerVersionId?: string;
  readonly size?: number;
}

/** A bucket's versioning as a delete found it. */
export type VersioningSeen = 'enabled' | 'suspended' | 'off';

export interface JobJournal {
  /** True when the job was recorded before this process started it: there may be work to skip. */
  readonly resumed: boolean;
  finishedObject(key: string): FinishedObject | undefined;
  /**
   * `now`: written at once, not with the next batch: where doing it again would not give the same
   * result (a download saved under a numbered name would be saved again under the next number).
   */
  objectFinished(object: FinishedObject, options?: { readonly now?: boolean }): void;
  multipart(key: string): MultipartRecord | undefined;
  multipartStarted(key: string, record: MultipartRecord): void;
  parts(uploadId: string): PartRecord[];
  partFinished(uploadId: string, part: PartRecord): void;
  /** The upload completed or was aborted: its parts no longer matter. */
  multipartEnded(key: string, uploadId: string): void;
  download(key: string): DownloadRecord | undefined;
  downloadStarted(key: string, record: DownloadRecord): void;
  /** Part numbers (ranges of `partSize`) already written to the temporary file. */
  rangesFinished(key: string): number[];
  rangeFinished(key: string, partNumber: number): void;
  downloadEnded(key: string): void;
  /**
   * What other jobs of this host left and no process runs any more (killed, then never run again,
   * or run with other arguments): their open multipart uploads and temporary files. A job that goes
   * to the same key or file cleans them up.
   */
  strays(): Strays;
  /** Where the download's target folder really was when the job first opened it (its real path). */
  target(): string | undefined;
  targetOpened(real: string): void;
  /** A stray cleaned up: its record goes. */
  strayGone(kind: 'upload' | 'download', jobId: string, key: string): void;
  /** Keys deleted by earlier runs of this job (for progress; the listing no longer shows them). */
  deletedCount(): number;
  /** A batch of deletes ended: how many went, and (for the history, and an undo) what each removed. */
  deleteBatchFinished(count: number, removed?: readonly Removal[]): void;
  /** The bucket's versioning, as a delete found it before its first batch. */
  versioningSeen(state: VersioningSeen): void;
  /** What another recorded job removed (an undo reads the delete it undoes). */
  removalsOf(jobId: string): Iterable<Removal>;
  /** This job (an undo) has undone that one: a second undo of it is refused, and it is never resumed. */
  undid(jobId: string): void;
}

export interface Strays {
  readonly uploads: readonly {
    readonly jobId: string;
    readonly bucket: string;
    readonly key: string;
    readonly uploadId: string;
  }[];
  readonly downloads: readonly {
    readonly jobId: string;
    readonly key: string;
    readonly path: string;
    readonly temporary: string;
  }[];
}

export const NO_JOURNAL: JobJournal = {
  resumed: false,
  finishedObject: () => undefined,
  objectFinished: () => undefined,
  multipart: () => undefined,
  multipartStarted: () => undefined,
  parts: () => [],
  partFinished: () => undefined,
  multipartEnded: () => undefined,
  download: () => undefined,
  downloadStarted: () => undefined,
  rangesFinished: () => [],
  rangeFinished: () => undefined,
  downloadEnded: () => undefined,
  strays: () => ({ uploads: [], downloads: [] }),
  target: () => undefined,
  targetOpened: () => undefined,
  strayGone: () => undefined,
  deletedCount: () => 0,
  deleteBatchFinished: () => undefined,
  versioningSeen: () => undefined,
  removalsOf: () => [],
  undid: () => undefined,
};
