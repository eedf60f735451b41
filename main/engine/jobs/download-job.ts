// Download objects and prefixes: parallel ranged GETs into a temporary file, renamed into place.
//
// A file never appears under its final name until every byte is there and the size is checked: a
// failed or cancelled download leaves nothing behind. A body that breaks mid-stream is resumed from
// the last byte written, not restarted (the SDK does not retry a broken body). Every range is pinned
// to the object's ETag (If-Match), so an object replaced mid-download fails instead of producing a
// file stitched from two versions.

import { constants } from 'node:fs';
import { link, lstat, open, rename, rm, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { keyToRelativePath, SavedPaths } from '../../../src/key-path.ts';
import { partCount, partNumbers, partRange } from '../../../src/part-size.ts';
import { asFolderPrefix, formatS3Url, keyBaseName } from '../../../src/s3-url.ts';
import {
  folderRoot,
  isFiltering,
  nameMatcher,
  nothingMatched,
  objectMatcher,
  patternRoot,
} from '../../../src/object-filter.ts';
import { readablePartOf } from '../../../src/unreadable-key.ts';
import type { ItemPlace } from '../../../src/jobs.ts';
import { concurrentEach } from '../queue/concurrent-each.ts';
import { BargeError, errorCode, httpStatus, toBargeError } from '../errors.ts';
import { countedAgain } from './job.ts';
import type { JobBody, JobRuntime } from './job.ts';
import { folderIgnoresCase, identityOf, sameLocalFile } from '../disk/local-files.ts';
import type { LocalFileIdentity } from '../disk/local-files.ts';
import { headObjectOnce, listAllObjects, unreadableKeyError } from '../s3/s3-listing.ts';
import { nothingBelow } from './nothing-below.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { versionIdOf } from '../s3/s3-wire.ts';
import { headVersionOnce } from '../s3/version-actions.ts';
import type { StoredObject } from '../s3/s3-wire.ts';
import { badSizeError, parseContentRange, parseObjectSize } from '../s3/object-size.ts';
import { createHasher } from '../integrity/checksums.ts';
import type { ChecksumAlgorithm, Hasher } from '../integrity/checksums.ts';
import {
  etagOfNoBytes,
  factsFromHeaders,
  objectFactsByHead,
  planVerification,
  verifyDownload,
} from '../integrity/download-verification.ts';
import type { ObjectFacts, VerificationOutcome } from '../integrity/download-verification.ts';
import type { Verification } from '../../../src/verification.ts';
import type { IncomingHttpHeaders } from 'node:http';
import { temporaryNameFor } from '../disk/temporary-name.ts';
import { numberedName } from '../../../src/if-exists.ts';
import type { IfExists } from '../../../src/if-exists.ts';
import { assertSameFile } from '../disk/confined-path.ts';
import { DownloadTarget } from '../disk/download-target.ts';
import type { OpenFolder } from '../disk/download-target.ts';
import { SpillingMap } from './spilling-map.ts';
import type { FileIdentity } from '../disk/confined-path.ts';
import type { DownloadSpec } from './job-specs.ts';
import { AttemptBytes } from './attempt-bytes.ts';
import { readAhead } from './read-ahead.ts';
import { currentRequest } from '../queue/request-signals.ts';
import { timedDisk } from '../disk/disk-time.ts';
import { groupDigits } from '../../../src/digit-groups.ts';

export interface DownloadItem {
  readonly key: string;
  /** Undefined until known (a key given by name is looked up first). */
  readonly size: number | undefined;
  readonly etag: string | undefined;
  /** The object's modification time, where known (for --if-exists newer). */
  readonly lastModified?: number;
  readonly path: string;
  /** Why this key cannot be saved (it would leave the target folder): it fails, every time. */
  readonly unsafe?: string;
  /** A prefix below which nothing was found, and what that may mean: it fails by name, never "0 of 0" in silence. */
  readonly nothingBelow?: string;
  /** Why this key's file is another key's (the same name, or one that differs only in case where case is ignored). */
  readonly collision?: string;
  /** A folder marker (a key ending in "/"): `path` is the folder it stands for. */
  readonly marker?: boolean;
  /** The size the listing gave, when it is no size an object can have: it fails, by name. */
  readonly badSize?: string;
  /** Listed with a URL encoding that is broken (`key` is the text the store sent): it fails, by name. */
  readonly unreadable?: true;
  /** One version of the key, not its latest (cp --version-id, the window's Download this version). */
  readonly versionId?: string;
}

/**
 * `chosen`: the objects to save instead of the spec's listing (a sync's new and changed objects, each replacing the
 * file there), counted into the totals as they come.
 */
export function downloadBody(
  connection: S3Connection,
  spec: DownloadSpec,
  chosen?: () => AsyncIterable<DownloadItem>,
): JobBody<DownloadItem> {
  // Where the first run found the target (kept here for retries, in the journal for later processes).
  let firstAt: string | undefined;
  return async (runtime, only) => {
    // Opened once: every folder below is opened from it, so no swap of a folder for a symlink (nor
    // of the target itself) can lead a download elsewhere (download-target.ts).
    const folder = path.resolve(spec.targetFile ? path.dirname(spec.targetFile) : spec.targetFolder);
    // A retry or a resumed run opens it where the first run found it, or not at all.
    const target = await DownloadTarget.open(folder, spec.confinedTo, firstAt ?? runtime.journal.target()).catch(
      (error: unknown) => {
        throw toBargeError(error, `download into ${folder}`);
      },
    );
    firstAt ??= target.realPath;
    runtime.journal.targetOpened(target.realPath);
    // Temporary files other jobs left (their process died), by the file they were for.
    const strays = new Map<string, { jobId: string; key: string; temporary: string }[]>();
    for (const stray of runtime.journal.strays().downloads)
      strays.set(stray.path, [...(strays.get(stray.path) ?? []), stray]);
    try {
      await downloadItems(connection, spec, runtime, only, target, strays, chosen);
    } finally {
      await target.close();
    }
  };
}

async function downloadItems(
  connection: S3Connection,
  spec: DownloadSpec,
  runtime: JobRuntime<DownloadItem>,
  only: readonly DownloadItem[] | undefined,
  target: DownloadTarget,
  strays: Map<string, { jobId: string; key: string; temporary: string }[]>,
  chosen: (() => AsyncIterable<DownloadItem>) | undefined,
): Promise<void> {
  // The listing runs ahead of the transfers (read-ahead.ts): its totals are known once it has ended.
  const items = only
    ? countedAgain(only, runtime, (item) => item.size)
    : readAhead(chosen ? chosen() : discover(connection, spec, runtime), {
        signal: runtime.signal,
        whilePaused: runtime.whilePaused,
      });
  await concurrentEach(
    items,
    () => runtime.settings.threads * 2,
    async (item) => {
      const source = formatS3Url({ bucket: spec.bucket, key: item.key });
      const place = (file: string, size: number | undefined): ItemPlace => ({
        source,
        destination: file,
        ...(size === undefined ? {} : { size }),
      });
      try {
        if (item.unreadable) throw unreadableKeyError(spec.bucket, item.key, 'downloaded');
        if (item.unsafe)
          throw new BargeError('UnsafeKey', `The key "${item.key}" ${item.unsafe}; it was not downloaded.`);
        if (item.nothingBelow) throw new BargeError('NothingFound', item.nothingBelow);
        if (item.collision)
          throw new BargeError('NameCollision', `The key "${item.key}" ${item.collision}; it was not downloaded.`);
        if (item.badSize !== undefined) throw badSizeError(source, 'listing', item.badSize);
        if (item.marker) {
          await saveFolderMarker(spec, item, target);
          runtime.objectDone(place(item.path, item.size));
          return;
        }
        const known = item.size === undefined ? await lookUp(connection, spec.bucket, item, runtime) : item;
        // Opened from the target, never through a symlink that leads out of it: what is there, and
        // where the object goes, are both looked at in this open folder.
        const folder = await target.folder(path.dirname(known.path), `s3://${spec.bucket}/${known.key}`);
        try {
          const existing = (await finishedBefore(runtime, known, folder))
            ? 'done'
            : await whenExists(runtime.retryAnswer ?? spec.ifExists ?? 'overwrite', known, runtime, folder);
          if (existing === 'done') {
            runtime.alreadyDone(1, known.size ?? 0, place(known.path, known.size));
          } else if (existing.skip !== undefined) {
            runtime.alreadyDone(1, known.size ?? 0);
            runtime.kept(
              place(known.path, known.size),
              `${known.path} is already there: ${existing.skip}; it was not downloaded.`,
            );
          } else {
            const { why, ...stored } = await downloadObject(
              connection,
              spec,
              { ...known, path: existing.path },
              runtime,
              folder,
              existing.noClobber,
              strays.get(existing.path),
            );
            strays.delete(existing.path);
            // The file it was saved as (a numbered name beside a file kept, with --if-exists rename).
            runtime.journal.objectFinished(
              { key: known.key, path: existing.path, size: known.size ?? 0, ...stored },
              { now: existing.path !== known.path },
            );
            if (why) runtime.sizeOnly(source, why);
            runtime.objectDone(
              place(existing.path, known.size),
              why ? `Checked for its size only: ${why}.` : undefined,
            );
          }
        } catch (error) {
          throw folder.explain(error);
        } finally {
          await folder.close();
        }
      } catch (error) {
        runtime.itemFailed(
          item,
          place(item.path, item.size),
          toBargeError(changedOnServer(error, spec, item), `download ${source}`),
        );
      }
    },
  );
}

async function* discover(
  connection: S3Connection,
  spec: DownloadSpec,
  runtime: JobRuntime<DownloadItem>,
): AsyncGenerator<DownloadItem> {
  const folder = path.resolve(spec.targetFolder);
  // Two keys must never land on one file: the same name (keys "a/x" and "b/x" into one folder), or,
  // where the folder ignores case (Windows, macOS), names that differ only in case. The first keeps it.
  // Kept on disk past 100,000 keys: memory does not grow with the prefix.
  const owners = spec.targetFile ? undefined : new SpillingMap<{ key: string; path: string }>();
  try {
    const saved =
      owners && new SavedPaths({ caseInsensitive: spec.caseInsensitive ?? (await folderIgnoresCase(folder)), owners });
    yield* listItems(connection, spec, runtime, folder, saved);
    runtime.totalsFinal();
  } finally {
    owners?.close();
  }
}

async function* listItems(
  connection: S3Connection,
  spec: DownloadSpec,
  runtime: JobRuntime<DownloadItem>,
  folder: string,
  saved: SavedPaths | undefined,
): AsyncGenerator<DownloadItem> {
  const claim = (key: string, file: string) => saved?.claim(file, key);
  const version = spec.versionId === undefined ? {} : { versionId: spec.versionId };
  for (const key of spec.keys ?? []) {
    runtime.addTotals(1, 0);
    if (spec.targetFile) {
      yield { key, size: undefined, etag: undefined, path: path.resolve(spec.targetFile), ...version };
      continue;
    }
    const name = fileName(key);
    if (!name.ok) {
      yield { key, size: undefined, etag: undefined, path: '', unsafe: name.reason };
      continue;
    }
    const file = path.join(folder, name.name);
    yield { key, size: undefined, etag: undefined, path: file, collision: claim(key, file), ...version };
  }
  // A resumed run lists everything again, and compares each object with what the journal says was
  // saved (ETag, size) and with the file on disk: objects added since are fetched, changed ones
  // fetched again, and files deleted since restored. (Listing costs a request per 1,000 keys.)
  // Prefixes keep the folder's own name ("a/photos/" lands in targetFolder/photos/); a pattern's
  // objects land by their key below its folder ("logs/2024-*\/*.gz": 2024-01/a.gz), as s5cmd saves them.
  const roots = [
    ...(spec.prefixes ?? []).map((rawPrefix) => {
      const prefix = asFolderPrefix(rawPrefix);
      return { rawPrefix, ...folderRoot(prefix), parent: prefix.slice(0, prefix.slice(0, -1).lastIndexOf('/') + 1) };
    }),
    ...(spec.patterns ?? []).map((pattern) => {
      const root = patternRoot(pattern);
      return { rawPrefix: pattern, ...root, parent: root.base };
    }),
  ];
  for (const { rawPrefix, listPrefix: prefix, base, pattern, parent } of roots) {
    const matches = objectMatcher(spec.filter, base, pattern);
    const named = nameMatcher(spec.filter, base, pattern);
    let found = 0;
    for await (const object of listAllObjects(connection, { bucket: spec.bucket, prefix, signal: runtime.signal })) {
      // A key no request can name fails by name, unless its name alone is left out (its size and date are unknown).
      if (object.unreadable ? !named(readablePartOf(object.key)) : !matches(object)) continue;
      found += 1;
      runtime.addTotals(1, object.size);
      if (object.unreadable) {
        yield { key: object.key, size: undefined, etag: undefined, path: '', unreadable: true };
        continue;
      }
      const mapped = keyToRelativePath(object.key, parent, process.platform === 'win32' ? 'win32' : 'posix');
      if (object.badSize !== undefined) {
        yield { key: object.key, size: undefined, etag: object.etag, path: '', badSize: object.badSize };
        continue;
      }
      if (!mapped.ok) {
        yield { key: object.key, size: object.size, etag: object.etag, path: '', unsafe: mapped.reason };
        continue;
      }
      if (mapped.isFolderMarker) {
        yield {
          key: object.key,
          size: object.size,
          etag: object.etag,
          path: path.join(folder, ...mapped.segments),
          marker: true,
        };
        continue;
      }
      const file = path.join(folder, ...mapped.segments);
      yield {
        key: object.key,
        size: object.size,
        etag: object.etag,
        lastModified: object.lastModified,
        path: file,
        collision: claim(object.key, file),
      };
    }
    if (found === 0) {
      runtime.addTotals(1, 0);
      yield {
        key: rawPrefix,
        size: 0,
        etag: undefined,
        path: '',
        nothingBelow:
          pattern !== undefined || isFiltering(spec.filter)
            ? nothingMatched(spec.bucket, rawPrefix, pattern === undefined, spec.filter, 'downloaded')
            : await nothingBelow(
                connection,
                { bucket: spec.bucket, named: rawPrefix, prefix },
                (url) => `download it without --recursive (barge cp "${url}" DESTINATION)`,
                runtime.signal,
              ),
      };
    }
  }
}

/**
 * A folder marker becomes its folder. One that holds bytes (some tools store notes in them) cannot
 * be both a folder and a file: it fails by name rather than lose its bytes in silence, as aws-cli does.
 */
async function saveFolderMarker(spec: DownloadSpec, item: DownloadItem, target: DownloadTarget): Promise<void> {
  if ((item.size ?? 0) > 0) {
    throw new BargeError(
      'FolderMarkerHasContent',
      `The key "${item.key}" ends in "/", so it stands for a folder, but it holds ${item.size} bytes, which a ` +
        `folder cannot keep; it was not downloaded. Save its bytes to a file by name (barge cp ` +
        `"s3://${spec.bucket}/${item.key}" FILE, without --recursive).`,
    );
  }
  await (await target.folder(item.path, `s3://${spec.bucket}/${item.key}`)).close();
}

/**
 * Every request after the first is pinned to the ETag the download began with (If-Match): a 412
 * means the object was replaced meanwhile, and nothing of either version was kept. Said in words.
 */
function changedOnServer(error: unknown, spec: DownloadSpec, item: DownloadItem): unknown {
  if (errorCode(error) !== 'PreconditionFailed' && httpStatus(error) !== 412) return error;
  return new BargeError(
    'ObjectChanged',
    `s3://${spec.bucket}/${item.key} changed on the server while it was being downloaded (it was replaced); ` +
      `nothing was saved. Download it again to fetch the new version.`,
  );
}

/** A key's last segment as a file name, or why it cannot be one. */
function fileName(key: string): { ok: true; name: string } | { ok: false; reason: string } {
  const mapped = keyToRelativePath(keyBaseName(key), '', process.platform === 'win32' ? 'win32' : 'posix');
  return mapped.ok && mapped.segments.length === 1 && !mapped.isFolderMarker
    ? { ok: true, name: mapped.segments[0]! }
    : { ok: false, reason: 'does not end in a usable file name' };
}

/**
 * An earlier run of this job saved this very object (same ETag and size), and the file it was saved
 * as (its own name, or a numbered one beside a file kept) is still there, in this folder, as it was
 * written: the same inode, change and modification times, size. A file edited since (even to the
 * same size, its time put back) or put in its place is fetched again.
 */
async function finishedBefore(
  runtime: JobRuntime<DownloadItem>,
  item: DownloadItem,
  folder: OpenFolder,
): Promise<boolean> {
  if (!runtime.journal.resumed) return false;
  const done = runtime.journal.finishedObject(item.key);
  if (
    !done ||
    path.dirname(done.path) !== path.dirname(item.path) ||
    done.etag !== item.etag ||
    done.size !== item.size
  )
    return false;
  const file = await lstat(folder.at(done.path)).catch(() => undefined);
  return file?.isFile() === true && file.size === item.size && sameLocalFile(file, done.local);
}

/** Where an object's bytes go, and which ranges an earlier run already wrote there. */
interface TemporaryFile {
  readonly path: string;
  readonly partSize: number;
  /** Part numbers of the ranges an earlier run wrote (hashed again from the file to verify them). */
  readonly written: ReadonlySet<number>;
  /** The file itself, to know before it is renamed into place that its path still leads to it. */
  readonly identity: FileIdentity;
  /**
   * The file, open for writing while the object downloads: every range, on every try, is written
   * into this very file, whatever is put at its path or its folder's meanwhile (never reopened by name).
   */
  readonly handle: FileHandle;
}

/**
 * The temporary file a crashed run of this job was writing for this object, if it can go on: the
 * object is the same version (ETag) and size, and the file is still there. Otherwise a new one.
 */
/**
 * The part size an interrupted run of this object cut it by, where it goes on from that run's file.
 *
 * Auto chooses a part size from the threads and bandwidth of the moment, which a new run finds changed:
 * cut otherwise, the ranges written would not line up and the file would be fetched again from the start.
 */
function resumedPartSize(item: DownloadItem, size: number, runtime: JobRuntime<DownloadItem>): number | undefined {
  const earlier = runtime.journal.resumed ? runtime.journal.download(item.key) : undefined;
  return earlier && earlier.path === item.path && earlier.etag === item.etag && earlier.size === size
    ? earlier.partSize
    : undefined;
}

async function temporaryFile(
  item: DownloadItem,
  size: number,
  partSize: number,
  runtime: JobRuntime<DownloadItem>,
  folder: OpenFolder,
): Promise<TemporaryFile> {
  const journal = runtime.journal;
  const earlier = journal.resumed ? journal.download(item.key) : undefined;
  if (earlier) {
    const onDisk =
      earlier.path === item.path ? await lstat(folder.at(earlier.temporary)).catch(() => undefined) : undefined;
    // One link only: a hard link planted under its name would have the download written into another file.
    if (
      earlier.etag === item.etag &&
      earlier.size === size &&
      earlier.partSize === partSize &&
      onDisk?.isFile() &&
      onDisk.nlink === 1 &&
      onDisk.size === size
    ) {
      // The written ranges are hashed from the disk, not trusted from the journal: after a power loss
      // the journal can hold a range the file lost.
      const identity = { dev: onDisk.dev, ino: onDisk.ino };
      const at = folder.at(earlier.temporary);
      return {
        path: at,
        partSize,
        written: new Set(journal.rangesFinished(item.key)),
        identity,
        handle: await openAgain(at, identity, item),
      };
    }
    if (earlier.path === item.path) await rm(folder.at(earlier.temporary), { force: true });
    journal.downloadEnded(item.key);
  }
  // A run that resumes the job finds the file an interrupted run left (even one the journal had not
  // recorded yet) by its name, and starts it afresh.
  const shownTemporary = temporaryNameFor(item.path, runtime.jobId);
  const temporary = folder.at(shownTemporary);
  // Created at full size up front, so ranges can be written at their offsets in any order; a file
  // that cannot be made so (no room, a size the file system refuses) is removed, never left behind.
  // Made new ('wx': never through a link planted under its name); one left there is removed first.
  const handle = await open(temporary, 'wx').catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
    await rm(temporary, { force: true });
    return open(temporary, 'wx');
  });
  let identity: FileIdentity;
  try {
    await handle.truncate(size);
    const { dev, ino } = await handle.stat();
    identity = { dev, ino };
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  journal.downloadStarted(item.key, { path: item.path, temporary: shownTemporary, etag: item.etag, size, partSize });
  return { path: temporary, partSize, written: new Set(), identity, handle };
}

