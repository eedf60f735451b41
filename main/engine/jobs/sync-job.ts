// Sync: make a prefix hold what a folder holds (or a folder what a prefix holds, or a prefix what
// another prefix holds), sending only what differs.
//
// The folder (in key order, ordered-walk.ts) and the prefix's listing are read side by side
// (sync-plan.ts); what is new or changed goes through the upload or the download machinery as it
// is found (upload-job.ts, download-job.ts: the same requests, checks, journal and resume), and
// nothing else is sent. Between two prefixes of one connection, the store copies each one
// (copy-job.ts: verified and journaled as cp's copies), and no byte passes here. With `delete`,
// what is only at the destination is removed once the sends are done: objects by DeleteObjects
// batches (delete-job.ts), files one by one, as rclone does. Extras wait on disk past 10,000
// (spilling-queue.ts), so memory stays bounded either way.
//
// A source entry that could not be read (a folder refused, a file gone) would make its
// destination look extra: then nothing is deleted, and each extra fails saying why (rclone's
// "not deleting files as there were IO errors"). A source that holds nothing deletes nothing either
// (a mistyped name): the run fails once saying so, and a dry run notes each extra "not deleted".
// Folder markers (keys ending in "/") are neither
// sent nor deleted: they are folders, which a sync of files does not manage. The name filters (a
// wildcard in the source's URL, --include, --exclude) apply to both sides alike: what they leave out
// is neither sent nor deleted (rclone's rule). The time, size and storage-class filters choose only
// which source entries are sent: a copy's date is when it was copied, so judged by its own it would
// look extra while its source is there. A destination key is extra only when its name is selected
// and absent from the whole source listing. A dry run sends and deletes nothing: each key to send
// or delete is listed in the job's details with its reason. Run again after a kill, a sync compares
// again: what was sent is now unchanged, and a big file cut midway goes on from its recorded parts
// (the journal, as cp).

import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { keyToRelativePath } from '../../../src/key-path.ts';
import { formatS3Url } from '../../../src/s3-url.ts';
import type { ItemPlace } from '../../../src/jobs.ts';
import { plural } from '../../../src/plural.ts';
import { filterBase, isFiltering, nameMatcher, objectMatcher, wildcardPrefix } from '../../../src/object-filter.ts';
import type { FilterableObject, ObjectFilter } from '../../../src/object-filter.ts';
import { BargeError, toBargeError } from '../errors.ts';
import { walkInKeyOrder } from '../disk/ordered-walk.ts';
import { isInside, realPathOf } from '../disk/confined-path.ts';
import type { LocalFile, WalkEntry } from '../disk/local-files.ts';
import { listObjectPages } from '../s3/s3-listing.ts';
import type { ObjectEntry } from '../s3/s3-listing.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { copyChosenBody } from './copy-job.ts';
import type { CopyItem } from './copy-job.ts';
import { deleteObjects } from './delete-job.ts';
import type { DeleteTarget } from './delete-job.ts';
import { downloadBody } from './download-job.ts';
import type { DownloadItem } from './download-job.ts';
import type { JobBody, JobRuntime } from './job.ts';
import type { SyncSpec } from './job-specs.ts';
import { SkippedKeys } from './skipped-keys.ts';
import { SpillingQueue } from './spilling-queue.ts';
import { readAhead } from './read-ahead.ts';
import { checksumDiffers } from './sync-checksum.ts';
import { sizeOrTimeDiffers, syncSteps } from './sync-plan.ts';
import type { Differs, SyncSide, SyncStep } from './sync-plan.ts';
import { uploadBody } from './upload-job.ts';

/** Batches each side is read ahead of the comparison at most: ten listing pages (or 2,560 files). */
const SIDE_AHEAD_BATCHES = 10;

/** A local file as one side of the comparison. */
export type FileSide = SyncSide & { readonly file: LocalFile };
/** An object as one side of the comparison. */
export type ObjectSide = SyncSide & { readonly object: ObjectEntry };

