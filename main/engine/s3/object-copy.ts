// One object copied by the store itself: no byte of it passes through the client.
//
// Up to 5 GiB (S3's limit for CopyObject) one CopyObject; above it (or above a lower threshold a
// caller sets, so tests stay cheap) a multipart upload whose parts are UploadPartCopy requests, in
// parallel, each one request through the caller's scheduler. Metadata, tags and content headers go
// with the copy (CopyObject's COPY directives; a multipart copy sets them from the source's HEAD and
// tags), or are replaced as asked: a copy onto itself with new metadata or tags is how they are
// edited. The source is pinned by its ETag (and version), so a source changed mid-copy fails the copy
// instead of mixing two objects. The store is asked for the source's checksum algorithm, and its
// answer is compared with the source's (integrity/copy-verification.ts).

import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import type { ChecksumAlgorithm, HeadObjectCommandOutput, StorageClass } from '@aws-sdk/client-s3';
import { BargeError, errorCode } from '../errors.ts';
import { MAX_PART_SIZE_BYTES, choosePartSize, partCount, partRange } from '../../../src/part-size.ts';
import type { Verification } from '../../../src/verification.ts';
import { concurrentEach } from '../queue/concurrent-each.ts';
import type { PartSlots } from '../queue/part-slots.ts';
import { verifyPartsCopy, verifySingleCopy, wholeObjectChecksum } from '../integrity/copy-verification.ts';
import type { CopiedSide, CopyChecksumAlgorithm, StoredChecksum } from '../integrity/copy-verification.ts';
import { explainHeadFailure } from './s3-listing.ts';
import type { S3Connection } from './s3-connection.ts';

/** CopyObject's limit: a larger object is copied in parts. */
export const MAX_SINGLE_COPY_BYTES = MAX_PART_SIZE_BYTES;

const CHECKSUM_ALGORITHMS: readonly CopyChecksumAlgorithm[] = ['CRC64NVME', 'CRC32C', 'CRC32', 'SHA256', 'SHA1'];
const CRCS: readonly CopyChecksumAlgorithm[] = ['CRC64NVME', 'CRC32C', 'CRC32'];

export interface ObjectPlace {
  readonly bucket: string;
  readonly key: string;
}

/** What a copy changes: each field given replaces the source's; the rest are kept. */
export interface CopyReplacements {
  readonly metadata?: Readonly<Record<string, string>>;
  readonly tags?: Readonly<Record<string, string>>;
  readonly contentType?: string;
  readonly cacheControl?: string;
  readonly contentDisposition?: string;
  readonly contentEncoding?: string;
  readonly contentLanguage?: string;
  readonly storageClass?: string;
}