async function lookUp(
  connection: S3Connection,
  bucket: string,
  item: DownloadItem,
  runtime: JobRuntime<DownloadItem>,
): Promise<DownloadItem> {
  const versionId = item.versionId;
  const details = await runtime
    .request((signal) =>
      versionId === undefined
        ? headObjectOnce(connection, bucket, item.key, signal)
        : headVersionOnce(connection, { bucket, key: item.key, versionId }, signal),
    )
    .catch((error: unknown) => {
      // A name ending in "/" with no object of its own is a prefix ("folder"): said so, with what to do.
      const code = errorCode(error);
      if (item.key.endsWith('/') && (code === 'NotFound' || code === 'NoSuchKey')) {
        throw new BargeError(
          'IsAPrefix',
          `s3://${bucket}/${item.key} is a prefix, not an object: add --recursive to download everything below it.`,
        );
      }
      throw error;
    });
  const size = parseObjectSize(details.size);
  if (size === undefined)
    throw badSizeError(formatS3Url({ bucket, key: item.key }), 'HEAD answer (Content-Length)', details.size);
  runtime.addTotals(0, size);
  return { ...item, size, etag: details.etag, lastModified: details.lastModified };
}

/**
 * Where the object goes given what is there: its own path (to replace what is there, or where nothing
 * is), a numbered name beside it, or nowhere (skip, with why). `noClobber`: the final rename must not
 * replace a file that appears meanwhile.
 */