/** Whether a source entry is one the sync's filter and wildcard send. */
type Selects = (entry: FilterableObject) => boolean;
/** Whether a key (in the source's key space) is one the sync's name filters and wildcard select, on either side. */
type SelectsName = (key: string) => boolean;

/** What is only at the destination, kept until the sends are done: an object's key, or a file's path. */
interface Extra {
  readonly key: string;
  readonly size: number;
  readonly path?: string;
}

export function syncBody(connection: S3Connection, spec: SyncSpec): JobBody<unknown> {
  return async (runtime) => {
    const run = new SyncRun(connection, spec, runtime);
    try {
      if (spec.direction === 'upload') await run.upload();
      else if (spec.direction === 'download') await run.download();
      else await run.copy();
    } finally {
      run.close();
    }
  };
}

class SyncRun {
  /** Extras to delete once the sends are done (only with `delete`, and not on a dry run). */
  private readonly extras: SpillingQueue<Extra> | undefined;
  /** Source entries that could not be read: with any, nothing is deleted. */
  private unreadable = 0;
  /** Source entries seen, read or not: a source of none deletes nothing (a typo, a missing disk). */
  private sourceEntries = 0;
  /** Source entries left out on purpose (a link not followed): what the destination holds under them is kept. */
  private readonly skipped = new SkippedKeys();

  private readonly connection: S3Connection;
  private readonly spec: SyncSpec;
  private readonly runtime: JobRuntime<unknown>;
  /** The local folder (upload and download; the spec's schema requires it there). */
  private readonly folder: string;
  /** The key space both sides are compared in: the source's prefix. */
  private readonly sourcePrefix: string;
  /** The names the wildcard, --include and --exclude select, on both sides. */
  private readonly selectsName: SelectsName | undefined;
  /** What the whole filter sends among source objects, and among source files (which have no storage class). */
  private readonly sendsObject: Selects | undefined;
  private readonly sendsFile: Selects | undefined;

  constructor(connection: S3Connection, spec: SyncSpec, runtime: JobRuntime<unknown>) {
    this.connection = connection;
    this.spec = spec;
    this.runtime = runtime;
    this.folder = spec.folder ?? '';
    this.sourcePrefix = spec.direction === 'copy' ? spec.sourcePrefix! : spec.prefix;
    this.extras = spec.delete && !spec.dryRun ? new SpillingQueue<Extra>() : undefined;
    const { storageClasses: _objectsOnly, ...fileFilter } = spec.filter ?? {};
    this.selectsName = nameSelector(spec.filter, this.sourcePrefix, spec.pattern);
    this.sendsObject = selector(spec.filter, this.sourcePrefix, spec.pattern);
    this.sendsFile = selector(fileFilter, this.sourcePrefix, spec.pattern);
  }

  close(): void {
    this.extras?.close();
  }

  /** Folder → prefix: new and changed files through the upload's own sending. */
  async upload(): Promise<void> {
    const { spec, runtime } = this;
    // The source must be there: a folder gone (an unmounted disk) read as empty would make every
    // object extra.
    const walk = walkInKeyOrder(this.folder, spec.prefix, {
      followSymlinks: spec.followSymlinks ?? true,
      missingIsEmpty: false,
    });
    const passedOn: WalkEntry[] = [];
    const files = async function* (run: SyncRun): AsyncGenerator<FileSide[]> {
      for await (const entries of walk) {
        const sides: FileSide[] = [];
        for (const entry of entries) {
          run.sourceEntries += 1;
          if (entry.ok) {
            const side = { key: entry.key, size: entry.size, modifiedMs: entry.mtimeMs, file: entry };
            if (run.namedSelected(side.key)) sides.push(run.sent(side) ? side : { ...side, leftOut: true });
          } else {
            // Said by the upload as its walk would say it; an error also stops the deletes.
            if (entry.skipped === undefined) run.unreadable += 1;
            else run.skipped.add(entry.key);
            passedOn.push(entry);
          }
        }
        yield sides;
      }
    };
    const objects = this.objects(spec.bucket, spec.prefix, 'destination');
    const steps = syncSteps(this.ahead(files(this)), this.ahead(objects), this.differs<FileSide, ObjectSide>());
    if (spec.dryRun) return this.dryRun(steps, (step) => this.uploadPlace(step));
    const chosen = async function* (run: SyncRun): AsyncGenerator<WalkEntry> {
      for await (const batch of steps) {
        yield* passedOn.splice(0);
        for (const step of batch) {
          if (step.reason === 'new' || step.reason === 'changed') yield { ok: true, ...step.source.file };
          else if (step.reason === 'extra') run.extra({ key: step.key, size: step.destination.size });
        }
      }
      yield* passedOn.splice(0);
    };
    const uploadSpec = {
      sources: [this.folder],
      bucket: spec.bucket,
      destination: spec.prefix,
      ...(spec.uploadOptions === undefined ? {} : { uploadOptions: spec.uploadOptions }),
    };
    await uploadBody(this.connection, uploadSpec, () => chosen(this))(runtime as JobRuntime<never>, undefined);
    await this.deleteExtras((extras) =>
      deleteObjects(this.connection, spec.bucket, extras, runtime as JobRuntime<DeleteTarget>),
    );
  }