export interface CopyRequests {
  /** Send one request through the caller's scheduler and retries (a job's `runtime.request`). */
  request<T>(send: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** How many part copies may be in flight at once (read again before each part). */
  partsInFlight(): number;
  /** Objects above this many bytes are copied in parts (default and most: 5 GiB). */
  readonly multipartThresholdBytes?: number;
  /** The part size asked for (raised where 10,000 parts would not hold the object). */
  readonly partSizeBytes: number;
  /** Where a copy in parts records its upload and each part done, so a copy stopped half-way resumes. */
  readonly progress?: PartProgress;
  /** The job's budget of parts held in memory at once (a copy between connections holds each part). */
  readonly partSlots?: PartSlots;
}

/** A part sent (or copied) into a multipart upload: its number, the store's ETag and its checksum. */
export interface SentPart {
  readonly partNumber: number;
  readonly etag: string;
  readonly checksum?: string;
}

/**
 * A copy's multipart upload as a job's journal keeps it: an earlier run's upload, found again, goes
 * on from the first part not done; each part done is reported as it is, and the upload's end.
 */
export interface PartProgress {
  /** The upload an earlier run began for this copy, and the parts it finished. */
  readonly earlier: EarlierUpload | undefined;
  begun(upload: { readonly uploadId: string; readonly partSize: number; readonly algorithm?: string }): void;
  partDone(uploadId: string, part: SentPart): void;
  /** The upload completed or was aborted: its record goes. */
  ended(uploadId: string): void;
}

export interface EarlierUpload {
  readonly uploadId: string;
  readonly partSize: number;
  readonly algorithm?: string;
  readonly parts: readonly SentPart[];
}

/** The source as its HEAD described it: what the copy keeps, and what it is checked against. */
export interface CopySource extends ObjectPlace, CopiedSide {
  readonly versionId: string | undefined;
  /**
   * The version was named by the caller (a version restored): it is sent even when it is "null", which
   * otherwise would copy whatever is latest.
   */
  readonly versionPinned?: boolean;
  readonly head: HeadObjectCommandOutput;
}

export interface CopyOutcome {
  readonly size: number;
  readonly etag: string | undefined;
  readonly verification: Verification;
  /** Undefined for a single CopyObject. */
  readonly parts?: number;
}

/**
 * The source's HEAD, with its checksum; fails with the store's own reason where it is missing or
 * denied. With `versionId`, that version of it (a restore copies an older version over the latest).
 */
export async function describeCopySource(
  connection: S3Connection,
  source: ObjectPlace & { readonly versionId?: string },
  requests: Pick<CopyRequests, 'request'>,
): Promise<CopySource> {
  const { versionId, ...place } = source;
  const head = await requests.request(async (signal) => {
    try {
      return await connection.client.send(
        new HeadObjectCommand({
          Bucket: source.bucket,
          Key: source.key,
          ChecksumMode: 'ENABLED',
          ...(source.versionId === undefined ? {} : { VersionId: source.versionId }),
        }),
        { abortSignal: signal },
      );
    } catch (error) {
      throw await explainHeadFailure(connection, source.bucket, source.key, error, signal);
    }
  });
  return {
    ...place,
    size: head.ContentLength ?? 0,
    etag: head.ETag,
    versionId: head.VersionId ?? versionId,
    ...(versionId === undefined ? {} : { versionPinned: true }),
    checksum: checksumOf(head),
    head,
  };
}

/** Copy `source` (as described) to `target` on the same connection, then check the store's answer. */
export async function copyObject(
  connection: S3Connection,
  source: CopySource,
  target: ObjectPlace,
  requests: CopyRequests,
  replace: CopyReplacements = {},
): Promise<CopyOutcome> {
  const threshold = Math.min(requests.multipartThresholdBytes ?? MAX_SINGLE_COPY_BYTES, MAX_SINGLE_COPY_BYTES);
  const outcome =
    source.size > threshold
      ? await copyInParts(connection, source, target, requests, replace)
      : await copyWhole(connection, source, target, requests, replace);
  return outcome;
}

async function copyWhole(
  connection: S3Connection,
  source: CopySource,
  target: ObjectPlace,
  requests: CopyRequests,
  replace: CopyReplacements,
): Promise<CopyOutcome> {
  const algorithm = source.checksum?.algorithm;
  const replacingHeaders = replacesHeaders(replace);
  const answer = await requests.request((signal) =>
    connection.client.send(
      new CopyObjectCommand({
        Bucket: target.bucket,
        Key: target.key,
        CopySource: copySourceHeader(source),
        CopySourceIfMatch: source.etag,
        MetadataDirective: replacingHeaders ? 'REPLACE' : 'COPY',
        ...(replacingHeaders ? headersOf(source.head, replace) : {}),
        TaggingDirective: replace.tags ? 'REPLACE' : 'COPY',
        ...(replace.tags ? { Tagging: tagging(replace.tags) } : {}),
        ...storageClassOf(source.head, replace),
        ...(algorithm ? { ChecksumAlgorithm: algorithm as ChecksumAlgorithm } : {}),
      }),
      { abortSignal: signal },
    ),
  );
  const result = answer.CopyObjectResult ?? {};
  const copied: CopiedSide = {
    size: source.size,
    etag: result.ETag,
    checksum: algorithm ? storedChecksum(algorithm, result[`Checksum${algorithm}`]) : undefined,
  };
  let verdict = verifySingleCopy(source, copied);
  if (verdict.verification === 'size-only' && !verdict.mismatch && algorithm && !copied.checksum) {
    // A store that leaves the checksum out of CopyObject's answer (MinIO) may still give it on a HEAD.
    const head = await requests.request((signal) =>
      connection.client.send(
        new HeadObjectCommand({ Bucket: target.bucket, Key: target.key, ChecksumMode: 'ENABLED' }),
        { abortSignal: signal },
      ),
    );
    verdict = verifySingleCopy(source, {
      ...copied,
      checksum: storedChecksum(algorithm, head[`Checksum${algorithm}`]),
    });
  }
  failOnMismatch(source, target, verdict.mismatch);
  return { size: source.size, etag: result.ETag, verification: verdict.verification };
}

async function copyInParts(
  connection: S3Connection,
  source: CopySource,
  target: ObjectPlace,
  requests: CopyRequests,
  replace: CopyReplacements,
): Promise<CopyOutcome> {
  const sourceCrc = wholeObjectChecksum(source.checksum);
  // Part checksums are asked for only where they can prove the copy (a whole-object CRC combines
  // from its parts') and the store is not known to leave them out of UploadPartCopy's answers.
  const algorithm =
    sourceCrc && CRCS.includes(sourceCrc.algorithm) && partChecksumsOf.get(connection) !== false
      ? sourceCrc.algorithm
      : undefined;
  const tags = replace.tags ?? (await sourceTags(connection, source, requests));
  const attempt = await copyPartsOnce(connection, source, target, requests, replace, tags, algorithm).catch(
    (error: unknown) => {
      // The earlier run's upload is gone (aborted, or expired by a lifecycle rule): begin a new one.
      if (!requests.progress?.earlier || errorCode(error) !== 'NoSuchUpload') throw error;
      requests.progress.ended(requests.progress.earlier.uploadId);
      const afresh = { ...requests, progress: { ...requests.progress, earlier: undefined } };
      return copyPartsOnce(connection, source, target, afresh, replace, tags, algorithm);
    },
  );
  if (attempt !== 'no-part-checksums') return attempt;
  // The store copies parts without their checksums (or refuses to, in an upload created with one).
  partChecksumsOf.set(connection, false);
  const again = await copyPartsOnce(
    connection,
    source,
    target,
    requests.progress ? { ...requests, progress: { ...requests.progress, earlier: undefined } } : requests,
    replace,
    tags,
    undefined,
  );
  return again as CopyOutcome;
}

/** What each connection's store has shown: whether UploadPartCopy answers with the part's checksum. */
const partChecksumsOf = new WeakMap<S3Connection, boolean>();

async function copyPartsOnce(
  connection: S3Connection,
  source: CopySource,
  target: ObjectPlace,
  requests: CopyRequests,
  replace: CopyReplacements,
  tags: Readonly<Record<string, string>>,
  algorithm: CopyChecksumAlgorithm | undefined,
): Promise<CopyOutcome | 'no-part-checksums'> {
  const partSize = choosePartSize(source.size, requests.partSizeBytes);
  const progress = requests.progress;
  const earlier = await earlierUpload(connection, target, progress, partSize, algorithm);
  const uploadId =
    earlier?.uploadId ??
    (
      await requests.request((signal) =>
        connection.client.send(
          new CreateMultipartUploadCommand({
            Bucket: target.bucket,
            Key: target.key,
            ...headersOf(source.head, replace),
            ...(Object.keys(tags).length > 0 ? { Tagging: tagging(tags) } : {}),
            ...storageClassOf(source.head, replace),
            ...(algorithm ? { ChecksumAlgorithm: algorithm as ChecksumAlgorithm } : {}),
          }),
          { abortSignal: signal },
        ),
      )
    ).UploadId!;
  if (!earlier) progress?.begun({ uploadId, partSize, ...(algorithm ? { algorithm } : {}) });
  const count = partCount(source.size, partSize);
  const parts: { etag: string; checksum: string | undefined; size: number }[] = [];
  for (const part of earlier?.parts ?? []) {
    const range = partRange(source.size, partSize, part.partNumber);
    parts[part.partNumber - 1] = { etag: part.etag, checksum: part.checksum, size: range.end - range.start };
  }
  const copyPart = async (partNumber: number) => {
    const range = partRange(source.size, partSize, partNumber);
    const answer = await requests.request((signal) =>
      connection.client.send(
        new UploadPartCopyCommand({
          Bucket: target.bucket,
          Key: target.key,
          UploadId: uploadId,
          PartNumber: partNumber,
          CopySource: copySourceHeader(source),
          CopySourceIfMatch: source.etag,
          CopySourceRange: `bytes=${range.start}-${range.end - 1}`,
        }),
        { abortSignal: signal },
      ),
    );
    const result = answer.CopyPartResult ?? {};
    const checksum = algorithm ? result[`Checksum${algorithm}`] : undefined;
    parts[partNumber - 1] = { etag: result.ETag ?? '', checksum, size: range.end - range.start };
    progress?.partDone(uploadId, { partNumber, etag: result.ETag ?? '', ...(checksum ? { checksum } : {}) });
  };
  const missing = Array.from({ length: count }, (_, index) => index + 1).filter((n) => parts[n - 1] === undefined);
  try {
    if (parts.length === 0 || parts.every((part) => part === undefined)) {
      // The first part alone: its answer says whether the store gives part checksums, before the rest go.
      const refused = await copyPart(missing.shift()!).then(
        () => false,
        (error: unknown) => {
          // MinIO refuses to copy a part into an upload created with a checksum ("checksum missing").
          if (algorithm && errorCode(error) === 'InvalidArgument' && /checksum/i.test(String(error))) return true;
          throw error;
        },
      );
      if (algorithm && (refused || parts[0]?.checksum === undefined)) {
        await abortUpload(connection, target, uploadId);
        progress?.ended(uploadId);
        return 'no-part-checksums';
      }
      if (algorithm) partChecksumsOf.set(connection, true);
    }
    await concurrentEach(missing, requests.partsInFlight, copyPart);
    const completed = await requests.request((signal) =>
      connection.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: target.bucket,
          Key: target.key,
          UploadId: uploadId,
          MultipartUpload: {
            Parts: parts.map((part, index) => ({
              PartNumber: index + 1,
              ETag: part.etag,
              ...(algorithm && part.checksum ? { [`Checksum${algorithm}`]: part.checksum } : {}),
            })),
          },
        }),
        { abortSignal: signal },
      ),
    );
    progress?.ended(uploadId);
    const size = parts.reduce((sum, part) => sum + part.size, 0);
    const verdict = verifyPartsCopy(algorithm ? source : { ...source, checksum: undefined }, size, parts);
    failOnMismatch(source, target, verdict.mismatch);
    return { size, etag: completed.ETag, verification: verdict.verification, parts: parts.length };
  } catch (error) {
    // A copy whose parts are recorded keeps them for its next run (the job's record aborts them if
    // none comes); else parts copied so far are billed until the upload is aborted: a failed copy leaves none.
    // (A store that copies no part itself is copied from through the client: its upload goes too.)
    if (progress && !['BadDigest', 'NotImplemented'].includes(errorCode(error) ?? '')) throw error;
    await abortUpload(connection, target, uploadId);
    progress?.ended(uploadId);
    throw error;
  }
}