async function whenExists(
  ifExists: IfExists,
  item: DownloadItem,
  runtime: JobRuntime<DownloadItem>,
  folder: OpenFolder,
): Promise<{ path: string; noClobber: boolean; skip?: undefined } | { skip: string }> {
  // Replacing whatever is there needs no look at it first (the rename replaces a file, fails on a folder).
  if (ifExists === 'overwrite') return { path: item.path, noClobber: false };
  const present = await lstat(folder.at(item.path)).catch(() => undefined);
  if (!present) return { path: item.path, noClobber: true };
  switch (ifExists) {
    case 'ask':
      return whenExists(
        await runtime.askIfExists({
          path: item.path,
          existing: { size: present.size, modifiedAt: present.mtimeMs },
          incoming: {
            ...(item.size === undefined ? {} : { size: item.size }),
            ...(item.lastModified === undefined ? {} : { modifiedAt: item.lastModified }),
          },
        }),
        item,
        runtime,
        folder,
      );
    case 'fail':
      throw new BargeError(
        'FileExists',
        `${item.path} is already there; it was not replaced. Choose what to do with a file already there (the ` +
          `download's "If a file is already there", or --if-exists overwrite, skip, rename or newer), then ` +
          `download it again.`,
      );
    case 'skip':
      return { skip: 'skipped, as asked' };
    case 'newer':
      if (item.lastModified !== undefined && item.lastModified > present.mtimeMs)
        return { path: item.path, noClobber: false };
      return { skip: 'the local file is as new as the object, or newer' };
    case 'rename': {
      const name = path.basename(item.path);
      for (let n = 1; n < 10_000; n++) {
        const candidate = path.join(path.dirname(item.path), numberedName(name, n));
        if (!(await lstat(folder.at(candidate)).catch(() => undefined))) return { path: candidate, noClobber: true };
      }
      throw new BargeError('FileExists', `${item.path} and 9,999 numbered copies of it are already there.`);
    }
  }
}