  /** Prefix → folder: new and changed objects through the download's own saving. */
  async download(): Promise<void> {
    const { spec, runtime } = this;
    const files = async function* (run: SyncRun): AsyncGenerator<FileSide[]> {
      for await (const entries of walkInKeyOrder(run.folder, spec.prefix, {
        followSymlinks: false,
        missingIsEmpty: true,
      })) {
        const sides: FileSide[] = [];
        for (const entry of entries) {
          // What cannot be read at the destination is as good as absent: the download replaces it, or says why not.
          if (!entry.ok) continue;
          // A destination's names only: its dates and sizes are its copies', not what selects them.
          if (run.namedSelected(entry.key))
            sides.push({ key: entry.key, size: entry.size, modifiedMs: entry.mtimeMs, file: entry });
        }
        yield sides;
      }
    };
    const objects = this.objects(spec.bucket, this.listPrefix(spec.prefix), 'source');
    const steps = syncSteps(this.ahead(objects), this.ahead(files(this)), this.differs<ObjectSide, FileSide>());
    if (spec.dryRun) return this.dryRun(steps, (step) => this.downloadPlace(step));
    const chosen = async function* (run: SyncRun): AsyncGenerator<DownloadItem> {
      for await (const batch of steps) {
        for (const step of batch) {
          if (step.reason === 'new' || step.reason === 'changed') {
            runtime.addTotals(1, step.source.size);
            yield run.downloadItem(step.source.object);
          } else if (step.reason === 'extra') {
            run.extra({ key: step.key, size: step.destination.size, path: step.destination.file.path });
          }
        }
      }
      runtime.totalsFinal();
    };
    const downloadSpec = { bucket: spec.bucket, prefixes: [spec.prefix], targetFolder: this.folder, ...confined(spec) };
    await downloadBody(this.connection, downloadSpec, () => chosen(this))(runtime as JobRuntime<never>, undefined);
    await this.deleteExtras(async (extras) => {
      for await (const extra of extras) await this.deleteFile(extra);
      return 0;
    });
  }

