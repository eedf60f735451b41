// An upload that asks before it replaces: where each file goes when its key may be taken.
//
// With an answer other than "replace" (the window's default is to ask; `barge cp --if-exists`), each
// file is decided from what the destination holds (destination-index.ts: one listing, no request
// per file). A free key is written on condition that it is still free (conditional-writes.ts); a
// taken one as the user chose: replaced, kept, kept beside (the first free "name (n).ext"), replaced
// only by a newer file, or failed. A write refused because an object appeared meanwhile is decided
// again, against that object.

import type { BucketVersioning } from '../../../src/contract/models.ts';
import { decideIfExists, numberedKey } from '../../../src/if-exists.ts';
import type { IfExists } from '../../../src/if-exists.ts';
import type { ConflictSide } from '../../../src/jobs.ts';
import { formatS3Url } from '../../../src/s3-url.ts';
import { BargeError, httpStatus } from '../errors.ts';
import type { FinishedObject } from '../journal/job-journal.ts';
import { bareEtag } from '../integrity/checksums.ts';
import { conditionRefused, objectAppeared, takesConditionalWrites } from '../s3/conditional-writes.ts';
import { parseObjectSize } from '../s3/object-size.ts';
import { bucketVersioning } from '../s3/s3-buckets.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import type { StoredObject } from '../s3/s3-wire.ts';
import type { DestinationIndex, ObjectThere } from './destination-index.ts';
import type { JobRuntime } from './job.ts';
import { sameLocalFile } from '../disk/local-files.ts';
import type { LocalFile } from '../disk/local-files.ts';

/** Writes refused because an object appeared meanwhile before the file fails: another writer wins every race. */
const MAX_APPEARED_ROUNDS = 3;
/** Numbered names tried for "keep both" before the file fails. */
const MAX_NUMBERED_NAMES = 9_999;

/** An upload's answer and what it needs to act on it, for the whole job. */
export interface AskingUpload {
  readonly connection: S3Connection;
  readonly bucket: string;
  /** Not "overwrite": that needs none of this. */
  readonly ifExists: IfExists;
  readonly index: DestinationIndex;
  readonly runtime: Pick<JobRuntime<never>, 'request' | 'askIfExists' | 'journal' | 'signal'>;
  /** Whether the bucket keeps versions, asked once, at the first question. */
  versioning?: Promise<BucketVersioning | undefined>;
}

/** Where a file went: stored under `key`, kept out (`kept` says why), or stored there by an earlier run of the job. */
export type Placed =
  | { readonly key: string; readonly stored: StoredObject; readonly kept?: undefined; readonly earlier?: undefined }
  | { readonly key: string; readonly kept: string; readonly stored?: undefined; readonly earlier?: undefined }
  | { readonly key: string; readonly earlier: FinishedObject; readonly stored?: undefined; readonly kept?: undefined };

/** Sends the file to `key`; `ifAbsent`: only if nothing is there then (If-None-Match: *). */
export type SendTo = (key: string, ifAbsent: boolean) => Promise<StoredObject>;

export async function uploadAsAsked(upload: AskingUpload, file: LocalFile, send: SendTo): Promise<Placed> {
  let key = file.key;
  let there = await objectAt(upload, key, file);
  for (let appeared = 0; ;) {
    if (there === 'free') {
      const conditional = takesConditionalWrites(upload.connection);
      try {
        return { key, stored: await send(key, conditional) };
      } catch (error) {
        if (conditional && conditionRefused(upload.connection, error)) continue;
        if (!objectAppeared(error) || ++appeared > MAX_APPEARED_ROUNDS) throw error;
        // Refused: something is there now. What it is decides, as if it had been listed.
        there = await headAt(upload, key, true);
        continue;
      }
    }
    const choice = upload.ifExists === 'ask' ? await ask(upload, key, there, file) : upload.ifExists;
    const decision = decideIfExists(choice, sideOf(there), { size: file.size, modifiedAt: file.mtimeMs });
    const where = formatS3Url({ bucket: upload.bucket, key });
    switch (decision.act) {
      case 'replace':
        return { key, stored: await send(key, false) };
      case 'keep': {
        const why =
          decision.reason === 'asked'
            ? 'it was kept, as asked'
            : decision.reason === 'not-newer'
              ? `it is as new as ${file.path} or newer, so it was kept`
              : 'which is newer cannot be told (a date is unknown), so it was kept';
        return { key, kept: `${where} is already there: ${why}; ${file.path} was not uploaded.` };
      }
      case 'fail':
        throw new BargeError(
          'ObjectExists',
          `${where} is already there; ${file.path} was not uploaded over it. Choose what to do with an object ` +
            `already there (the "If there" menu beside Upload, or --if-exists overwrite, skip, rename or ` +
            `newer) and upload it again.`,
        );
      case 'ask':
        throw new BargeError('InvalidJobSpec', 'An answer to "already there" was asked for and not given.');
      case 'rename': {
        const numbered = await freeNumberedKey(upload, file);
        if (numbered.earlier) return numbered;
        key = numbered.key;
        there = 'free';
        continue;
      }
    }
  }
}