async function downloadObject(
  connection: S3Connection,
  spec: DownloadSpec,
  item: DownloadItem,
  runtime: JobRuntime<DownloadItem>,
  folder: OpenFolder,
  noClobber: boolean,
  strays: readonly { jobId: string; key: string; temporary: string }[] = [],
): Promise<StoredObject & { why?: string; local?: LocalFileIdentity }> {
  // Another job's temporary file for this very file, left when its process died: removed.
  for (const stray of strays) {
    await rm(folder.at(stray.temporary), { force: true });
    runtime.journal.strayGone('download', stray.jobId, stray.key);
  }
  return downloadInto(connection, spec, item, runtime, folder, noClobber);
}

async function downloadInto(
  connection: S3Connection,
  spec: DownloadSpec,
  item: DownloadItem,
  runtime: JobRuntime<DownloadItem>,
  folder: OpenFolder,
  noClobber: boolean,
): Promise<StoredObject & { why?: string; local?: LocalFileIdentity }> {
  const bucket = spec.bucket;
  const what = `s3://${bucket}/${item.key}`;
  const size = item.size ?? 0;
  // An object stated to be empty is saved without a GET only when its ETag is that of no bytes.
  // Otherwise its one GET must bear the size out (a store that states 0 bytes for an object that
  // has some fails by name, SizeMismatch, as a size of 87 for 88 does) and its bytes are checked
  // against whatever the store says of them, as any object's are.
  const emptyByEtag = size === 0 && etagOfNoBytes(item.etag);
  // The object's attempt: counted as its ranges arrive, taken back if it is not saved in the end.
  const bytes = new AttemptBytes((count) => runtime.addBytes(count));
  let temporary: string | undefined;
  let writing: FileHandle | undefined;
  const seen: { versionId?: string } = {};
  try {
    const preferred = resumedPartSize(item, size, runtime) ?? runtime.partSizeFor(size);
    // A large object is looked at first, to know its checksum and parts before the ranges are cut;
    // a small one comes in one GET, whose answer says how to check it.
    const lookedAt = size > preferred;
    let plan = lookedAt ? planVerification(await objectFacts(connection, bucket, item, runtime), preferred) : undefined;
    const file = await temporaryFile(item, size, plan?.rangeSize ?? preferred, runtime, folder);
    temporary = file.path;
    writing = file.handle;
    const count = emptyByEtag ? 0 : partCount(size, file.partSize);
    const ranges: { digest: Buffer | undefined; size: number }[] = [];
    const toFetch = [...partNumbers(count)].filter((partNumber) => {
      const range = partRange(size, file.partSize, partNumber);
      ranges[partNumber - 1] = { digest: undefined, size: range.end - range.start };
      if (!file.written.has(partNumber)) return true;
      runtime.alreadyDone(0, range.end - range.start);
      return false;
    });
    const algorithmFor = (headers: IncomingHttpHeaders) => {
      plan ??= planVerification(factsFromHeaders(headers, size), preferred);
      return plan.algorithm;
    };
    await concurrentEach(
      toFetch,
      () => runtime.settings.threads * 2,
      async (partNumber) => {
        const range = partRange(size, file.partSize, partNumber);
        const digest = await downloadRange(
          connection,
          bucket,
          item,
          file,
          range.start,
          range.end,
          count > 1,
          runtime,
          bytes,
          seen,
          algorithmFor,
        );
        ranges[partNumber - 1] = { digest, size: range.end - range.start };
        // A single range has nothing to resume from: it is fetched whole again.
        if (count > 1) runtime.journal.rangeFinished(item.key, partNumber);
      },
    );
    writing = undefined;
    await file.handle.close();
    // Every range has checked its own length (IncompleteBody); the checksum checks the bytes.
    // No plan means no GET (an empty object, its ETag that of no bytes): nothing else to check.
    const hashedWith = plan?.algorithm;
    // A plan read from a GET's answer may have had to guess the part size: a HEAD of the parts may know it.
    if (plan && !lookedAt && plan.attempts.some((attempt) => attempt.guess || attempt.fromMetadata))
      plan = planVerification(await objectFacts(connection, bucket, item, runtime), preferred);
    // Read again only if it is still the file written (a symlink put in its place is not followed).
    if (plan) await assertSameFile(file.path, file.identity, what);
    const outcome = plan ? await verifyDownload(plan, ranges, hashedWith, file.path, what) : undefined;
    const why =
      outcome?.how === 'size-only' && size > 0 ? (outcome.why ?? 'there is nothing to check it against') : undefined;
    if (why && spec.requireVerified) {
      throw new BargeError(
        'Unverified',
        `${what} can be checked only for its size (${why}); with --require-verified nothing was saved under its name.`,
      );
    }
    // The file is the one written, just before it takes its name (in the same open folder).
    await assertSameFile(file.path, file.identity, what);
    await moveIntoPlace(file.path, folder.at(item.path), noClobber, item.path);
    runtime.journal.downloadEnded(item.key);
    // The file as written, after its rename (a link and an unlink change its change time): a resumed
    // run skips the object only while the file is still this one.
    const placed = await lstat(folder.at(item.path)).catch(() => undefined);
    const local =
      placed?.isFile() && placed.dev === file.identity.dev && placed.ino === file.identity.ino
        ? identityOf(placed)
        : undefined;
    return {
      etag: item.etag,
      versionId: seen.versionId,
      checksum: outcome?.verified,
      verified: verifiedAs(emptyByEtag, size, outcome),
      why,
      local,
    };
  } catch (error) {
    await writing?.close().catch(() => undefined);
    // Also a temporary file from before a crash that this run had not reached yet.
    const earlier = temporary ? undefined : runtime.journal.resumed ? runtime.journal.download(item.key) : undefined;
    for (const file of [temporary, earlier?.path === item.path ? earlier.temporary : undefined])
      if (file) await rm(folder.at(file), { force: true });
    runtime.journal.downloadEnded(item.key);
    // The partial file is gone, so are its bytes: progress counts only objects that landed.
    bytes.drop();
    throw error;
  }
}

