// Files a browser sends, kept until their job no longer needs them.
//
// A page may not name files on the host (that would hand whoever holds the token the host user's
// disk), so it sends them: `uploads.stage` gives it a batch, a private folder below the staging
// root; its files are written there by their paths relative to what was dropped; `jobs.upload`
// with `staged` then uploads the top-level entries in place. The window starts that job first,
// saying what is coming, and sends the files after: the job shows them arriving as its first
// phase (staged-arrival.ts) and uploads once they are all here. A batch stays while its job may still
// need it (a failed job can be retried) and goes when the job completes or is cleared. A batch whose
// job never started (the page went away mid-upload) goes an hour after its last file arrived;
// every batch goes when the host stops, and what a host killed left behind goes when the next one
// starts (staging-leftovers.ts).

import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { keyToRelativePath } from '../../src/key-path.ts';
import { BargeError } from '../engine/errors.ts';
import { ownStagingPrefix, removeLeftoverStaging } from './staging-leftovers.ts';
import { StagedArrival } from './staged-arrival.ts';
import type { Coming } from './staged-arrival.ts';

/** Files staged for a job that never started go after this long (counted from the last file). */
export const STAGED_UNSTARTED_TTL_MS = 60 * 60 * 1000;
/** How often batches never started are looked for, at most. */
const EXPIRY_SWEEP_MS = 10 * 60 * 1000;

export interface StagingOptions {
  /** Where batches are made (default: a private temporary folder, removed on close). */
  readonly root?: string;
  /** Where that private folder is made, and earlier hosts' are looked for (default: the system's). */
  readonly temporaryDir?: string;
  /** How long a batch may wait for its job (default one hour). */
  readonly unstartedTtlMs?: number;
  /** How long an upload whose job has started waits for its next file (default one minute). */
  readonly receivePatienceMs?: number;
  readonly now?: () => number;
}

/** Where one staged file is written, and the folder whose disk must keep room. */
export interface StagedFileTarget {
  readonly file: string;
  readonly stagingRoot: string;
  /** Aborted when the file is no longer wanted (its upload cancelled or failed): stop taking it. */
  readonly signal: AbortSignal;
  /** Bytes of it written: its job counts them as they land. */
  received(bytes: number): void;
  /** Whole, or refused or broken off (why, in words: its job fails so). Said once, whatever happened. */
  ended(failure?: BargeError): void;
}

/** The signal of a file whose batch's job has not started: nothing stops it but its own request. */
const NEVER_STOPPED = new AbortController().signal;

const PLATFORM = process.platform === 'win32' ? 'win32' : 'posix';
/** A file or folder name the host's disk takes, at most (ext4, APFS, NTFS: 255). */
export const MAX_NAME_BYTES = 255;
/** Words for a staged file's path the disk refused, by the system's code. */
export const STAGED_PATH_REFUSALS: Readonly<Record<string, string>> = {
  ENAMETOOLONG:
    "That file path is too long for the host's disk: upload a folder nearer to the file, or shorten its names.",
  EEXIST: 'That file path clashes with another file of the same upload.',
  ENOTDIR: 'That file path clashes with another file of the same upload.',
  EISDIR: 'That file path clashes with a folder of the same upload.',
};

export class StagingArea {
  /** Batches not started yet, by id: when they were made or last received a file. */
  private readonly unstarted = new Map<string, number>();
  /** Batches claimed by a start that has not answered yet. */
  private readonly starting = new Set<string>();
  /** Batches of running jobs, by job id. */
  private readonly byJob = new Map<string, string>();
  /** Batches whose job has started while their files still arrive. */
  private readonly arriving = new Map<string, StagedArrival>();
  private readonly receivePatienceMs: number | undefined;
  private readonly sweep: NodeJS.Timeout;
  readonly root: string;
  private readonly ownsRoot: boolean;
  private readonly ttlMs: number;
  private readonly now: () => number;

