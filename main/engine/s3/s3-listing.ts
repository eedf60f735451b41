// Listing: buckets, a prefix page by page, one object's details, incomplete multipart uploads.
//
// Listings are async streams of pages, so a prefix of millions of keys is shown (or deleted, or
// downloaded) as it arrives, in constant memory. Keys come URL-encoded (EncodingType=url): XML
// cannot carry some characters a key may hold, and stores mangle them otherwise.

import {
  HeadObjectCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectVersionsCommand,
} from '@aws-sdk/client-s3';
import type { ListObjectVersionsCommandOutput } from '@aws-sdk/client-s3';
import { compareUtf8 } from '../../../src/key-order.ts';
import { asFolderPrefix } from '../../../src/s3-url.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { regionRedirectOf } from '../queue/retry-policy.ts';
import { BargeError, httpStatus } from '../errors.ts';
import type { S3Connection } from './s3-connection.ts';

export interface ObjectEntry {
  /** The key; for an `unreadable` one, the text the store sent. */
  readonly key: string;
  /**
   * The store listed this key with a URL encoding that is broken ("%zz"): what the key is cannot be
   * known, so no request can name it. Only `listAllObjects` yields such entries (a job fails them by
   * name); a page keeps them apart, in `unreadable`.
   */
  readonly unreadable?: true;
  /** 0 where the store listed no size an object can have (object-size.ts); `badSize` is then what it listed. */
  readonly size: number;
  readonly badSize?: string;
  readonly lastModified: number | undefined;
  readonly etag: string | undefined;
  readonly storageClass: string | undefined;
}

export interface ListingPage {
  readonly objects: readonly ObjectEntry[];
  /** Common prefixes ("folders"), each ending in the delimiter. */
  readonly prefixes: readonly string[];
  /** Keys and folders whose URL encoding is broken, as the store sent them: left out of the rest, and said. */
  readonly unreadable?: readonly string[];
}

export interface ListOptions {
  readonly bucket: string;
  readonly prefix?: string;
  /** "/" to browse one level; undefined to list everything below the prefix. */
  readonly delimiter?: string;
  readonly signal?: AbortSignal;
  readonly pageSize?: number;
  /** Begin after this key (a resumed listing). */
  readonly startAfter?: string;
  /** False: each page is asked once, and the caller retries it (a job's request, in its scheduler). */
  readonly retry?: boolean;
}

/**
 * S3's URL encoding of listing results: "+" is a space, "%2B" a plus. Undefined where the encoding
 * is broken ("%zz", a "%" with no two hex digits, bytes that are not UTF-8): one such key from a
 * faulty store must not end the whole listing.
 */