/**
 * How a saved object was checked. An empty one fetched (its ETag not that of no bytes, as SSE-KMS's
 * is not) whose GET sent no bytes and said so, with no checksum to disagree, is empty: there are no
 * bytes that could be wrong.
 */
function verifiedAs(emptyByEtag: boolean, size: number, outcome: VerificationOutcome | undefined): Verification {
  if (emptyByEtag || (size === 0 && outcome?.how === 'size-only')) return 'empty';
  return outcome?.how ?? 'size-only';
}

/** The object's facts by HEADs (its parts' sizes too, where the check depends on them), each request the job's. */
function objectFacts(
  connection: S3Connection,
  bucket: string,
  item: DownloadItem,
  runtime: JobRuntime<DownloadItem>,
): Promise<ObjectFacts> {
  const head = (partNumber?: number) =>
    runtime.request((signal) =>
      connection.wire.headObject(bucket, item.key, {
        ifMatch: item.etag,
        partNumber,
        signal,
        versionId: item.versionId,
      }),
    );
  return objectFactsByHead(head, item.size ?? 0, () => runtime.signal.aborted);
}

/** Fetch bytes [start, end) into `file` at their offset, resuming after a broken body. */
async function downloadRange(
  connection: S3Connection,
  bucket: string,
  item: DownloadItem,
  file: TemporaryFile,
  start: number,
  end: number,
  ranged: boolean,
  runtime: JobRuntime<DownloadItem>,
  bytes: AttemptBytes,
  seen: { versionId?: string },
  algorithmFor: (headers: IncomingHttpHeaders) => ChecksumAlgorithm | undefined,
): Promise<Buffer | undefined> {
  let done = 0;
  // The range's bytes are hashed as they arrive; after a broken body the hash no longer matches
  // what reached the disk, so the range is hashed from the file instead (verifyRanges).
  let hasher: Hasher | undefined;
  let hashable = true;
  const what = formatS3Url({ bucket, key: item.key });
  const asked =
    start === 0 && end === (item.size ?? 0)
      ? `its ${count(end)} bytes`
      : `the ${count(end - start)} bytes of its range ${count(start)}-${count(end - 1)}`;
  /** The last try's answer held more than the range (else it ended short). */
  let overran = false;
  await runtime
    .request(async (signal, attempt) => {
      overran = false;
      const from = start + done;
      // Every byte is written (after a body that broke at its very end); an empty range is still asked for.
      if (from >= end && end > start) return;
      const handle = file.handle;
      // Taken here: the socket's callbacks that write run in the context of whichever request opened it.
      const request = currentRequest();
      let position = from;
      await connection.wire.getObjectInto(
        bucket,
        item.key,
        {
          range: ranged || from > 0 ? [from, end - 1] : undefined,
          ifMatch: item.etag,
          signal,
          fresh: attempt > 1,
          ...(item.versionId === undefined ? {} : { versionId: item.versionId }),
        },
        {
          accept({ headers }) {
            checkStatedSize(headers, ranged || from > 0 ? { start: from, end } : undefined, item.size ?? 0, what);
            seen.versionId = versionIdOf(headers) ?? seen.versionId;
            const algorithm = algorithmFor(headers);
            if (from === start && algorithm) hasher = createHasher(algorithm);
            else if (from !== start) hashable = false;
          },
          // In order, a write buffer at a time: hashed, then written at its offset. Only what reached
          // the file counts, so the resume offset never skips unwritten bytes.
          async write(chunk) {
            // Never past the range, into the next one's bytes (a store that answers with more).
            if (position + chunk.length > end) {
              overran = true;
              throw new BargeError('IncompleteBody', `The store sent more than ${asked} for ${what}`);
            }
            hasher?.update(chunk);
            for (let at = 0; at < chunk.length;) {
              const { bytesWritten } = await timedDisk(request, 'write', () =>
                handle.write(chunk, at, chunk.length - at, position),
              );
              at += bytesWritten;
              position += bytesWritten;
              done += bytesWritten;
              bytes.add(bytesWritten);
            }
          },
        },
      );
      if (start + done < end)
        throw new BargeError(
          'IncompleteBody',
          `The store's answers for ${what} ended early: ${count(done)} of ${asked} came`,
        );
    })
    .catch((error: unknown) => {
      throw error instanceof BargeError && error.code === 'IncompleteBody' ? rangeNotWhole(error, overran) : error;
    });
  return hashable ? hasher?.digest() : undefined;
}

