// How much a prefix holds: objects and bytes per storage class, counted from its listing a stretch at a time.
//
// A prefix of millions of keys takes minutes to list, so the count is given back in stretches of a few
// pages, each with the token to go on from: the caller adds them up, shows running totals, and stops by
// not asking for the next (nothing runs on in the engine after a caller is gone).
// With `versions`, ListObjectVersions: noncurrent versions counted apart, delete markers counted too.
// A wildcard key and a filter (src/object-filter.ts) count only what they select: the store lists
// the literal part before the first wildcard, and each entry is matched as it is read.

import { ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import type { PrefixSize, SizeByClass } from '../../../src/prefix-size.ts';
import { filterBase, isFiltering, objectMatcher, wildcardPrefix } from '../../../src/object-filter.ts';
import type { FilterableObject, ObjectFilter } from '../../../src/object-filter.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { BargeError } from '../errors.ts';
import type { S3Connection } from './s3-connection.ts';
import { listObjectsPage } from './s3-listing.ts';
import { readablePartOf } from '../../../src/unreadable-key.ts';

/** Listing pages read by one call: 10,000 keys, about a second on a local store, so totals move often. */
export const SIZE_PAGES_PER_CALL = 10;

/** What S3 calls an object listed without a storage class. */
const DEFAULT_STORAGE_CLASS = 'STANDARD';

export interface PrefixSizeOptions {
  readonly bucket: string;
  readonly prefix: string;
  readonly versions: boolean;
  /** A wildcard key (below `prefix`'s bucket): only the objects it matches whole are counted. */
  readonly pattern?: string;
  /** Only the objects (and versions) this keeps are counted. */
  readonly filter?: ObjectFilter;
  /** Where the previous stretch ended (its `nextToken`). */
  readonly token?: string;
  readonly signal?: AbortSignal;
}

/** One stretch of the count: a few pages' objects and bytes, and where to go on, if anywhere. */
export async function countPrefixSize(connection: S3Connection, options: PrefixSizeOptions): Promise<PrefixSize> {
  const { pattern, filter } = options;
  const selects =
    isFiltering(filter) || pattern !== undefined
      ? objectMatcher(filter, pattern === undefined ? options.prefix : filterBase(pattern), pattern)
      : undefined;
  const tally = new SizeTally(selects);
  const listed = { ...options, prefix: pattern === undefined ? options.prefix : wildcardPrefix(pattern) };
  const token = options.versions
    ? await countVersions(connection, listed, tally)
    : await countCurrent(connection, listed, tally);
  return { ...tally.result(), ...(token === undefined ? {} : { nextToken: token }) };
}

async function countCurrent(
  connection: S3Connection,
  options: PrefixSizeOptions,
  tally: SizeTally,
): Promise<string | undefined> {
  let token = options.token;
  for (let page = 0; page < SIZE_PAGES_PER_CALL; page++) {
    const listed = await listObjectsPage(
      connection,
      { bucket: options.bucket, prefix: options.prefix || undefined, signal: options.signal },
      token,
    );
    for (const entry of listed.objects) tally.add(entry, true);
    // A key the store sent with a broken URL encoding is still an object it holds; its listed size is not trusted.
    // A wildcard or glob judges it by its readable part, as a delete does (src/unreadable-key.ts).
    for (const sent of listed.unreadable ?? [])
      tally.add({ key: readablePartOf(sent), size: 0, lastModified: undefined, storageClass: undefined }, true);
    token = listed.nextToken;
    if (token === undefined) return undefined;
  }
  return token;
}

/** A versions listing goes on from two markers: they travel as one token, JSON of the pair. */
async function countVersions(
  connection: S3Connection,
  options: PrefixSizeOptions,
  tally: SizeTally,
): Promise<string | undefined> {
  let [keyMarker, versionMarker] =
    options.token === undefined ? [undefined, undefined] : versionsMarkers(options.token);
  for (let page = 0; page < SIZE_PAGES_PER_CALL; page++) {
    const listed = await withRetry(
      () =>
        connection.client.send(
          new ListObjectVersionsCommand({
            Bucket: options.bucket,
            Prefix: options.prefix || undefined,
            KeyMarker: keyMarker,
            VersionIdMarker: versionMarker,
          }),
          { abortSignal: options.signal },
        ),
      { signal: options.signal },
    );
    for (const version of listed.Versions ?? [])
      tally.add(
        {
          key: version.Key ?? '',
          size: version.Size ?? 0,
          lastModified: version.LastModified?.getTime(),
          storageClass: version.StorageClass,
        },
        version.IsLatest !== false,
      );
    for (const marker of listed.DeleteMarkers ?? []) tally.addDeleteMarker(marker.Key ?? '');
    if (listed.IsTruncated !== true || listed.NextKeyMarker === undefined) return undefined;
    keyMarker = listed.NextKeyMarker;
    versionMarker = listed.NextVersionIdMarker;
  }
  return JSON.stringify([keyMarker, versionMarker ?? null]);
}

function versionsMarkers(token: string): [string | undefined, string | undefined] {
  try {
    const pair: unknown = JSON.parse(token);
    if (
      Array.isArray(pair) &&
      pair.length === 2 &&
      typeof pair[0] === 'string' &&
      (pair[1] === null || typeof pair[1] === 'string')
    )
      return [pair[0], pair[1] ?? undefined];
  } catch {
    // Said below.
  }
  throw new BargeError(
    'InvalidToken',
    'That token is not one a size count of versions gave: count the size again from the start.',
  );
}

class SizeTally {
  private readonly classes = new Map<string, SizeByClass>();
  private deleteMarkers = 0;
  private readonly selects: ((object: FilterableObject) => boolean) | undefined;

  constructor(selects: ((object: FilterableObject) => boolean) | undefined) {
    this.selects = selects;
  }

  /** A delete marker, counted where the wildcard and the globs select its key (it has no size, date or class). */
  addDeleteMarker(key: string): void {
    if (this.selects === undefined || this.selects({ key, size: 0, lastModified: undefined, storageClass: undefined }))
      this.deleteMarkers += 1;
  }

  add(object: FilterableObject, current: boolean): void {
    if (this.selects && !this.selects(object)) return;
    const bytes = object.size;
    const name = object.storageClass || DEFAULT_STORAGE_CLASS;
    const was = this.classes.get(name) ?? {
      storageClass: name,
      objects: 0,
      bytes: 0,
      noncurrentObjects: 0,
      noncurrentBytes: 0,
    };
    this.classes.set(
      name,
      current
        ? { ...was, objects: was.objects + 1, bytes: was.bytes + bytes }
        : { ...was, noncurrentObjects: was.noncurrentObjects + 1, noncurrentBytes: was.noncurrentBytes + bytes },
    );
  }

  result(): Omit<PrefixSize, 'nextToken'> {
    return { classes: [...this.classes.values()], deleteMarkers: this.deleteMarkers };
  }
}