  /** Prefix → prefix in one connection: new and changed objects copied by the store (copy-job.ts). */
  async copy(): Promise<void> {
    const { spec, runtime } = this;
    const sourceBucket = spec.sourceBucket!;
    const sources = this.objects(sourceBucket, this.listPrefix(this.sourcePrefix), 'source');
    // The destination's keys in the source's key space, so both sides sort and compare alike.
    const destinations = this.objects(spec.bucket, spec.prefix, 'destination');
    const steps = syncSteps(this.ahead(sources), this.ahead(destinations), this.differs<ObjectSide, ObjectSide>());
    if (spec.dryRun) return this.dryRun(steps, (step) => this.copyPlace(step));
    const chosen = async function* (run: SyncRun): AsyncGenerator<CopyItem> {
      for await (const batch of steps) {
        for (const step of batch) {
          if (step.reason === 'new' || step.reason === 'changed') {
            const object = step.source.object;
            runtime.addTotals(1, object.size);
            yield {
              key: object.key,
              target: run.targetKey(object.key),
              size: object.size,
              ...(object.lastModified === undefined ? {} : { lastModified: object.lastModified }),
            };
          } else if (step.reason === 'extra') {
            run.extra({ key: step.destination.object.key, size: step.destination.size });
          }
        }
      }
      runtime.totalsFinal();
    };
    const copySpec = { sourceBucket, prefixes: [this.sourcePrefix], bucket: spec.bucket, destination: spec.prefix };
    await copyChosenBody(this.connection, copySpec, () => chosen(this))(runtime as JobRuntime<never>, undefined);
    await this.deleteExtras((extras) =>
      deleteObjects(this.connection, spec.bucket, extras, runtime as JobRuntime<DeleteTarget>),
    );
  }

  /**
   * A prefix's objects in key order, a page at a time, less folder markers and what the filter leaves
   * out, keyed in the source's key space; a key the store sent broken stops the deletes.
   */
  private async *objects(bucket: string, prefix: string, side: 'source' | 'destination'): AsyncGenerator<ObjectSide[]> {
    const { spec, runtime } = this;
    for await (const page of listObjectPages(this.connection, { bucket, prefix, signal: runtime.signal })) {
      const sides: ObjectSide[] = [];
      for (const object of page.objects) {
        if (object.key.endsWith('/')) continue;
        if (side === 'source') this.sourceEntries += 1;
        const key =
          spec.direction === 'copy' && side === 'destination'
            ? this.sourcePrefix + object.key.slice(spec.prefix.length)
            : object.key;
        if (!this.namedSelected(key)) continue;
        const entry = { key, size: object.size, modifiedMs: object.lastModified, object };
        // A source left out by its time, size or class is still held there: its copy is not extra.
        const sent = side === 'destination' || this.sendsObject === undefined || this.sendsObject({ ...object, key });
        sides.push(sent ? entry : { ...entry, leftOut: true });
      }
      for (const sent of page.unreadable ?? []) {
        this.unreadable += 1;
        runtime.addTotals(1, 0);
        runtime.itemFailed(
          {},
          { source: formatS3Url({ bucket, key: sent }), destination: '' },
          new BargeError(
            'UnreadableKey',
            `The store listed a key with a broken URL encoding ("${sent}"); it cannot be synced.`,
          ),
        );
      }
      yield sides;
    }
  }

  /** Whether a key's name is one the wildcard and the name filters select (either side). */
  private namedSelected(key: string): boolean {
    return this.selectsName === undefined || this.selectsName(key);
  }

  /** Whether a source file is one the whole filter sends. */
  private sent(side: FileSide): boolean {
    if (this.sendsFile === undefined) return true;
    return this.sendsFile({ key: side.key, size: side.size, lastModified: side.modifiedMs, storageClass: undefined });
  }

  /** Where a source's listing starts: below its prefix, as far as the wildcard's literal part goes. */
  private listPrefix(prefix: string): string {
    return this.spec.pattern === undefined ? prefix : wildcardPrefix(this.spec.pattern);
  }

  /** A source key's place at the destination (copy: its key below the source prefix, below the prefix). */
  private targetKey(sourceKey: string): string {
    return this.spec.prefix + sourceKey.slice(this.sourcePrefix.length);
  }

  /**
   * A side read ahead of the comparison (read-ahead.ts), so the walk and the listing run at once:
   * pulled in turn, each waited for the other, and a sync of 20,000 unchanged files took their sum.
   */
  private ahead<T extends object>(side: AsyncIterable<T[]>): AsyncIterable<T[]> {
    return readAhead(side, {
      maxAhead: SIDE_AHEAD_BATCHES,
      signal: this.runtime.signal,
      whilePaused: this.runtime.whilePaused,
    });
  }