export function decodeListingKey(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * Where a versions listing's next page starts: the page's NextKeyMarker, decoded. Ceph's gateway
 * sends that marker as the key itself though it sends the keys URL-encoded. Decoding it then fails
 * on "100%", which ends the listing, or turns "a%41" into "aA" and skips what lies between. S3's
 * marker is the page's last key, so a marker that is exactly that key, decoded, is taken as sent.
 * Undefined where the marker's encoding is broken.
 */
export function versionsKeyMarker(sent: string, encoded: boolean, listed: Iterable<string>): string | undefined {
  if (!encoded) return sent;
  let last: string | undefined;
  for (const key of listed) if (last === undefined || compareUtf8(key, last) > 0) last = key;
  return sent === last ? sent : decodeListingKey(sent);
}

/**
 * The markers a versions listing has asked with, and whether the store names one of them again: a
 * store that sends the listing back to a page it gave (the same page, or one two pages back) would be
 * followed forever. Undefined where `next` is new (it is then noted) or ends the listing.
 */
export function namesAPageAgain(
  bucket: string,
  asked: Set<string>,
  next: { key: string | undefined; versionId: string | undefined },
): BargeError | undefined {
  if (next.key === undefined) return undefined;
  const markers = `${next.key}\u0000${next.versionId ?? ''}`;
  if (!asked.has(markers)) {
    asked.add(markers);
    return undefined;
  }
  return new BargeError(
    'ListingRepeats',
    `The store sent the listing of the versions in s3://${bucket} back to a page it had given (after ` +
      `"${next.key}"): the listing cannot go on. The store is faulty: tell its operator.`,
  );
}

/**
 * Where a listing of every version has got to: the markers of its next page. A marker whose encoding
 * is broken ends it with an error, and so does a store that sends it back to a page it gave.
 */
export class VersionsMarkers {
  key: string | undefined;
  versionId: string | undefined;
  /** Every pair of markers asked with (namesAPageAgain). */
  private readonly asked = new Set<string>();
  private readonly bucket: string;

  constructor(bucket: string) {
    this.bucket = bucket;
  }

  /** Past `page`, whose readable keys (decoded) are `listed`: false where it was the last. */
  passed(page: ListObjectVersionsCommandOutput, listed: Iterable<string>): boolean {
    const sent = page.IsTruncated === true ? page.NextKeyMarker : undefined;
    if (sent === undefined) return false;
    // With EncodingType=url the marker comes encoded too (but see versionsKeyMarker); it goes back
    // decoded (the SDK encodes it).
    const key = versionsKeyMarker(sent, page.EncodingType === 'url', listed);
    if (key === undefined) throw unreadableMarkerError(this.bucket, sent);
    const repeated = namesAPageAgain(this.bucket, this.asked, { key, versionId: page.NextVersionIdMarker });
    if (repeated) throw repeated;
    this.key = key;
    this.versionId = page.NextVersionIdMarker;
    return true;
  }
}

/** A versions page ended at a marker whose URL encoding is broken: where the next page starts cannot be said. */
export function unreadableMarkerError(bucket: string, sent: string): BargeError {
  return new BargeError(
    'UnreadableKey',
    `The store ended a page of the versions of s3://${bucket} at a key whose URL encoding is broken ` +
      `("${sent}"): the listing cannot go on past it. The store is faulty: tell its operator.`,
  );
}

/** What a job says of a key whose URL encoding the store broke. */
export function unreadableKeyError(bucket: string, sent: string, what: string): BargeError {
  return new BargeError(
    'UnreadableKey',
    `The store listed a key of s3://${bucket} whose URL encoding is broken ("${sent}", as it sent it): what ` +
      `the key is cannot be known, so it was not ${what}. The store is faulty: tell its operator.`,
  );
}

/**
 * Every page below a prefix. The next page is asked for before this one is handed on: a store takes
 * tens of milliseconds a page, and the caller's work on a page (a sync's comparison, a delete's
 * batch) then overlaps it rather than adding to it. A caller that stops early leaves one page's
 * answer unread, at most.
 */
export async function* listObjectPages(connection: S3Connection, options: ListOptions): AsyncGenerator<ListingPage> {
  let asked = listObjectsPage(connection, options);
  for (;;) {
    const page = await asked;
    const token = page.nextToken;
    if (!token) {
      yield page;
      return;
    }
    asked = listObjectsPage(connection, options, token);
    // Awaited on the next turn; a caller gone by then must not leave its failure unhandled.
    asked.catch(() => undefined);
    yield page;
  }
}

/** One page; `nextToken` continues the listing, absent on the last page. */
export async function listObjectsPage(
  connection: S3Connection,
  options: ListOptions,
  token?: string,
): Promise<ListingPage & { nextToken: string | undefined }> {
  const ask = () =>
    connection.wire.listObjectsV2(
      options.bucket,
      {
        prefix: options.prefix,
        delimiter: options.delimiter,
        continuationToken: token,
        startAfter: options.startAfter,
        maxKeys: options.pageSize,
      },
      options.signal,
    );
  const page = options.retry === false ? await ask() : await withRetry(ask, { signal: options.signal });
  const unreadable: string[] = [];
  const decode = (text: string) => {
    const decoded = page.urlEncoded ? decodeListingKey(text) : text;
    if (decoded === undefined) unreadable.push(text);
    return decoded;
  };
  const objects: ObjectEntry[] = [];
  for (const o of page.contents) {
    const key = decode(o.key);
    if (key === undefined) continue;
    const object = {
      key,
      size: o.size,
      lastModified: o.lastModified ? Date.parse(o.lastModified) : undefined,
      etag: o.etag,
      storageClass: o.storageClass,
    };
    objects.push(o.badSize === undefined ? object : { ...object, badSize: o.badSize });
  }
  const prefixes = page.commonPrefixes.map(decode).filter((prefix) => prefix !== undefined);
  return {
    objects,
    prefixes,
    ...(unreadable.length ? { unreadable } : {}),
    nextToken: page.isTruncated ? page.nextContinuationToken : undefined,
  };
}

/** Every object below a prefix, one at a time; a key whose URL encoding is broken too, marked `unreadable`. */
export async function* listAllObjects(
  connection: S3Connection,
  options: Omit<ListOptions, 'delimiter'>,
): AsyncGenerator<ObjectEntry> {
  for await (const page of listObjectPages(connection, options)) {
    yield* page.objects;
    for (const sent of page.unreadable ?? [])
      yield { key: sent, unreadable: true, size: 0, lastModified: undefined, etag: undefined, storageClass: undefined };
  }
}

export interface VersionEntry {
  /** The key; for an `unreadable` one, the text the store sent. */
  readonly key: string;
  /** The store listed this key with a URL encoding that is broken: no request can name it. */
  readonly unreadable?: true;
  readonly versionId: string;
  readonly size: number;
  readonly isDeleteMarker: boolean;
  /** What an object filter looks at (src/object-filter.ts); a delete marker has no storage class. */
  readonly lastModified: number | undefined;
  readonly storageClass: string | undefined;
}

/** Every version and delete marker below a prefix (for "delete all versions"). */
export async function* listAllVersions(
  connection: S3Connection,
  options: Omit<ListOptions, 'delimiter'>,
): AsyncGenerator<VersionEntry> {
  const next = new VersionsMarkers(options.bucket);
  for (;;) {
    const page = await withRetry(
      () =>
        connection.client.send(
          new ListObjectVersionsCommand({
            Bucket: options.bucket,
            Prefix: options.prefix || undefined,
            KeyMarker: next.key,
            VersionIdMarker: next.versionId,
            EncodingType: 'url',
          }),
          { abortSignal: options.signal },
        ),
      { signal: options.signal },
    );
    const encoded = page.EncodingType === 'url';
    const listed: string[] = [];
    const entry = (text: string) => {
      const key = encoded ? decodeListingKey(text) : text;
      if (key !== undefined) listed.push(key);
      return key === undefined ? { key: text, unreadable: true as const } : { key };
    };
    for (const v of page.Versions ?? [])
      yield {
        ...entry(v.Key ?? ''),
        versionId: v.VersionId ?? 'null',
        size: v.Size ?? 0,
        isDeleteMarker: false,
        lastModified: v.LastModified?.getTime(),
        storageClass: v.StorageClass,
      };
    for (const m of page.DeleteMarkers ?? [])
      yield {
        ...entry(m.Key ?? ''),
        versionId: m.VersionId ?? 'null',
        size: 0,
        isDeleteMarker: true,
        lastModified: m.LastModified?.getTime(),
        storageClass: undefined,
      };
    if (!next.passed(page, listed)) return;
  }
}

export interface BucketEntry {
  readonly name: string;
  readonly createdAt: number | undefined;
}

export async function listBuckets(connection: S3Connection): Promise<BucketEntry[]> {
  const result = await withRetry(() => connection.client.send(new ListBucketsCommand({})));
  return (result.Buckets ?? []).map((b) => ({ name: b.Name ?? '', createdAt: b.CreationDate?.getTime() }));
}

export interface ObjectDetails {
  readonly key: string;
  readonly size: number;
  readonly etag: string | undefined;
  readonly lastModified: number | undefined;
  readonly contentType: string | undefined;
  /** How caches may keep it (Cache-Control), as stored with it. */
  readonly cacheControl?: string;
  readonly versionId: string | undefined;
  readonly storageClass: string | undefined;
  readonly metadata: Readonly<Record<string, string>>;
}

/** Object details, retried; inside a job, use `headObjectOnce` (the job retries). */
export async function headObject(
  connection: S3Connection,
  bucket: string,
  key: string,
  signal?: AbortSignal,
): Promise<ObjectDetails> {
  return withRetry(() => headObjectOnce(connection, bucket, key, signal), { signal });
}

export async function headObjectOnce(
  connection: S3Connection,
  bucket: string,
  key: string,
  signal?: AbortSignal,
): Promise<ObjectDetails> {
  let head;
  try {
    head = await connection.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
  } catch (error) {
    throw await explainHeadFailure(connection, bucket, key, error, signal);
  }
  return {
    key,
    size: head.ContentLength ?? 0,
    etag: head.ETag,
    lastModified: head.LastModified?.getTime(),
    contentType: head.ContentType,
    cacheControl: head.CacheControl,
    versionId: head.VersionId,
    storageClass: head.StorageClass,
    metadata: head.Metadata ?? {},
  };
}

/**
 * A HEAD's answer has no body, so a refusal is only a status: 404 for a missing bucket as for a
 * missing key, 403 for wrong credentials as for a denied object. A one-key listing of the same
 * place answers with S3's own code (NoSuchBucket, InvalidAccessKeyId, SignatureDoesNotMatch...):
 * that is the error to report. If the listing works, the HEAD meant the object itself.
 */
export async function explainHeadFailure(
  connection: S3Connection,
  bucket: string,
  key: string,
  error: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const status = httpStatus(error);
  // A refusal for the region has taught the bucket's region: the HEAD goes again, there.
  if (regionRedirectOf(error) !== undefined) return error;
  if (signal?.aborted || (status !== 404 && status !== 403 && status !== 400 && status !== 301)) return error;
  try {
    await connection.wire.listObjectsV2(bucket, { prefix: key, maxKeys: 1 }, signal);
  } catch (listError) {
    return httpStatus(listError) ? listError : error;
  }
  return status === 404
    ? Object.assign(new Error(`The object s3://${bucket}/${key} does not exist.`), {
        name: 'NoSuchKey',
        $metadata: { httpStatusCode: 404 },
      })
    : error;
}

export interface MultipartUploadEntry {
  readonly key: string;
  readonly uploadId: string;
  readonly initiated: number | undefined;
}

/**
 * Incomplete multipart uploads (parts stored and billed, but no object) below a prefix (a folder:
 * "logs" is "logs/…", never "logs2/…").
 *
 * The prefix is applied here, not sent: MinIO treats ListMultipartUploads' Prefix as an exact key
 * and answers a real prefix with nothing, which would hide the very leftovers this is for.
 * `signal`: a job's cancel (a delete that aborts them must not wait out a silent store's retries).
 */
export async function* listMultipartUploads(
  connection: S3Connection,
  bucket: string,
  rawPrefix = '',
  signal?: AbortSignal,
): AsyncGenerator<MultipartUploadEntry> {
  const prefix = asFolderPrefix(rawPrefix);
  for await (const upload of uploadsListed(connection, bucket, undefined, signal))
    if (upload.key.startsWith(prefix)) yield upload;
}

/**
 * Incomplete multipart uploads of exactly this key. Prefix is sent as the key itself: MinIO reads it
 * as an exact key, other stores as a prefix, and the equality check keeps only the key either way.
 */
export async function* listUploadsOfKey(
  connection: S3Connection,
  bucket: string,
  key: string,
): AsyncGenerator<MultipartUploadEntry> {
  for await (const upload of uploadsListed(connection, bucket, key)) if (upload.key === key) yield upload;
}

/** Every upload ListMultipartUploads gives, page after page, for the Prefix sent (if any). */
async function* uploadsListed(
  connection: S3Connection,
  bucket: string,
  sentPrefix: string | undefined,
  signal?: AbortSignal,
): AsyncGenerator<MultipartUploadEntry> {
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  do {
    const page = await withRetry(
      () =>
        connection.client.send(
          new ListMultipartUploadsCommand({
            Bucket: bucket,
            Prefix: sentPrefix,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
          { abortSignal: signal },
        ),
      { signal },
    );
    for (const u of page.Uploads ?? [])
      yield { key: u.Key ?? '', uploadId: u.UploadId ?? '', initiated: u.Initiated?.getTime() };
    const more = page.IsTruncated === true;
    keyMarker = more ? page.NextKeyMarker : undefined;
    uploadIdMarker = more ? page.NextUploadIdMarker : undefined;
  } while (keyMarker);
}
