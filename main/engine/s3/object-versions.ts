// A prefix's versions and delete markers, a page at a time, one level ("folders") or all below.
//
// ListObjectVersions answers versions and delete markers in two lists (the SDK splits the XML's one
// order): a page merges them again, each key's newest first, so a table shows a key's history in one
// run of rows. The continuation is S3's pair of markers (key and version ID), carried as one token.

import { ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import type { ObjectVersionRow, VersionPage } from '../../../src/contract/models.ts';
import { BargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { decodeListingKey, unreadableMarkerError, versionsKeyMarker } from './s3-listing.ts';
import type { S3Connection } from './s3-connection.ts';

export interface VersionListOptions {
  readonly bucket: string;
  readonly prefix?: string;
  /** "/" to browse one level; undefined for everything below the prefix. */
  readonly delimiter?: string;
  readonly pageSize?: number;
  readonly signal?: AbortSignal;
}

/** One page of versions below a prefix; `token` (from the last page's `nextToken`) goes on from there. */
export async function listVersionsPage(
  connection: S3Connection,
  options: VersionListOptions,
  token?: string,
): Promise<VersionPage> {
  const from = token === undefined ? undefined : markersOf(token);
  const page = await withRetry(
    () =>
      connection.client.send(
        new ListObjectVersionsCommand({
          Bucket: options.bucket,
          Prefix: options.prefix || undefined,
          Delimiter: options.delimiter,
          MaxKeys: options.pageSize,
          KeyMarker: from?.key,
          VersionIdMarker: from?.versionId,
          EncodingType: 'url',
        }),
        { abortSignal: options.signal },
      ),
    { signal: options.signal },
  );
  const encoded = page.EncodingType === 'url';
  const unreadable: string[] = [];
  const decode = (text: string) => {
    const decoded = encoded ? decodeListingKey(text) : text;
    if (decoded === undefined) unreadable.push(text);
    return decoded;
  };
  const versions: ObjectVersionRow[] = [];
  for (const v of page.Versions ?? []) {
    const key = decode(v.Key ?? '');
    if (key === undefined) continue;
    versions.push({
      key,
      versionId: v.VersionId ?? 'null',
      size: v.Size ?? 0,
      ...(v.LastModified ? { lastModified: v.LastModified.getTime() } : {}),
      ...(v.ETag ? { etag: v.ETag } : {}),
      isLatest: v.IsLatest === true,
      isDeleteMarker: false,
      ...(v.StorageClass ? { storageClass: v.StorageClass } : {}),
    });
  }
  for (const m of page.DeleteMarkers ?? []) {
    const key = decode(m.Key ?? '');
    if (key === undefined) continue;
    versions.push({
      key,
      versionId: m.VersionId ?? 'null',
      size: 0,
      ...(m.LastModified ? { lastModified: m.LastModified.getTime() } : {}),
      isLatest: m.IsLatest === true,
      isDeleteMarker: true,
    });
  }
  versions.sort(newestFirstByKey);
  // A page begins after its markers; versitygw begins at them when the version marker is a delete
  // marker, and would list that marker twice.
  if (from?.versionId !== undefined && versions[0]?.key === from.key && versions[0].versionId === from.versionId)
    versions.shift();
  const prefixes = (page.CommonPrefixes ?? [])
    .map((p) => decode(p.Prefix ?? ''))
    .filter((p): p is string => p !== undefined && p !== '');
  const more = page.IsTruncated === true && page.NextKeyMarker !== undefined;
  const listed = [...versions.map((version) => version.key), ...prefixes];
  const nextKey = more ? versionsKeyMarker(page.NextKeyMarker!, encoded, listed) : undefined;
  if (more && nextKey === undefined) throw unreadableMarkerError(options.bucket, page.NextKeyMarker!);
  return {
    versions,
    prefixes,
    ...(unreadable.length > 0 ? { unreadable } : {}),
    ...(nextKey === undefined ? {} : { nextToken: tokenOf(nextKey, page.NextVersionIdMarker) }),
  };
}

/** Keys in byte order (S3's), each key's latest first, then newest to oldest. */
function newestFirstByKey(a: ObjectVersionRow, b: ObjectVersionRow): number {
  if (a.key !== b.key) return Buffer.compare(Buffer.from(a.key), Buffer.from(b.key));
  if (a.isLatest !== b.isLatest) return a.isLatest ? -1 : 1;
  return (b.lastModified ?? 0) - (a.lastModified ?? 0);
}

function tokenOf(key: string, versionId: string | undefined): string {
  return JSON.stringify(versionId === undefined ? [key] : [key, versionId]);
}

function markersOf(token: string): { key: string; versionId: string | undefined } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(token);
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length < 1 ||
    parsed.length > 2 ||
    !parsed.every((part) => typeof part === 'string')
  )
    throw new BargeError(
      'InvalidRequest',
      'That continuation token is not one a listing of versions gave: list again.',
    );
  return { key: parsed[0] as string, versionId: parsed[1] as string | undefined };
}