/** What is under `key`: from the listing, else by HEAD. Found free, it is this file's from then on. */
async function objectAt(upload: AskingUpload, key: string, file: LocalFile): Promise<ObjectThere | 'free'> {
  const mine: ObjectThere = { size: file.size, lastModified: file.mtimeMs };
  const listed = await upload.index.lookup(key, mine);
  if (listed !== 'unknown') return listed;
  const headed = await headAt(upload, key, false);
  if (headed !== 'free' || upload.index.claim(key, mine)) return headed;
  // Another file of this job took the key meanwhile.
  const taken = await upload.index.lookup(key);
  return taken === 'unknown' ? 'free' : taken;
}

/**
 * The object under `key` by HEAD. A 404 is free. A 403 cannot tell: without s3:ListBucket AWS
 * answers 403 for a missing key. It is taken as free, and the conditional write decides (on a store
 * without conditional writes, an object there that the user may not read is replaced). `appeared`:
 * a conditional write was just refused, so something is there, whatever the HEAD may see.
 */
async function headAt(upload: AskingUpload, key: string, appeared: boolean): Promise<ObjectThere | 'free'> {
  try {
    const headers = await upload.runtime.request((signal) =>
      upload.connection.wire.headObject(upload.bucket, key, { signal }),
    );
    const modified = headers['last-modified'] ? Date.parse(headers['last-modified']) : Number.NaN;
    const size = parseObjectSize(headers['content-length']);
    return {
      ...(size === undefined ? {} : { size }),
      etag: headers.etag,
      ...(Number.isFinite(modified) ? { lastModified: modified } : {}),
    };
  } catch (error) {
    const status = httpStatus(error);
    // Nothing there (or gone again since a refusal: written again, on the same condition).
    if (status === 404) return 'free';
    if (status === 403) return appeared ? {} : 'free';
    throw error;
  }
}

function sideOf(there: ObjectThere): ConflictSide {
  return {
    ...(there.size === undefined ? {} : { size: there.size }),
    ...(there.lastModified === undefined ? {} : { modifiedAt: there.lastModified }),
  };
}

async function ask(upload: AskingUpload, key: string, there: ObjectThere, file: LocalFile) {
  upload.versioning ??= bucketVersioning(upload.connection, upload.bucket, upload.runtime.signal).catch(
    () => undefined,
  );
  const versioning = await upload.versioning;
  return upload.runtime.askIfExists({
    path: formatS3Url({ bucket: upload.bucket, key }),
    existing: sideOf(there),
    incoming: { size: file.size, modifiedAt: file.mtimeMs },
    ...(versioning === undefined ? {} : { versioning }),
  });
}

/**
 * "Keep both": the first numbered key beside the file's that nothing is under ("docs/a (1).txt"),
 * taken for this file at once. On a resumed run, the numbered copy an earlier run stored from this
 * very file, unchanged since, is that file's: it is done, not stored once more under the next number.
 */
async function freeNumberedKey(
  upload: AskingUpload,
  file: LocalFile,
): Promise<{ key: string; earlier?: undefined } | { key: string; earlier: FinishedObject }> {
  for (let n = 1; n <= MAX_NUMBERED_NAMES; n++) {
    const key = numberedKey(file.key, n);
    const there = await objectAt(upload, key, file);
    if (there === 'free') return { key };
    const earlier = storedByEarlierRun(upload, key, file, there);
    if (earlier) return { key, earlier };
  }
  throw new BargeError(
    'ObjectExists',
    `${formatS3Url({ bucket: upload.bucket, key: file.key })} and ` +
      `${MAX_NUMBERED_NAMES.toLocaleString('en-US')} numbered copies of it are already there; ${file.path} was ` +
      `not uploaded.`,
  );
}

function storedByEarlierRun(
  upload: AskingUpload,
  key: string,
  file: LocalFile,
  there: ObjectThere,
): FinishedObject | undefined {
  const journal = upload.runtime.journal;
  if (!journal.resumed || there.ours) return undefined;
  const done = journal.finishedObject(key);
  if (!done || done.path !== file.path || !sameLocalFile(file, done.local) || there.size !== file.size)
    return undefined;
  return done.etag === undefined || there.etag === undefined || bareEtag(done.etag) === bareEtag(there.etag)
    ? done
    : undefined;
}
