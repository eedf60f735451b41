// Each key's versions and delete markers, newest first, key by key: what an undo or a restore to a
// moment reads.
//
// ListObjectVersions answers a page as two lists, versions and delete markers, and the SDK keeps them
// apart: the order of one key's entries is lost between them. They are put back together here, by
// key in the store's order, then latest first and newest first. A key whose entries run past the end
// of a page is held until the next page has given the rest.

import { ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import { compareUtf8 } from '../../../src/key-order.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { BargeError } from '../errors.ts';
import { decodeListingKey, VersionsMarkers } from './s3-listing.ts';
import type { S3Connection } from './s3-connection.ts';

export interface KeyVersion {
  readonly versionId: string;
  readonly isDeleteMarker: boolean;
  readonly isLatest: boolean;
  readonly lastModified: number | undefined;
  readonly size: number;
  readonly etag: string | undefined;
}

export interface KeyHistory {
  readonly key: string;
  /** Newest first: the first is the latest (the object as it reads now, or the marker that hides it). */
  readonly versions: readonly KeyVersion[];
}

/** Every key below `prefix` that has versions, with them; keys whose URL encoding is broken are left out. */
export async function* listKeyHistories(
  connection: S3Connection,
  options: { readonly bucket: string; readonly prefix: string; readonly signal?: AbortSignal },
): AsyncGenerator<KeyHistory> {
  const next = new VersionsMarkers(options.bucket);
  let held: { key: string; versions: KeyVersion[] } | undefined;
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
    const decoded = (text: string) => (page.EncodingType === 'url' ? decodeListingKey(text) : text);
    const entries: { key: string; version: KeyVersion }[] = [];
    for (const v of page.Versions ?? []) {
      const key = decoded(v.Key ?? '');
      if (key === undefined) continue;
      entries.push({
        key,
        version: {
          versionId: v.VersionId ?? 'null',
          isDeleteMarker: false,
          isLatest: v.IsLatest === true,
          lastModified: v.LastModified?.getTime(),
          size: v.Size ?? 0,
          etag: v.ETag,
        },
      });
    }
    for (const m of page.DeleteMarkers ?? []) {
      const key = decoded(m.Key ?? '');
      if (key === undefined) continue;
      entries.push({
        key,
        version: {
          versionId: m.VersionId ?? 'null',
          isDeleteMarker: true,
          isLatest: m.IsLatest === true,
          lastModified: m.LastModified?.getTime(),
          size: 0,
          etag: undefined,
        },
      });
    }
    entries.sort((a, b) => compareUtf8(a.key, b.key) || newestFirst(a.version, b.version));
    for (const { key, version } of entries) {
      if (held && held.key === key) {
        held.versions.push(version);
        continue;
      }
      if (held) yield settled(held);
      held = { key, versions: [version] };
    }
    // A page with more to come and no marker: where the next starts cannot be said.
    if (page.IsTruncated === true && page.NextKeyMarker === undefined)
      throw new BargeError(
        'UnreadableKey',
        `The store ended a page of the versions of s3://${options.bucket} with more to come and no marker: ` +
          `the listing cannot go on past it. The store is faulty: tell its operator.`,
      );
    // The page's last key may go on in the next page: it stays held until a later key (or the end) shows
    // it is done. NextKeyMarker cannot tell: MinIO's carries a suffix of its own ("k[minio_cache:v2,…]").
    const keys = entries.map((entry) => entry.key);
    if (!next.passed(page, keys)) break;
  }
  if (held) yield settled(held);
}

function settled(history: { key: string; versions: KeyVersion[] }): KeyHistory {
  history.versions.sort(newestFirst);
  return history;
}

/**
 * Whether the store's dates of a key's versions cannot be right: an older version dated after the
 * latest. (versitygw dates a version by when it was set aside, not when it was written.) A restore
 * to a moment reads the dates, and must not act on such a key.
 */
export function datesOutOfOrder(history: KeyHistory): boolean {
  const latest = history.versions[0]?.lastModified ?? 0;
  return history.versions.some((version) => (version.lastModified ?? 0) > latest);
}

/** The latest first, then by time, newest first. */
function newestFirst(a: KeyVersion, b: KeyVersion): number {
  if (a.isLatest !== b.isLatest) return a.isLatest ? -1 : 1;
  return (b.lastModified ?? 0) - (a.lastModified ?? 0);
}