/**
 * The upload an earlier run began for this copy, if it can go on (the same part size and checksum);
 * one that cannot is aborted, and its record dropped.
 */
async function earlierUpload(
  connection: S3Connection,
  target: ObjectPlace,
  progress: PartProgress | undefined,
  partSize: number,
  algorithm: CopyChecksumAlgorithm | undefined,
): Promise<EarlierUpload | undefined> {
  const earlier = progress?.earlier;
  if (!earlier) return undefined;
  if (earlier.partSize === partSize && earlier.algorithm === algorithm) return earlier;
  await abortUpload(connection, target, earlier.uploadId);
  progress.ended(earlier.uploadId);
  return undefined;
}

async function abortUpload(connection: S3Connection, target: ObjectPlace, uploadId: string): Promise<void> {
  await connection.client
    .send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: target.key, UploadId: uploadId }))
    .catch(() => undefined);
}

/** The source's tags (a multipart copy sets them on the new upload; CopyObject copies them itself). */
export async function sourceTags(
  connection: S3Connection,
  source: CopySource,
  requests: CopyRequests,
): Promise<Record<string, string>> {
  const answer = await requests.request((signal) =>
    connection.client.send(
      new GetObjectTaggingCommand({ Bucket: source.bucket, Key: source.key, VersionId: source.versionId }),
      { abortSignal: signal },
    ),
  );
  return Object.fromEntries((answer.TagSet ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? '']));
}

