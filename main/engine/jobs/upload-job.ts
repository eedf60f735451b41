// Upload files and folders: one PutObject for a small file, multipart for a large one.
//
// Parts are read from disk by range as they are sent, never buffered whole, and parts of all files
// share the one scheduler. A file's part size is fixed when the file starts (stores such as R2 need
// equal parts); a new Part size setting applies to the files that start after it.

import { stat } from 'node:fs/promises';
import type { CompleteMultipartUploadCommandOutput } from '@aws-sdk/client-s3';
import {
  choosePartSize,
  MAX_OBJECT_SIZE_BYTES,
  MIN_PART_SIZE_BYTES,
  partCount,
  partNumbers,
  partRange,
} from '../../../src/part-size.ts';
import { objectKeyProblem } from '../../../src/s3-names.ts';
import { formatS3Url } from '../../../src/s3-url.ts';
import type { ItemPlace } from '../../../src/jobs.ts';
import { concurrentEach } from '../queue/concurrent-each.ts';
import { fileRangeBody } from '../disk/file-range-body.ts';
import type { StreamedBody } from '../disk/streamed-body.ts';
import { completeMultipartUpload, createMultipartUpload, listedParts, listPartsPage } from '../s3/multipart-upload.ts';
import { deleteObject } from '../s3/object-deletes.ts';
import { madeUpAsRead, openSource, readSmallSource, sizeUnknown } from '../disk/source-file.ts';
import { BargeError, errorCode, toBargeError } from '../errors.ts';
import { uploadFilter } from './upload-filter.ts';
import type { JobBody, JobRuntime } from './job.ts';
import type { PartRecord } from '../journal/job-journal.ts';
import {
  identityOf,
  sameLocalFile,
  sameVersion,
  sourcesCollide,
  sourceKeys,
  walkPath,
  walkSources,
} from '../disk/local-files.ts';
import { listAllObjects } from '../s3/s3-listing.ts';
import { SpillingMap } from './spilling-map.ts';
import type { LocalFile, WalkEntry } from '../disk/local-files.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { etagIsNotDigest, versionIdOf } from '../s3/s3-wire.ts';
import { parseObjectSize } from '../s3/object-size.ts';
import type { StoredObject } from '../s3/s3-wire.ts';
import {
  bareEtag,
  checksumField,
  checksumOf,
  compositeChecksum,
  multipartEtag,
  toBase64,
} from '../integrity/checksums.ts';
import { fullObjectCrc } from '../integrity/crc.ts';
import type { ChecksumAlgorithm, CrcAlgorithm } from '../integrity/checksums.ts';
import { fileChecksums } from '../integrity/file-checksum.ts';
import {
  afterTrailerFailure,
  checkAnswer,
  crcProbe,
  trailerTaken,
  checksumsForAttempt,
  multipartCrc,
  requestChecksums,
  signsBufferedBody,
  trailingCrc,
  uploadAlgorithm,
  verifiedChecksum,
} from '../integrity/upload-checksum.ts';
import { trailerHeaders, withTrailingChecksum } from '../integrity/trailing-checksum.ts';
import type { TrailingBody } from '../integrity/trailing-checksum.ts';
import type { RequestChecksums, RequestKind, UploadAlgorithm } from '../integrity/upload-checksum.ts';
import { weakest } from '../../../src/verification.ts';
import type { Verification } from '../../../src/verification.ts';
import { PART_SIZE_METADATA } from '../integrity/part-size-metadata.ts';
import type { UploadOptions } from '../../../src/upload-options.ts';
import { uploadOptionHeaders } from '../s3/upload-option-fields.ts';
import type { UploadSpec } from './job-specs.ts';
import { abortMultipartUpload, abortUnrecordedUploads } from '../s3/multipart-aborts.ts';
import { IF_ABSENT_HEADERS, objectAppeared } from '../s3/conditional-writes.ts';
import { contentTypeOf } from '../disk/content-type.ts';
import { AttemptBytes } from './attempt-bytes.ts';
import { DestinationIndex, listingPlan } from './destination-index.ts';
import { uploadAsAsked } from './upload-if-exists.ts';
import type { AskingUpload } from './upload-if-exists.ts';
import { readAhead } from './read-ahead.ts';

/** Files up to this size are read whole and sent in one request (cheapest per object). */
const BUFFERED_PUT_MAX_BYTES = 1024 * 1024;

/** What a retry does again: a file, or a file or folder that could not be read the first time. */
export type UploadItem = LocalFile | { readonly unread: true; readonly path: string; readonly key: string };

/**
 * How the link is doing for this job: parts that keep timing out (a link too slow for the part size)
 * make the files that start after them use smaller parts, down to S3's smallest.
 */
class LinkPace {
  private stalls = 0;
  /** The part size files starting now may use at most, once the link has shown it is slow. */
  partCapBytes: number | undefined;

  partTimedOut(partSize: number): void {
    this.stalls += 1;
    if (this.stalls % STALLS_BEFORE_SMALLER_PARTS === 0)
      this.partCapBytes = Math.max(
        MIN_PART_SIZE_BYTES,
        Math.floor(Math.min(partSize, this.partCapBytes ?? partSize) / 2),
      );
  }
}

/** Part timeouts in a job before the files after them use parts half the size. */
const STALLS_BEFORE_SMALLER_PARTS = 2;

/**
 * `chosen`: the files to send instead of the spec's walk (a sync's new and changed files, each replacing what is
 * there), found as the walk would find them; the spec then names where they come from and go.
 */