/**
 * A range the store cut short or overran on every try, said with how often it was tried and what to
 * do (its first words name the object and the bytes).
 */
function rangeNotWhole(error: BargeError, overran: boolean): BargeError {
  const attempts = (error as { attempts?: number }).attempts;
  const tries =
    attempts !== undefined && attempts > 1
      ? `, on all ${attempts} tries (each going on from the last byte received)`
      : '';
  const advice = overran
    ? 'The store is faulty, or something on the way changes its answers: download it again, and if it repeats, ' +
      "tell the store's operator."
    : 'Something on the way (a proxy, a load balancer, the network) cuts answers short, or the store is ' +
      'faulty: download it again, and if it repeats, check the network path and the store.';
  return new BargeError('IncompleteBody', `${error.message}${tries}; nothing was saved. ${advice}`);
}

function count(n: number): string {
  return groupDigits(n);
}

/**
 * What a GET's answer says of the object's size and of the bytes it carries, held to what the
 * download knows: a size that is no size fails (BadSize); a whole object or a range of another size,
 * or another range than the one asked for, fails rather than be written where it does not belong.
 */
function checkStatedSize(
  headers: IncomingHttpHeaders,
  asked: { start: number; end: number } | undefined,
  size: number,
  what: string,
): void {
  const length = headers['content-length'];
  if (length !== undefined && parseObjectSize(length) === undefined)
    throw badSizeError(what, 'GET answer (Content-Length)', length);
  const range = parseContentRange(headers['content-range']);
  if (headers['content-range'] !== undefined && !range)
    throw badSizeError(what, 'GET answer (Content-Range)', headers['content-range']);
  if (range && range.total !== '*') {
    const total = parseObjectSize(range.total);
    if (total === undefined) throw badSizeError(what, 'GET answer (Content-Range)', range.total);
    if (total !== size)
      throw new BargeError(
        'SizeMismatch',
        `The store says ${what} holds ${total} bytes, not the ${size} it gave before: it changed, or the store ` +
          `is faulty; nothing was saved. Download it again.`,
      );
  }
  if (asked && range && (range.start !== asked.start || range.end !== asked.end - 1)) {
    throw new BargeError(
      'RangeMismatch',
      `The store answered bytes ${range.start}-${range.end} of ${what} when asked for ` +
        `${asked.start}-${asked.end - 1}; nothing was saved. The store is faulty: tell its operator.`,
    );
  }
  if (!asked && length !== undefined && Number(length) !== size) {
    throw new BargeError(
      'SizeMismatch',
      `The store sent ${length} bytes for ${what}, not the ${size} it gave before: it changed, or the store is ` +
        `faulty; nothing was saved. Download it again.`,
    );
  }
}