/**
 * x-amz-copy-source: the bucket and the key URL-encoded (its slashes kept), and the version HEAD saw.
 * A "null" version is named only when it was asked for (a restore copying a version written before
 * versioning was enabled): HEAD says "null" of an object in a bucket that keeps no versions too.
 */
function copySourceHeader(source: CopySource): string {
  const key = source.key.split('/').map(encodeURIComponent).join('/');
  const named = source.versionId && (source.versionId !== 'null' || source.versionPinned);
  const version = named ? `?versionId=${encodeURIComponent(source.versionId!)}` : '';
  return `${source.bucket}/${key}${version}`;
}

function replacesHeaders(replace: CopyReplacements): boolean {
  return (
    replace.metadata !== undefined ||
    replace.contentType !== undefined ||
    replace.cacheControl !== undefined ||
    replace.contentDisposition !== undefined ||
    replace.contentEncoding !== undefined ||
    replace.contentLanguage !== undefined
  );
}

/** Metadata and content headers: the source's, each replaced where asked. */
export function headersOf(head: HeadObjectCommandOutput, replace: CopyReplacements) {
  return {
    Metadata: { ...(replace.metadata ?? head.Metadata ?? {}) },
    ContentType: replace.contentType ?? head.ContentType,
    CacheControl: replace.cacheControl ?? head.CacheControl,
    ContentDisposition: replace.contentDisposition ?? head.ContentDisposition,
    ContentEncoding: replace.contentEncoding ?? head.ContentEncoding,
    ContentLanguage: replace.contentLanguage ?? head.ContentLanguage,
    Expires: head.Expires,
  };
}