  private constructor(
    root: string,
    ownsRoot: boolean,
    ttlMs: number,
    now: () => number,
    receivePatienceMs: number | undefined,
  ) {
    this.root = root;
    this.receivePatienceMs = receivePatienceMs;
    this.ownsRoot = ownsRoot;
    this.ttlMs = ttlMs;
    this.now = now;
    this.sweep = setInterval(() => this.expire(), Math.max(10, Math.min(ttlMs / 6, EXPIRY_SWEEP_MS)));
    this.sweep.unref();
  }

  static async open(options: StagingOptions = {}): Promise<StagingArea> {
    // Private to this user: staged files are other people's data.
    const temporaryDir = options.temporaryDir ?? os.tmpdir();
    if (options.root === undefined) await removeLeftoverStaging(temporaryDir);
    const root = options.root ?? (await mkdtemp(path.join(temporaryDir, ownStagingPrefix())));
    await mkdir(root, { recursive: true, mode: 0o700 });
    await chmod(root, 0o700);
    return new StagingArea(
      path.resolve(root),
      options.root === undefined,
      options.unstartedTtlMs ?? STAGED_UNSTARTED_TTL_MS,
      options.now ?? Date.now,
      options.receivePatienceMs,
    );
  }

  /** A new, empty batch. */
  async create(): Promise<string> {
    const id = randomUUID();
    await mkdir(this.folder(id), { mode: 0o700 });
    this.unstarted.set(id, this.now());
    return id;
  }

  /**
   * Where a file of a batch goes (its folders made), by its path relative to what was dropped: a
   * batch not yet started, or one whose job waits for its files. A path refused fails that job.
   */
  async fileFor(stagingId: string, relativePath: string): Promise<StagedFileTarget> {
    const arrival = this.arriving.get(stagingId);
    if (!arrival?.open) this.assertUnstarted(stagingId);
    let file: string;
    try {
      file = await this.place(stagingId, relativePath);
    } catch (error) {
      arrival?.fail(
        error instanceof BargeError
          ? error
          : new BargeError(
              'ENOSPC',
              "The host's disk for staging uploads is full: free some space there, then upload again.",
            ),
      );
      throw error;
    }
    // Still arriving: the batch waits an hour from its last file.
    if (this.unstarted.has(stagingId)) this.unstarted.set(stagingId, this.now());
    if (!arrival)
      return { file, stagingRoot: this.root, signal: NEVER_STOPPED, received: () => undefined, ended: () => undefined };
    arrival.fileStarted();
    let ended = false;
    return {
      file,
      stagingRoot: this.root,
      signal: arrival.stopped,
      received: (bytes) => arrival.received(bytes),
      ended: (failure) => {
        if (ended) return;
        ended = true;
        arrival.fileEnded(failure);
      },
    };
  }

  /** A file's place in its batch, its folders made; refused in words where the disk cannot hold it. */
  private async place(stagingId: string, relativePath: string): Promise<string> {
    const mapped = keyToRelativePath(relativePath, '', PLATFORM);
    if (!mapped.ok || mapped.isFolderMarker)
      throw new BargeError('InvalidPath', `That file path ${mapped.ok ? 'is a folder' : mapped.reason}.`);
    const longest = Math.max(...mapped.segments.map((segment) => Buffer.byteLength(segment)));
    if (longest > MAX_NAME_BYTES)
      throw new BargeError(
        'InvalidPath',
        `That file path holds a name of ${longest} bytes, and the host's disk takes at most ${MAX_NAME_BYTES} ` +
          `bytes: rename it, then upload it again.`,
      );
    const file = path.join(this.folder(stagingId), ...mapped.segments);
    try {
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENOSPC') throw error;
      throw new BargeError('InvalidPath', STAGED_PATH_REFUSALS[code] ?? STAGED_PATH_REFUSALS.EEXIST!);
    }
    return file;
  }