export function uploadBody(
  connection: S3Connection,
  spec: UploadSpec,
  chosen?: () => AsyncIterable<WalkEntry>,
): JobBody<UploadItem> {
  return async (runtime, only) => {
    const pace = new LinkPace();
    const collision = sourcesCollide(spec.sources, spec.destination);
    if (collision) throw new BargeError('NameCollision', collision);
    const walk = { followSymlinks: spec.followSymlinks ?? true };
    // The walk runs ahead of the transfers (read-ahead.ts): its totals are known once it has ended.
    const walked = discover(
      runtime,
      spec.bucket,
      uploadFilter(spec.filter, sourceKeys(spec.sources, spec.destination)),
      only
        ? only.map((item) => walkPath(item.path, item.key, walk))
        : [chosen ? chosen() : walkSources(spec.sources, spec.destination, walk)],
    );
    const files = readAhead(walked, { signal: runtime.signal, whilePaused: runtime.whilePaused });
    const stored = runtime.journal.resumed ? await listStoredNow(connection, spec, runtime) : undefined;
    const strays = new Map<string, { jobId: string; uploadId: string }[]>();
    for (const stray of runtime.journal.strays().uploads) {
      if (stray.bucket === spec.bucket) strays.set(stray.key, [...(strays.get(stray.key) ?? []), stray]);
    }
    // Replacing (the default, as cp and aws s3 cp do) needs to know nothing of what is there: nothing is listed.
    // A retry of items that failed for an object already there brings the user's other answer for them.
    const ifExists = runtime.retryAnswer ?? spec.ifExists ?? 'overwrite';
    const keys = only ? only.map((item) => item.key) : sourceKeys(spec.sources, spec.destination);
    const asking: AskingUpload | undefined =
      ifExists === 'overwrite'
        ? undefined
        : {
            connection,
            bucket: spec.bucket,
            ifExists,
            runtime,
            index: new DestinationIndex(connection, spec.bucket, listingPlan(keys), (send) => runtime.request(send)),
          };
    try {
      await uploadFiles(connection, spec, runtime, files, pace, stored, strays, asking);
    } finally {
      stored?.close();
      asking?.index.close();
    }
  };
}

async function uploadFiles(
  connection: S3Connection,
  spec: UploadSpec,
  runtime: JobRuntime<UploadItem>,
  files: AsyncIterable<LocalFile>,
  pace: LinkPace,
  storedNow: SpillingMap<StoredNow> | undefined,
  strays: Map<string, { jobId: string; uploadId: string }[]>,
  asking: AskingUpload | undefined,
): Promise<void> {
  await concurrentEach(
    files,
    () => runtime.settings.threads * 2,
    async (file) => {
      const place = uploadPlace(spec.bucket, file, file.size);
      try {
        if (finishedBefore(runtime, file, storedNow)) {
          runtime.alreadyDone(1, file.size, place);
          return;
        }
        // Another job's upload of this key, left when its process died: taken back before this one goes.
        for (const stray of strays.get(file.key) ?? []) {
          await abortMultipartUpload(connection, spec.bucket, file.key, stray.uploadId);
          runtime.journal.strayGone('upload', stray.jobId, file.key);
        }
        strays.delete(file.key);
        if (!asking) {
          const stored = await uploadFile(connection, spec.bucket, file, runtime, pace, false, spec.uploadOptions);
          // The file as it was listed: the upload was made whole only after it was seen unchanged since.
          runtime.journal.objectFinished({
            key: file.key,
            path: file.path,
            size: file.size,
            mtimeMs: file.mtimeMs,
            ...stored,
            local: identityOf(file),
          });
          runtime.objectDone(place);
          return;
        }
        const placed = await uploadAsAsked(asking, file, (key, ifAbsent) =>
          uploadFile(
            connection,
            spec.bucket,
            key === file.key ? file : { ...file, key },
            runtime,
            pace,
            ifAbsent,
            spec.uploadOptions,
          ),
        );
        const at = uploadPlace(spec.bucket, { path: file.path, key: placed.key }, file.size);
        if (placed.kept !== undefined) {
          runtime.alreadyDone(1, file.size);
          runtime.kept(at, placed.kept);
        } else if (placed.earlier) {
          runtime.alreadyDone(1, file.size, at);
        } else {
          // Under a numbered key ("keep both"), recorded at once: a resumed run finds it there, not under the next
          // number.
          runtime.journal.objectFinished(
            {
              key: placed.key,
              path: file.path,
              size: file.size,
              mtimeMs: file.mtimeMs,
              ...placed.stored,
              local: identityOf(file),
            },
            { now: placed.key !== file.key },
          );
          runtime.objectDone(at);
        }
      } catch (error) {
        runtime.itemFailed(file, place, toBargeError(error, `upload ${file.path} to s3://${spec.bucket}/${file.key}`));
      }
    },
  );
}

/** Where an upload's item comes from and goes, as its details list it. */
function uploadPlace(
  bucket: string,
  item: { readonly path: string; readonly key: string },
  size: number | undefined,
): ItemPlace {
  return {
    source: item.path,
    destination: formatS3Url({ bucket, key: item.key }),
    ...(size === undefined ? {} : { size }),
  };
}

/** What the destination holds under a key: enough to know the object an earlier run stored is still there. */
interface StoredNow {
  readonly size: number;
  readonly etag: string | undefined;
}

/**
 * What the destination holds now under the job's keys, listed once when a run resumes: an object an
 * earlier run stored, then deleted or replaced since, is sent again. Kept on disk past 100,000 keys.
 */