/** The source's storage class is kept (S3 would make the copy STANDARD), or the one asked for. */
export function storageClassOf(
  head: HeadObjectCommandOutput,
  replace: CopyReplacements,
): { StorageClass?: StorageClass } {
  const storageClass = replace.storageClass ?? head.StorageClass;
  return storageClass && storageClass !== 'STANDARD' ? { StorageClass: storageClass as StorageClass } : {};
}

export function tagging(tags: Readonly<Record<string, string>>): string {
  return new URLSearchParams(Object.entries(tags)).toString();
}

function checksumOf(head: HeadObjectCommandOutput): StoredChecksum | undefined {
  for (const algorithm of CHECKSUM_ALGORITHMS) {
    const checksum = storedChecksum(algorithm, head[`Checksum${algorithm}`]);
    if (checksum) return checksum;
  }
  return undefined;
}

function storedChecksum(algorithm: CopyChecksumAlgorithm, value: string | undefined): StoredChecksum | undefined {
  return value ? { algorithm, value } : undefined;
}

export function failOnMismatch(source: ObjectPlace, target: ObjectPlace, mismatch: string | undefined): void {
  if (mismatch === undefined) return;
  throw new BargeError(
    'BadDigest',
    `The copy of s3://${source.bucket}/${source.key} at s3://${target.bucket}/${target.key} does not match its ` +
      `source ` +
      `(${mismatch}); the source is unchanged. Copy it again.`,
  );
}

/**
 * Give an object new metadata, tags or content headers: a copy onto itself with them replaced (S3
 * has no other way to change them). What is not given is kept; the bytes stay as they are.
 */
export async function replaceObjectDetails(
  connection: S3Connection,
  place: ObjectPlace,
  replace: CopyReplacements,
  requests: CopyRequests,
): Promise<CopyOutcome> {
  if (!replacesHeaders(replace) && replace.tags === undefined && replace.storageClass === undefined)
    throw new BargeError(
      'InvalidRequest',
      `Nothing to change on s3://${place.bucket}/${place.key}: give metadata, tags or a header.`,
    );
  const source = await describeCopySource(connection, place, requests);
  return copyObject(connection, source, place, requests, replace);
}