  /**
   * Claim a batch for a job: the paths of its top-level entries (each one name, as dropped). It no
   * longer expires nor takes files; `started` or `discard` says how the start went.
   */
  claim(stagingId: string, entries: readonly string[]): string[] {
    this.assertUnstarted(stagingId);
    const paths = entries.map((entry) => {
      const mapped = keyToRelativePath(entry, '', PLATFORM);
      if (!mapped.ok || mapped.isFolderMarker || mapped.segments.length !== 1)
        throw new BargeError('InvalidPath', `"${entry.slice(0, 100)}" is not the name of a dropped file or folder.`);
      return path.join(this.folder(stagingId), entry);
    });
    this.unstarted.delete(stagingId);
    this.starting.add(stagingId);
    return paths;
  }

  /**
   * A claimed batch whose files are still to come (`coming`): it takes them until they are all
   * here, counting them for its job's first phase, which waits on what this returns.
   */
  receive(stagingId: string, coming: Coming): StagedArrival {
    if (!this.starting.has(stagingId))
      throw new BargeError(
        'NoSuchStaging',
        'That upload is not waiting here: it was started already, or waited too long. Drop the files again.',
      );
    const arrival = new StagedArrival(coming, {
      patienceMs: this.receivePatienceMs,
      removeFiles: () => void this.remove(stagingId),
    });
    this.arriving.set(stagingId, arrival);
    return arrival;
  }

  /** The claimed batch's job: the batch goes when `jobsDone` names it. */
  started(stagingId: string, jobId: string): void {
    this.starting.delete(stagingId);
    this.byJob.set(jobId, stagingId);
  }

  /** A batch no job will read (its start failed). */
  async discard(stagingId: string): Promise<void> {
    this.starting.delete(stagingId);
    this.unstarted.delete(stagingId);
    this.stopArriving(stagingId, 'The upload did not start: drop the files again.');
    await this.remove(stagingId);
  }

  /** Jobs completed or cleared: their batches go. */
  jobsDone(jobIds: readonly string[]): void {
    for (const jobId of jobIds) {
      const stagingId = this.byJob.get(jobId);
      if (stagingId === undefined) continue;
      this.byJob.delete(jobId);
      this.stopArriving(stagingId, 'The upload was removed from the list before its files arrived.');
      void this.remove(stagingId);
    }
  }

  /** Batches that waited too long for their job go. */
  expire(): void {
    const now = this.now();
    for (const [stagingId, since] of this.unstarted) {
      if (now - since < this.ttlMs) continue;
      this.unstarted.delete(stagingId);
      void this.remove(stagingId);
    }
  }

  /** Every batch goes (and the root, if this area made it). */
  async close(): Promise<void> {
    clearInterval(this.sweep);
    for (const stagingId of [...this.arriving.keys()])
      this.stopArriving(
        stagingId,
        'The Barge host stopped before the files of this upload arrived: drop them again once it runs.',
      );
    const all = [...this.unstarted.keys(), ...this.starting, ...this.byJob.values()];
    this.unstarted.clear();
    this.starting.clear();
    this.byJob.clear();
    await Promise.all(all.map((stagingId) => this.remove(stagingId)));
    if (this.ownsRoot) await rm(this.root, { recursive: true, force: true });
  }

  /** Files no longer wanted: those on their way are cut off, and their job fails with `why`. */
  private stopArriving(stagingId: string, why: string): void {
    this.arriving.get(stagingId)?.fail(new BargeError('NoSuchStaging', why));
    this.arriving.delete(stagingId);
  }

  private assertUnstarted(stagingId: string): void {
    if (!this.unstarted.has(stagingId))
      throw new BargeError(
        'NoSuchStaging',
        'That upload is not waiting here: it was started already, or waited too long. Drop the files again.',
      );
  }

  /** A batch's folder; ids are ours (UUIDs), looked up before they name a folder. */
  private folder(stagingId: string): string {
    return path.join(this.root, stagingId);
  }

  private remove(stagingId: string): Promise<void> {
    return rm(this.folder(stagingId), { recursive: true, force: true });
  }
}