async function listStoredNow(
  connection: S3Connection,
  spec: UploadSpec,
  runtime: JobRuntime<UploadItem>,
): Promise<SpillingMap<StoredNow>> {
  const stored = new SpillingMap<StoredNow>();
  try {
    for (const key of new Set(sourceKeys(spec.sources, spec.destination))) {
      for await (const object of listAllObjects(connection, {
        bucket: spec.bucket,
        prefix: key,
        signal: runtime.signal,
      })) {
        // A key the store listed with a broken URL encoding is no key this job could have stored.
        if (!object.unreadable) stored.set(object.key, { size: object.size, etag: object.etag });
      }
    }
    return stored;
  } catch (error) {
    stored.close();
    throw error;
  }
}

async function* discover(
  runtime: JobRuntime<UploadItem>,
  bucket: string,
  keeps: ((file: LocalFile) => boolean) | undefined,
  walks: readonly AsyncIterable<WalkEntry>[],
): AsyncGenerator<LocalFile> {
  for (const walk of walks) {
    for await (const entry of walk) {
      if (runtime.signal.aborted) return;
      if (!entry.ok && entry.skipped !== undefined) {
        runtime.skipped(entry.path, entry.skipped);
        continue;
      }
      if (!entry.ok) {
        runtime.addTotals(1, 0);
        const unread = { unread: true, path: entry.path, key: entry.key } as const;
        runtime.itemFailed(
          unread,
          uploadPlace(bucket, unread, undefined),
          toBargeError(entry.error, `read ${entry.path}`),
        );
        continue;
      }
      if (keeps && !keeps(entry)) continue;
      runtime.addTotals(1, entry.size);
      yield entry;
    }
  }
  runtime.totalsFinal();
}

/**
 * An earlier run of this job uploaded this very file, unchanged since (the same inode, change time,
 * modification time and size: a file replaced, or rewritten with its time put back, is sent again),
 * and the object it stored is still there.
 */
function finishedBefore(
  runtime: JobRuntime<UploadItem>,
  file: LocalFile,
  stored: SpillingMap<StoredNow> | undefined,
): boolean {
  if (!runtime.journal.resumed || !stored) return false;
  const done = runtime.journal.finishedObject(file.key);
  if (done === undefined || done.path !== file.path || !sameLocalFile(file, done.local)) return false;
  const now = stored.get(file.key);
  return (
    now !== undefined &&
    now.size === file.size &&
    (done.etag === undefined || now.etag === undefined || bareEtag(now.etag) === bareEtag(done.etag))
  );
}

/** `ifAbsent`: stored only if nothing is under the key by then (If-None-Match: *); a 412 says something appeared. */
async function uploadFile(
  connection: S3Connection,
  bucket: string,
  file: LocalFile,
  runtime: JobRuntime<UploadItem>,
  pace: LinkPace,
  ifAbsent = false,
  options?: UploadOptions,
): Promise<StoredObject> {
  const keyProblem = objectKeyProblem(file.key);
  if (keyProblem) throw new BargeError('InvalidKey', `The key "${file.key.slice(0, 80)}…" ${keyProblem}.`);
  if (file.size > MAX_OBJECT_SIZE_BYTES)
    throw new BargeError(
      'EntityTooLarge',
      `${file.path} is larger than the largest object S3 stores (10,000 parts of 5 GiB).`,
    );
  const contentType = options?.contentType ?? contentTypeOf(file.path) ?? 'application/octet-stream';
  const earlier = runtime.journal.resumed ? await resumableUpload(connection, bucket, file, runtime) : undefined;
  const partSize =
    earlier?.partSize ??
    choosePartSize(file.size, Math.min(runtime.partSizeFor(file.size), pace.partCapBytes ?? Number.POSITIVE_INFINITY));
  // Progress counts the file's bytes as they go out; if the file fails in the end, they come back off.
  const bytes = new AttemptBytes((count) => runtime.addBytes(count));
  const upload: FileUpload = { connection, bucket, file, contentType, runtime, bytes, pace, ifAbsent, options };
  try {
    if (file.size <= partSize && !earlier) return await putObject(upload);
    return await multipartUpload(upload, partSize, earlier);
  } catch (error) {
    bytes.drop();
    // A file made up as it is read (/proc, /sys) is not the size it says, every time: "changed,
    // retry" would mislead.
    if (errorCode(error) === 'FileChanged') {
      const fileSystem = await madeUpAsRead(file.path);
      if (fileSystem) throw sizeUnknown(file, fileSystem);
    }
    // The store refused the bytes against their checksum on every attempt: if the file changed
    // between the read for the checksum and the read to send, that is the news.
    if (errorCode(error) === 'BadDigest' && (await changedSince(file).catch(() => true))) throw fileChanged(file);
    throw error;
  }
}

interface FileUpload {
  readonly connection: S3Connection;
  readonly bucket: string;
  readonly file: LocalFile;
  readonly contentType: string;
  readonly runtime: JobRuntime<UploadItem>;
  /** The file's attempt: each request's bytes count into it, and it into the job. */
  readonly bytes: AttemptBytes;
  readonly pace: LinkPace;
  /** Only where nothing is under the key (If-None-Match: * on the PUT or the completion). */
  readonly ifAbsent: boolean;
  /** What the object is stored with (storage class, headers, metadata, tags, encryption, ACL). */
  readonly options: UploadOptions | undefined;
}

/**
 * One attempt at sending bytes [start, end) of the file; a failed attempt takes its bytes back.
 * `whole`: the body is the whole object, and its last bytes go only once the file is seen unchanged.
 */