  private differs<S extends FileSide | ObjectSide, D extends FileSide | ObjectSide>(): Differs<S, D> {
    return this.spec.checksum ? (source, destination) => checksumDiffers(source, destination) : sizeOrTimeDiffers;
  }

  private extra(extra: Extra): void {
    if (!this.extras) return;
    if (this.skipped.covers(extra.key)) return;
    // Found after the whole source (an extra comes only past the source's last key): from an empty
    // source none will be deleted, so none is counted as one to do.
    if (!this.sourceIsEmpty()) this.runtime.addTotals(1, 0);
    this.extras.push(extra);
  }

  /**
   * Whether the source held nothing. Known true once an extra is found with no source entry seen:
   * a destination key is extra only past the source's last key, or with the source read to its end.
   */
  private sourceIsEmpty(): boolean {
    return this.sourceEntries === 0;
  }

  /** Where the sync reads from, as a person names it: the folder, or the source's s3:// prefix. */
  private sourceName(): string {
    return this.spec.direction === 'upload'
      ? this.folder
      : formatS3Url({ bucket: this.spec.sourceBucket ?? this.spec.bucket, key: this.sourcePrefix });
  }

  /** The extras deleted (or failed, saying why not) once the sends are done. */
  private async deleteExtras(remove: (extras: AsyncIterable<DeleteTarget & Extra>) => Promise<number>): Promise<void> {
    const extras = this.extras;
    if (!extras || extras.length === 0 || this.runtime.signal.aborted) return;
    const drained = async function* (): AsyncGenerator<DeleteTarget & Extra> {
      for (let extra = extras.shift(); extra !== undefined; extra = extras.shift()) yield extra;
    };
    if (this.unreadable > 0) {
      const why = new BargeError(
        'NotDeleted',
        `Not deleted: ${plural(this.unreadable, 'source entry', 'source entries')} could not be read, and what ` +
          `they hold would look extra. Fix what failed, then sync again.`,
      );
      for await (const extra of drained()) this.runtime.itemFailed(extra, this.extraPlace(extra), why);
      return;
    }
    if (this.sourceIsEmpty()) {
      // Said once for the job, not once for each of its extras (one reason, one line).
      const what = this.spec.direction === 'download' ? 'file' : 'object';
      throw new BargeError(
        'NotDeleted',
        `Not deleted: ${this.sourceName()} holds nothing, so all ${plural(extras.length, what)} at the ` +
          `destination look extra (a mistyped name?). To empty the destination, delete it instead.`,
      );
    }
    await remove(drained());
  }

  private async deleteFile(extra: Extra): Promise<void> {
    const place = this.extraPlace(extra);
    try {
      // Walked a while ago: a folder since swapped for a link must not lead the delete out of the folder.
      const [folder, parent] = await Promise.all([realPathOf(this.folder), realPathOf(path.dirname(extra.path!))]);
      const root = this.spec.confinedTo === undefined ? folder : await realPathOf(this.spec.confinedTo);
      if (!isInside(folder, parent) || !isInside(root, parent))
        throw new BargeError(
          'UnsafePath',
          `${extra.path} now lies outside ${this.folder} (a folder on its way became a link to ` +
            `${parent}); it was not deleted.`,
        );
      await unlink(extra.path!);
      this.runtime.objectDone(place);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.runtime.objectDone(place);
      else this.runtime.itemFailed(extra, place, toBargeError(error, `delete ${extra.path}`));
    }
  }

  private extraPlace(extra: Extra): ItemPlace {
    const where = extra.path ?? formatS3Url({ bucket: this.spec.bucket, key: extra.key });
    return { source: where, destination: '', size: extra.size };
  }

  private downloadItem(object: ObjectEntry): DownloadItem {
    const platform = process.platform === 'win32' ? 'win32' : 'posix';
    const mapped = keyToRelativePath(object.key, this.spec.prefix, platform);
    const base = { key: object.key, size: object.size, etag: object.etag, lastModified: object.lastModified };
    if (object.badSize !== undefined) return { ...base, size: undefined, path: '', badSize: object.badSize };
    if (!mapped.ok) return { ...base, path: '', unsafe: mapped.reason };
    return { ...base, path: path.join(this.folder, ...mapped.segments) };
  }