/**
 * The temporary file opened for writing, and known to be the one made for the object: never
 * through a symlink put in its place, nor by a path that a replaced folder now leads elsewhere.
 */
async function openAgain(file: string, identity: FileIdentity, item: DownloadItem): Promise<FileHandle> {
  const replaced = () =>
    new BargeError(
      'UnsafePath',
      `${item.path} was not saved: the folder it was being written in was moved or replaced while it downloaded.`,
    );
  const handle = await open(file, constants.O_WRONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ELOOP' || error.code === 'ENOENT' ? replaced() : error;
  });
  try {
    const { dev, ino } = await handle.stat();
    if (dev !== identity.dev || ino !== identity.ino) throw replaced();
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * The finished temporary file under its final name. `noClobber`: never over a file that appeared
 * meanwhile (a hard link fails if the name exists; where links are not supported, a check first).
 */
async function moveIntoPlace(temporary: string, final: string, noClobber: boolean, shown: string): Promise<void> {
  if (!noClobber) return rename(temporary, final);
  try {
    await link(temporary, final);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new BargeError('FileExists', `${shown} appeared while it was downloaded; it was not replaced.`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'EOPNOTSUPP') throw error;
    if (await lstat(final).catch(() => undefined))
      throw new BargeError('FileExists', `${shown} appeared while it was downloaded; it was not replaced.`);
    return rename(temporary, final);
  }
  await unlink(temporary);
}