async function sendRange<T>(
  upload: FileUpload,
  start: number,
  end: number,
  signal: AbortSignal,
  send: (body: StreamedBody) => Promise<T>,
  whole = false,
): Promise<T> {
  const attempt = upload.bytes.attempt();
  return attempt.keepIf(async () =>
    send(await fileRangeBody(upload.file, start, end, (count) => attempt.add(count), whole)),
  );
}

async function putObject(upload: FileUpload): Promise<StoredObject> {
  const { connection, bucket, file, contentType, runtime } = upload;
  const algorithm = uploadAlgorithm(connection);
  const crc = algorithm === 'MD5' ? undefined : algorithm;
  const what = `s3://${bucket}/${file.key}`;
  if (file.size <= BUFFERED_PUT_MAX_BYTES) {
    const body = await readSmallSource(file);
    // Files the system makes up as they are read (/proc, /sys) say they are empty and are not
    // (uploadFile says what else they are).
    if (file.size === 0 && body.length > 0) throw sizeUnknown(file, await madeUpAsRead(file.path));
    if (body.length !== file.size) throw fileChanged(file);
    let sent: RequestChecksums | undefined;
    const stored = await runtime.request(async (signal, attempt) => {
      // The body's SHA-256 is signed (every store checks it) until the store has shown it checks the CRC.
      const signed = signsBufferedBody(connection, crc);
      const kind: RequestKind = { algorithm, crc, crcRequired: false, buffered: signed };
      sent = await checksumsForAttempt(connection, kind, sent, (algorithms) =>
        algorithms.map((each) => checksumOf(each, body)),
      );
      const headers = {
        'content-type': contentType,
        ...uploadOptionHeaders(upload.options),
        ...sent.headers,
        ...(signed ? {} : { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' }),
        ...conditionOf(upload),
      };
      const checksums = sent;
      try {
        const answer = await connection.wire.putObject(
          bucket,
          file.key,
          body,
          body.length,
          headers,
          signal,
          attempt > 1,
        );
        return { ...answer, sent: checksums, verified: checkAnswer(connection, checksums, answer, what, signed) };
      } catch (error) {
        if (attempt === 1 || !upload.ifAbsent || !objectAppeared(error)) throw error;
        return {
          ...(await earlierAttemptStored(upload, () => Promise.resolve(checksumOf('MD5', body)), signal, error)),
          sent: checksums,
        };
      }
    });
    upload.bytes.add(body.length);
    return { ...stored, checksum: verifiedChecksum(stored.sent, stored, stored.verified) };
  }
  // Read twice: once for the checksums that must lead the request, once to send (from the page cache).
  const kind: RequestKind = { algorithm, crc, crcRequired: false, buffered: false };
  const digest = (algorithms: ChecksumAlgorithm[]) =>
    fileChecksums(file.path, algorithms, 0, file.size, () => openSource(file));
  let sent: RequestChecksums | undefined = await checksumsForAttempt(connection, kind, undefined, digest);
  // A single PUT cannot be taken back once it lands, so its last bytes are held until the file is
  // seen unchanged since it was listed: a file changed while it was read fails with nothing stored
  // (a body cut short stores nothing), and what lands is the file as it was listed.
  // An attempt the store stored without proof that it checked the bytes (a CRC it did not echo).
  let unchecked: StoredObject | undefined;
  try {
    const stored = await runtime.request(async (signal, attempt) => {
      const checksums = await checksumsForAttempt(connection, kind, sent, digest);
      sent = checksums;
      const headers = {
        'content-type': contentType,
        ...uploadOptionHeaders(upload.options),
        ...checksums.headers,
        ...conditionOf(upload),
      };
      let answer: StoredObject;
      try {
        answer = await sendRange(
          upload,
          0,
          file.size,
          signal,
          (body) => connection.wire.putObject(bucket, file.key, body, file.size, headers, signal, attempt > 1),
          true,
        );
      } catch (error) {
        if (attempt === 1 || !upload.ifAbsent || !objectAppeared(error)) throw error;
        const earlier = await earlierAttemptStored(upload, async () => (await digest(['MD5']))[0]!, signal, error);
        upload.bytes.add(file.size);
        return { ...earlier, sent: checksums };
      }
      try {
        return { ...answer, sent: checksums, verified: checkAnswer(connection, checksums, answer, what, false) };
      } catch (error) {
        if (errorCode(error) === 'UncheckedUpload') unchecked = answer;
        throw error;
      }
    });
    return { ...stored, checksum: verifiedChecksum(stored.sent, stored, stored.verified) };
  } catch (error) {
    // No checked attempt replaced it: what the unchecked one stored is not to be trusted, or kept.
    if (unchecked)
      await deleteObject(connection, { bucket, key: file.key, versionId: unchecked.versionId }).catch(() => undefined);
    throw error;
  }
}

/** The condition a write of this upload carries: none, or that nothing be under its key. */
function conditionOf(upload: FileUpload): Readonly<Record<string, string>> {
  return upload.ifAbsent ? IF_ABSENT_HEADERS : {};
}

/**
 * A conditional PUT sent again (its answer was lost on the way back) and refused for an object now
 * there: that object may be this upload's own earlier attempt. It is, when its size and its ETag
 * (the MD5 of its bytes, where the store says so) are this file's: then the upload is done, checked
 * by that ETag. Otherwise the refusal stands.
 */
async function earlierAttemptStored(
  upload: FileUpload,
  md5: () => Promise<Buffer>,
  signal: AbortSignal,
  refusal: unknown,
): Promise<StoredObject & { verified: Verification }> {
  const { connection, bucket, file } = upload;
  const headers = await connection.wire.headObject(bucket, file.key, { signal }).catch(() => undefined);
  const etag = headers?.etag;
  if (!headers || !etag || parseObjectSize(headers['content-length']) !== file.size || etagIsNotDigest(headers))
    throw refusal;
  if (bareEtag(etag) !== (await md5()).toString('hex')) throw refusal;
  return { etag, versionId: versionIdOf(headers), checksum: undefined, verified: 'etag-md5' };
}

/** A multipart upload an earlier run of this job began, with the parts the store still has. */
interface EarlierUpload {
  readonly uploadId: string;
  readonly partSize: number;
  /** The parts the store holds that match the local bytes. */
  readonly parts: readonly SentPart[];
  /** The checksum its parts carry (the upload was created with it). */
  readonly algorithm: UploadAlgorithm | undefined;
}

/**
 * The multipart upload a crashed run of this job left for this file, if it can go on: same file,
 * unchanged, and still on the server. A file changed since fails (its old parts are taken back);
 * an upload that vanished meanwhile (aborted by a lifecycle rule, or by hand) starts afresh.
 */
async function resumableUpload(
  connection: S3Connection,
  bucket: string,
  file: LocalFile,
  runtime: JobRuntime<UploadItem>,
): Promise<EarlierUpload | undefined> {
  const journal = runtime.journal;
  const record = journal.multipart(file.key);
  if (!record) return undefined;
  if (!record.uploadId) {
    // Killed between CreateMultipartUpload and recording its answer: whatever upload it made for
    // this key is found on the store and aborted, and the file starts again.
    await abortUnrecordedUploads(connection, bucket, file.key, record.startedAt);
    journal.multipartEnded(file.key, '');
    return undefined;
  }
  // A rewrite in place with its time put back changes the change time (and a replaced file, the inode).
  const rewritten =
    (record.ino !== undefined && record.ino !== file.ino) ||
    (record.ctimeMs !== undefined && record.ctimeMs !== file.ctimeMs);
  if (record.path !== file.path || record.size !== file.size || record.mtimeMs !== file.mtimeMs || rewritten) {
    await abortMultipartUpload(connection, bucket, file.key, record.uploadId);
    journal.multipartEnded(file.key, record.uploadId);
    if (record.path !== file.path) return undefined;
    throw new BargeError(
      'FileChanged',
      `${file.path} changed (its size, times or inode) since its upload began before the interruption: ` +
        'the parts sent then were discarded rather than mixed with new content. Retry to upload the file as it is now.',
    );
  }
  const onServer = await listUploadedParts(connection, bucket, file.key, record.uploadId, runtime);
  if (!onServer) {
    journal.multipartEnded(file.key, record.uploadId);
    return undefined;
  }
  const algorithm = record.checksumAlgorithm as UploadAlgorithm | undefined;
  const parts = await partsMatchingFile(file, record.partSize, algorithm, onServer, journal.parts(record.uploadId));
  // Parts sent just before the interruption, which the journal had not recorded yet, are kept too.
  for (const part of parts)
    if (part.verified !== 'earlier-run')
      journal.partFinished(record.uploadId, {
        partNumber: part.partNumber,
        etag: part.etag,
        checksum: part.digest && toBase64(part.digest),
      });
  return { uploadId: record.uploadId, partSize: record.partSize, parts, algorithm };
}

interface ListedPart {
  readonly etag: string;
  /** The part's checksums as the store lists them, by algorithm. */
  readonly checksums: Readonly<Partial<Record<ChecksumAlgorithm, string>>>;
}

/** The parts the store holds, or undefined if the upload is gone. */
async function listUploadedParts(
  connection: S3Connection,
  bucket: string,
  key: string,
  uploadId: string,
  runtime: JobRuntime<UploadItem>,
): Promise<Map<number, ListedPart> | undefined> {
  const parts = new Map<number, ListedPart>();
  const pages = (marker: string | undefined) =>
    runtime.request((signal) => listPartsPage(connection, { bucket, key, uploadId }, marker, signal));
  try {
    for await (const part of listedParts(pages)) {
      if (!part.PartNumber || !part.ETag) continue;
      const checksums: Partial<Record<ChecksumAlgorithm, string>> = {};
      for (const algorithm of ['CRC32', 'CRC32C', 'CRC64NVME'] as const) {
        const value = part[checksumField(algorithm)];
        if (value) checksums[algorithm] = value;
      }
      parts.set(part.PartNumber, { etag: part.ETag, checksums });
    }
  } catch (error) {
    // The upload is gone (aborted, or expired by a lifecycle rule): the file starts afresh. Ceph's
    // gateway says so with NoSuchKey (a 404 on the upload), not NoSuchUpload.
    const code = errorCode(error);
    if (code === 'NoSuchUpload' || code === 'NoSuchKey') return undefined;
    throw error;
  }
  return parts;
}

/**
 * On resume the store's list of parts is the truth. A listed part the journal recorded with the same
 * ETag is kept as it is: the store checked its bytes when they were sent, from this very file,
 * unchanged since. A listed part the journal does not have (one that landed just before a kill) is
 * kept when the local bytes of its range give its ETag (an MD5) or its listed checksum. Everything
 * else is sent again. Only the unrecorded parts are read: a resume costs no re-read of what the
 * journal vouches for.
 */
async function partsMatchingFile(
  file: LocalFile,
  partSize: number,
  algorithm: UploadAlgorithm | undefined,
  listed: ReadonlyMap<number, ListedPart>,
  recorded: readonly PartRecord[],
): Promise<SentPart[]> {
  const journaled = new Map(recorded.map((part) => [part.partNumber, part]));
  const crc = algorithm && algorithm !== 'MD5' ? algorithm : undefined;
  const count = partCount(file.size, partSize);
  const kept: SentPart[] = [];
  await concurrentEach(
    [...listed].filter(([partNumber]) => partNumber <= count),
    () => 4,
    async ([partNumber, part]) => {
      const record = journaled.get(partNumber);
      if (record && record.etag === part.etag) {
        kept.push({
          partNumber,
          etag: part.etag,
          digest: record.checksum ? Buffer.from(record.checksum, 'base64') : undefined,
          verified: 'earlier-run',
        });
        return;
      }
      const range = partRange(file.size, partSize, partNumber);
      const etag = bareEtag(part.etag);
      const md5 = /^[0-9a-f]{32}$/.test(etag);
      const listedCrc = crc && part.checksums[crc];
      if (!md5 && !listedCrc) return;
      const algorithms: ChecksumAlgorithm[] = [...(md5 ? ['MD5' as const] : []), ...(crc ? [crc] : [])];
      const digests = await fileChecksums(file.path, algorithms, range.start, range.end, () => openSource(file));
      const crcDigest = crc ? digests[algorithms.length - 1] : undefined;
      // Either match will do: under SSE-KMS a part's ETag looks like an MD5 without being one.
      const md5Matches = md5 && digests[0]!.toString('hex') === etag;
      const crcMatches = listedCrc !== undefined && crcDigest !== undefined && toBase64(crcDigest) === listedCrc;
      if (crcMatches) kept.push({ partNumber, etag: part.etag, digest: crcDigest, verified: 'store-checksum' });
      else if (md5Matches && !listedCrc)
        kept.push({ partNumber, etag: part.etag, digest: crcDigest, verified: 'etag-md5' });
    },
  );
  return kept;
}

async function multipartUpload(
  upload: FileUpload,
  partSize: number,
  earlier: EarlierUpload | undefined,
): Promise<StoredObject> {
  const sent = await multipartUploadOnce(upload, partSize, earlier);
  if (sent !== 'start-again') return sent;
  // The store turned out to refuse the CRC's header after this upload was created with it (a store
  // wants that CRC on every part): the upload was aborted, and the file goes again without one.
  upload.bytes.drop();
  const again = await multipartUploadOnce(upload, partSize, undefined);
  if (again === 'start-again')
    throw new BargeError(
      'MultipartChecksumRefused',
      `The store refused the checksum of the multipart upload of s3://${upload.bucket}/${upload.file.key} twice.`,
    );
  return again;
}

/**
 * One multipart upload of the file: created (or taken up from an earlier run), its parts sent, and
 * completed; or 'start-again', aborted, when the store refuses the CRC it was created with.
 */
async function multipartUploadOnce(
  upload: FileUpload,
  partSize: number,
  earlier: EarlierUpload | undefined,
): Promise<StoredObject | 'start-again'> {
  const { connection, bucket, file, contentType, runtime } = upload;
  const journal = runtime.journal;
  const what = `s3://${bucket}/${file.key}`;
  // Fixed for the file: the upload is created with it, every part carries it.
  const uploadWith = earlier ? earlier.algorithm : uploadAlgorithm(connection);
  let crc: CrcAlgorithm | undefined = earlier
    ? uploadWith === 'MD5'
      ? undefined
      : uploadWith
    : multipartCrc(connection, uploadWith);
  // A store known to ignore CRCs gets Content-MD5 alone.
  const algorithmOf = (created: CrcAlgorithm | undefined): UploadAlgorithm | undefined =>
    created ?? (uploadWith ? 'MD5' : undefined);
  let uploadId = earlier?.uploadId;
  if (!uploadId) {
    // Recorded before it is asked for, so an upload created by a run killed before its answer came
    // back is still found (and aborted) by the next.
    const startedAt = Date.now();
    const record = {
      startedAt,
      path: file.path,
      size: file.size,
      mtimeMs: file.mtimeMs,
      ino: file.ino,
      ctimeMs: file.ctimeMs,
      partSize,
    };
    journal.multipartStarted(file.key, { ...record, uploadId: '', checksumAlgorithm: algorithmOf(crc) });
    const created = await runtime.request((signal) => {
      // Chosen again for each attempt: the first may have been refused for the CRC's headers.
      crc = multipartCrc(connection, uploadWith);
      return createMultipartUpload(
        connection,
        {
          bucket,
          key: file.key,
          contentType,
          // The part size, for whoever downloads the object: with it, the multipart ETag (MD5 of the
          // parts' MD5s) can be checked on a store that cannot tell part boundaries.
          metadata: { [PART_SIZE_METADATA]: String(partSize) },
          crc,
          options: upload.options,
        },
        signal,
      );
    });
    uploadId = created.UploadId;
    if (!uploadId)
      throw new BargeError('InvalidResponse', 'The server started a multipart upload without an upload ID.');
    journal.multipartStarted(file.key, { ...record, uploadId, checksumAlgorithm: algorithmOf(crc) });
  }
  const algorithm = algorithmOf(crc);
  const id = uploadId;
  const partKind: RequestKind = { algorithm, crc, crcRequired: crc !== undefined, buffered: false };
  const parts: SentPart[] = [];
  const sentBefore = new Set<number>();
  for (const part of earlier?.parts ?? []) {
    parts.push(part);
    sentBefore.add(part.partNumber);
    const range = partRange(file.size, partSize, part.partNumber);
    runtime.alreadyDone(0, range.end - range.start);
  }
  try {
    const toSend = [...partNumbers(partCount(file.size, partSize))].filter((partNumber) => !sentBefore.has(partNumber));
    await concurrentEach(
      toSend,
      () => runtime.settings.threads * 2,
      async (partNumber) => {
        const result = await sendPart(upload, id, partNumber, partSize, partKind);
        parts.push({ partNumber, etag: result.etag, digest: result.sent.crc?.digest, verified: result.verified });
        journal.partFinished(id, { partNumber, etag: result.etag, checksum: result.sent.crc?.value });
      },
    );
    // A file that changed while it was read would be stored as a mix of old and new bytes.
    if (await changedSince(file)) throw fileChanged(file);
    parts.sort((a, b) => a.partNumber - b.partNumber);
    const completed = await completeUpload(connection, bucket, file.key, id, parts, crc, runtime, upload.ifAbsent);
    journal.multipartEnded(file.key, id);
    const verified = weakest(parts.map((part) => part.verified)) ?? 'none';
    const stored = await completedObject(connection, bucket, file.key, completed, parts, runtime);
    if (crc) await checkCompleted(connection, bucket, file.key, crc, parts, file.size, partSize, stored);
    return { ...stored, checksum: verified === 'store-checksum' ? stored.checksum : undefined, verified };
  } catch (error) {
    const startAgain = errorCode(error) === 'MultipartChecksumRefused' && !runtime.signal.aborted;
    // Cancelled or failed: take the parts back off the server, so nothing is left to bill. The
    // cause is what the user reads first; trouble cleaning up comes second (and the journal keeps
    // the upload, for a later run or `barge abort-uploads` to take back).
    try {
      await abortMultipartUpload(connection, bucket, file.key, id);
    } catch (cleanup) {
      const cause = toBargeError(error, `upload ${file.path} to ${what}`);
      throw new BargeError(
        cause.code,
        `${cause.message.replace(/\.$/, '')}. Its multipart upload could not be aborted either ` +
          `(${toBargeError(cleanup).message.replace(/\.$/, '')}); it is kept for the next run, and "barge ` +
          `abort-uploads" lists such leftovers.`,
        { cause: error },
      );
    }
    journal.multipartEnded(file.key, id);
    if (startAgain) return 'start-again';
    throw error;
  }
}

/**
 * One part of a multipart upload, sent and checked by the store. Until the store is known to check
 * CRCs, the part is read twice: once for the checksums that must lead the request (Content-MD5 among
 * them), once to send (from the page cache). After that, once: the CRC is computed as the bytes go
 * and sent after them (trailing-checksum.ts).
 */
async function sendPart(
  upload: FileUpload,
  uploadId: string,
  partNumber: number,
  partSize: number,
  kind: RequestKind,
): Promise<StoredObject & { etag: string; sent: RequestChecksums; verified: Verification }> {
  const { connection, bucket, file, runtime } = upload;
  const range = partRange(file.size, partSize, partNumber);
  const size = range.end - range.start;
  const what = `part ${partNumber} of s3://${bucket}/${file.key}`;
  const timedOut = (error: unknown): never => {
    if (errorCode(error) === 'TimeoutError' || errorCode(error) === 'ETIMEDOUT') upload.pace.partTimedOut(partSize);
    throw error;
  };
  const digest = (algorithms: ChecksumAlgorithm[]) =>
    fileChecksums(file.path, algorithms, range.start, range.end, () => openSource(file));
  // The first part finds out whether the store checks CRCs; the next ones wait for its answer.
  const probed = await crcProbe(connection, kind);
  try {
    // Read before the request is queued, so the read holds no request slot.
    let sent = trailingCrc(connection, kind)
      ? undefined
      : await checksumsForAttempt(connection, kind, undefined, digest);
    return await runtime.request(async (signal, attempt) => {
      const trailing = trailingCrc(connection, kind);
      if (trailing) {
        let encoded: TrailingBody | undefined;
        const answer = await sendRange(upload, range.start, range.end, signal, (body) => {
          encoded = withTrailingChecksum(body, size, trailing);
          return connection.wire.uploadPart(
            bucket,
            file.key,
            uploadId,
            partNumber,
            encoded.body,
            encoded.contentLength,
            signal,
            trailerHeaders(size, trailing),
            attempt > 1,
          );
        }).catch((error: unknown) => timedOut(afterTrailerFailure(connection, error)));
        const checksums = requestChecksums([trailing], [encoded!.digest()!]);
        const verified = checkAnswer(connection, checksums, answer, what, false);
        trailerTaken(connection);
        return { ...answer, sent: checksums, verified };
      }
      const checksums = await checksumsForAttempt(connection, kind, sent, digest);
      sent = checksums;
      const answer = await sendRange(upload, range.start, range.end, signal, (body) =>
        connection.wire.uploadPart(
          bucket,
          file.key,
          uploadId,
          partNumber,
          body,
          size,
          signal,
          checksums.headers,
          attempt > 1,
        ),
      ).catch(timedOut);
      return { ...answer, sent: checksums, verified: checkAnswer(connection, checksums, answer, what, false) };
    });
  } finally {
    probed?.();
  }
}

interface SentPart {
  readonly partNumber: number;
  readonly etag: string;
  /** The part's CRC as sent (undefined when uploads carry none). */
  readonly digest: Buffer | undefined;
  /** How the store checked the part's bytes. */
  readonly verified: Verification;
}

/**
 * CompleteMultipartUpload. Its answer can be lost after the store has done it (a reset on the way
 * back); the retry then finds no upload (NoSuchUpload), or, sent on condition that nothing is under
 * the key (`ifAbsent`), the object it made (412). Before that counts as a failure, a HEAD pinned
 * to the ETag these parts give asks whether the object is there: then it completed. A 412 for
 * another writer's object stands (the upload is aborted by the caller).
 */
async function completeUpload(
  connection: S3Connection,
  bucket: string,
  key: string,
  uploadId: string,
  parts: readonly SentPart[],
  crc: CrcAlgorithm | undefined,
  runtime: JobRuntime<UploadItem>,
  ifAbsent: boolean,
): Promise<CompleteMultipartUploadCommandOutput> {
  try {
    return await runtime.request((signal) =>
      completeMultipartUpload(
        connection,
        {
          bucket,
          key,
          uploadId,
          parts: parts.map((part) => ({
            partNumber: part.partNumber,
            etag: part.etag,
            checksum: crc && part.digest ? { field: checksumField(crc), value: toBase64(part.digest) } : undefined,
          })),
          ifAbsent,
        },
        signal,
      ),
    );
  } catch (error) {
    const expected =
      errorCode(error) === 'NoSuchUpload' || (ifAbsent && objectAppeared(error)) ? expectedEtag(parts) : undefined;
    if (!expected) throw error;
    const headers = await runtime
      .request((signal) => connection.wire.headObject(bucket, key, { ifMatch: expected, signal }))
      .catch(() => undefined);
    if (!headers) throw error;
    return { ETag: expected, VersionId: versionIdOf(headers), $metadata: {} };
  }
}

/**
 * The ETag S3 gives an upload of these parts (the MD5 of their MD5s), quoted; undefined where a part's ETag is not an
 * MD5.
 */
function expectedEtag(parts: readonly SentPart[]): string | undefined {
  const md5s = parts.map((part) => bareEtag(part.etag));
  if (!md5s.every((md5) => /^[0-9a-f]{32}$/.test(md5))) return undefined;
  return `"${multipartEtag(md5s.map((md5) => Buffer.from(md5, 'hex')))}"`;
}

/**
 * What the store says it stored, from CompleteMultipartUpload's answer. Where that answer has no
 * ETag (Ceph's RGW sends an empty one), a HEAD pinned to the ETag these parts give (the MD5 of their
 * MD5s) supplies it: a HEAD that finds another writer's version finds nothing, and says nothing.
 * Nothing else is taken from the HEAD: the object is judged by Complete's own answer.
 */
async function completedObject(
  connection: S3Connection,
  bucket: string,
  key: string,
  completed: CompleteMultipartUploadCommandOutput,
  parts: readonly SentPart[],
  runtime: JobRuntime<UploadItem>,
): Promise<StoredObject> {
  const etag = completed.ETag?.replaceAll('"', '') ? completed.ETag : undefined;
  const answered = { etag, versionId: completed.VersionId, checksum: completedChecksum(completed) };
  const expected = etag ? undefined : expectedEtag(parts);
  if (!expected) return answered;
  try {
    const headers = await runtime.request((signal) =>
      connection.wire.headObject(bucket, key, { ifMatch: expected, signal }),
    );
    return { ...answered, etag: expected, versionId: answered.versionId ?? versionIdOf(headers) };
  } catch (error) {
    if (runtime.signal.aborted) throw error;
    return answered;
  }
}

/**
 * The whole object's checksum, as the store reports it after CompleteMultipartUpload, against the one
 * the parts' checksums give. A mismatch takes the new object (its version) back off the store.
 */
async function checkCompleted(
  connection: S3Connection,
  bucket: string,
  key: string,
  crc: Exclude<UploadAlgorithm, 'MD5'>,
  parts: readonly SentPart[],
  size: number,
  partSize: number,
  stored: StoredObject,
): Promise<void> {
  if (!stored.checksum?.startsWith(`${crc}:`) || parts.some((part) => !part.digest)) return;
  const reported = stored.checksum.slice(crc.length + 1);
  const digests = parts.map((part) => part.digest!);
  const composite = compositeChecksum(crc, digests);
  const whole = toBase64(
    fullObjectCrc(
      crc,
      parts.map((part) => ({ digest: part.digest!, size: partByteCount(size, partSize, part.partNumber) })),
    ),
  );
  // Either form is a match: some stores turn one into the other, or drop the composite's "-N".
  const expected = reported.includes('-') ? composite : whole;
  if ([composite, composite.replace(/-\d+$/, ''), whole].includes(reported)) return;
  await deleteObject(connection, { bucket, key, versionId: stored.versionId });
  throw new BargeError(
    'ChecksumMismatch',
    `The store reports ${crc} ${reported} for s3://${bucket}/${key}, but its parts give ${expected}; the ` +
      `object was removed. Retry the upload.`,
  );
}

function partByteCount(size: number, partSize: number, partNumber: number): number {
  const range = partRange(size, partSize, partNumber);
  return range.end - range.start;
}

function completedChecksum(completed: CompleteMultipartUploadCommandOutput): string | undefined {
  if (completed.ChecksumCRC64NVME) return `CRC64NVME:${completed.ChecksumCRC64NVME}`;
  if (completed.ChecksumCRC32C) return `CRC32C:${completed.ChecksumCRC32C}`;
  if (completed.ChecksumCRC32) return `CRC32:${completed.ChecksumCRC32}`;
  return undefined;
}

/**
 * A small file's bytes: open (as it was listed, or not at all), one read, close. One byte more than
 * expected is asked for, so a file that grew since it was listed is noticed.
 */
async function changedSince(file: LocalFile): Promise<boolean> {
  return !sameVersion(await stat(file.path), file);
}

function fileChanged(file: LocalFile, consequence = 'nothing was stored; retry when it no longer changes'): BargeError {
  return new BargeError('FileChanged', `${file.path} changed while it was being uploaded: ${consequence}.`);
}