  private uploadPlace(step: SyncStep<FileSide, ObjectSide>): ItemPlace {
    const key = formatS3Url({ bucket: this.spec.bucket, key: step.key });
    if (step.reason === 'extra') return { source: key, destination: '', size: step.destination.size };
    return { source: step.source.file.path, destination: key, size: step.source.size };
  }

  private downloadPlace(step: SyncStep<ObjectSide, FileSide>): ItemPlace {
    if (step.reason === 'extra')
      return { source: step.destination.file.path, destination: '', size: step.destination.size };
    const source = formatS3Url({ bucket: this.spec.bucket, key: step.key });
    const mapped = keyToRelativePath(step.key, this.spec.prefix);
    const file = mapped.ok ? path.join(this.folder, ...mapped.segments) : '';
    return {
      source,
      destination: step.reason === 'changed' ? step.destination.file.path : file,
      size: step.source.size,
    };
  }

  private copyPlace(step: SyncStep<ObjectSide, ObjectSide>): ItemPlace {
    if (step.reason === 'extra')
      return {
        source: formatS3Url({ bucket: this.spec.bucket, key: step.destination.object.key }),
        destination: '',
        size: step.destination.size,
      };
    return {
      source: formatS3Url({ bucket: this.spec.sourceBucket!, key: step.key }),
      destination: formatS3Url({ bucket: this.spec.bucket, key: this.targetKey(step.key) }),
      size: step.source.size,
    };
  }

  /**
   * The plan, sending nothing: each key to send or delete is an item of the job's details, its note
   * the reason ("new", "changed: …", "extra: …"); its totals are the plan's count and bytes.
   */
  private async dryRun<S extends SyncSide, D extends SyncSide>(
    steps: AsyncIterable<SyncStep<S, D>[]>,
    place: (step: SyncStep<S, D>) => ItemPlace,
  ): Promise<void> {
    const { runtime } = this;
    const keep = this.spec.delete ? 'extra: deleted with --delete' : 'extra: kept (no --delete)';
    // As the real run: from a source that holds nothing, --delete deletes nothing (deleteExtras).
    const refused = `extra: not deleted (${this.sourceName()} holds nothing)`;
    for await (const batch of steps) {
      for (const step of batch) {
        if (runtime.signal.aborted) return;
        if (step.reason === 'unchanged') continue;
        const size = step.reason === 'extra' ? step.destination.size : step.source.size;
        runtime.addTotals(1, size);
        // Counted as found, moved nowhere: the plan's bytes, not a rate.
        runtime.alreadyDone(0, size);
        const extraNote = this.spec.delete && this.sourceIsEmpty() ? refused : keep;
        const note = step.reason === 'changed' ? `changed: ${step.why}` : step.reason === 'new' ? 'new' : extraNote;
        runtime.objectDone(place(step), note);
      }
    }
    runtime.totalsFinal();
  }
}

/** The test of what a sync's filter and wildcard select, or undefined when they select everything. */
function selector(filter: ObjectFilter | undefined, prefix: string, pattern: string | undefined): Selects | undefined {
  if (!isFiltering(filter) && pattern === undefined) return undefined;
  return objectMatcher(filter, pattern === undefined ? prefix : filterBase(pattern), pattern);
}

/** The test of the names a sync's wildcard and name filters select, or undefined when they select every name. */
function nameSelector(
  filter: ObjectFilter | undefined,
  prefix: string,
  pattern: string | undefined,
): SelectsName | undefined {
  if (!filter?.include?.length && !filter?.exclude?.length && pattern === undefined) return undefined;
  return nameMatcher(filter, pattern === undefined ? prefix : filterBase(pattern), pattern);
}

function confined(spec: SyncSpec): { confinedTo?: string } {
  return spec.confinedTo === undefined ? {} : { confinedTo: spec.confinedTo };
}
