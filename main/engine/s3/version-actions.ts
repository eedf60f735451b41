// What can be done to one version of a key: restore it (copied over as the latest), delete it for
// good, or undelete the key (its latest delete marker removed); and how a version that is not there
// is said.
//
// S3 answers a DeleteObject of a version that does not exist with success, and a HEAD of one with a
// bare 404 (or 400 for an ID of the wrong form): each action looks the version up first, so a typo
// in a version ID fails by name (NoSuchVersion) rather than doing nothing or something else.

import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import type { ObjectVersionRow } from '../../../src/contract/models.ts';
import { BargeError, errorCode, httpStatus } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { regionRedirectOf } from '../queue/retry-policy.ts';
import { copyObject, describeCopySource } from './object-copy.ts';
import { listVersionsPage } from './object-versions.ts';
import { explainHeadFailure } from './s3-listing.ts';
import type { S3Connection } from './s3-connection.ts';

/** Parts copied at once when a version above CopyObject's 5 GiB is restored in parts. */
const RESTORE_PARTS_IN_FLIGHT = 8;

export interface VersionPlace {
  readonly bucket: string;
  readonly key: string;
  readonly versionId: string;
}

/** A version ID the key does not have. */
export function noSuchVersion(place: VersionPlace): BargeError {
  return new BargeError(
    'NoSuchVersion',
    `s3://${place.bucket}/${place.key} has no version "${place.versionId}" (NoSuchVersion): list its versions ` +
      `with barge ls --versions s3://${place.bucket}/${place.key}, or Show versions in the window.`,
  );
}

/** A version that is a delete marker, asked for its bytes. */
export function isADeleteMarker(place: VersionPlace): BargeError {
  return new BargeError(
    'IsADeleteMarker',
    `Version "${place.versionId}" of s3://${place.bucket}/${place.key} is a delete marker: it has no bytes. ` +
      `Choose a version that holds the object, or undelete the key (remove the marker).`,
  );
}

/**
 * Why a HEAD (or GET) of a named version failed: the bucket's or the credentials' own refusal where
 * a listing shows one (explainHeadFailure), else that version is not there (404, or 400 for an ID
 * of a form the store never gives) or is a delete marker (405).
 */
export async function explainVersionFailure(
  connection: S3Connection,
  place: VersionPlace,
  error: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const status = httpStatus(error);
  // A refusal for the region is no answer about the version: the request goes again, there.
  if (regionRedirectOf(error) !== undefined) return error;
  if (status === 405 || errorCode(error) === 'MethodNotAllowed') return isADeleteMarker(place);
  const explained = await explainHeadFailure(connection, place.bucket, place.key, error, signal);
  // The listing of the key answered (a missing bucket or wrong keys would have said so): the version is not there.
  const missing = ['NoSuchKey', 'NotFound', 'NoSuchVersion'].includes(errorCode(explained));
  if (missing || (explained === error && (status === 400 || status === 404))) return noSuchVersion(place);
  return explained;
}

/** One version's size, ETag and date, asked once (a job retries); NoSuchVersion or IsADeleteMarker by name. */
export async function headVersionOnce(
  connection: S3Connection,
  place: VersionPlace,
  signal?: AbortSignal,
): Promise<{ size: number; etag: string | undefined; lastModified: number | undefined }> {
  try {
    const head = await connection.client.send(
      new HeadObjectCommand({ Bucket: place.bucket, Key: place.key, VersionId: place.versionId }),
      { abortSignal: signal },
    );
    return { size: head.ContentLength ?? 0, etag: head.ETag, lastModified: head.LastModified?.getTime() };
  } catch (error) {
    throw await explainVersionFailure(connection, place, error, signal);
  }
}

/**
 * Every version and delete marker of exactly this key, newest first. Listed with "/" as delimiter:
 * keys below "key/" fold into one folder, so a key that is also a folder's name costs one page.
 */
export async function versionsOfKey(
  connection: S3Connection,
  bucket: string,
  key: string,
  signal?: AbortSignal,
): Promise<ObjectVersionRow[]> {
  const found: ObjectVersionRow[] = [];
  let token: string | undefined;
  do {
    const page = await listVersionsPage(connection, { bucket, prefix: key, delimiter: '/', signal }, token);
    found.push(...page.versions.filter((v) => v.key === key));
    // Keys come in order: past this one, none of its versions can follow.
    if (page.versions.some((v) => v.key > key)) break;
    token = page.nextToken;
  } while (token !== undefined);
  return found;
}

/** The version named, as listed; NoSuchVersion where the key has none of that ID. */
async function listedVersion(connection: S3Connection, place: VersionPlace): Promise<ObjectVersionRow> {
  const versions = await versionsOfKey(connection, place.bucket, place.key);
  const version = versions.find((v) => v.versionId === place.versionId);
  if (!version) throw noSuchVersion(place);
  return version;
}

/**
 * Restore a version: the store copies it onto its own key, where it becomes the latest (the
 * versions after it stay, older). Checked as every copy is; answers the new latest's ETag and ID.
 */
export async function restoreVersion(
  connection: S3Connection,
  place: VersionPlace,
  partSizeBytes: number,
  /** Above this many bytes the copy goes in parts (default and most: CopyObject's 5 GiB). */
  multipartThresholdBytes?: number,
): Promise<{ etag: string | undefined; size: number }> {
  const requests = {
    request: <T>(send: (signal: AbortSignal) => Promise<T>) => withRetry(() => send(new AbortController().signal)),
    partsInFlight: () => RESTORE_PARTS_IN_FLIGHT,
    partSizeBytes,
    ...(multipartThresholdBytes === undefined ? {} : { multipartThresholdBytes }),
  };
  let source;
  try {
    source = await describeCopySource(connection, place, requests);
  } catch (error) {
    throw await explainVersionFailure(connection, place, error);
  }
  const outcome = await copyObject(
    connection,
    { ...source, versionId: place.versionId, versionPinned: true },
    { bucket: place.bucket, key: place.key },
    requests,
  );
  return { etag: outcome.etag, size: outcome.size };
}

/** Delete one version (or delete marker) for good: no marker is left, and nothing brings it back. */
export async function deleteVersion(connection: S3Connection, place: VersionPlace): Promise<ObjectVersionRow> {
  const version = await listedVersion(connection, place);
  await withRetry(() =>
    connection.client.send(
      new DeleteObjectCommand({ Bucket: place.bucket, Key: place.key, VersionId: place.versionId }),
    ),
  );
  return version;
}

/**
 * Undelete a key: remove its latest version when that is a delete marker (the one named, where
 * `markerVersionId` is given), so the version before it is the key's again. Answers the marker
 * removed. Refused, saying what the key's latest is, where it is no marker.
 */
export async function undeleteKey(
  connection: S3Connection,
  where: { readonly bucket: string; readonly key: string; readonly markerVersionId?: string },
  versioning: () => Promise<string>,
): Promise<ObjectVersionRow> {
  const versions = await versionsOfKey(connection, where.bucket, where.key);
  const latest = versions.find((v) => v.isLatest);
  const url = `s3://${where.bucket}/${where.key}`;
  if (where.markerVersionId !== undefined && !versions.some((v) => v.versionId === where.markerVersionId))
    throw noSuchVersion({ ...where, versionId: where.markerVersionId });
  if (!latest?.isDeleteMarker) {
    const state = await versioning().catch(() => undefined);
    const why =
      latest === undefined
        ? state === 'off'
          ? `it has no versions: versioning was never enabled on bucket ${where.bucket}, so a delete there ` +
            `removed it for good`
          : 'it has no versions or delete markers'
        : 'its latest version is the object itself, not a delete marker';
    throw new BargeError('NotDeleted', `${url} is not deleted: ${why}. Nothing was changed.`);
  }
  if (where.markerVersionId !== undefined && latest.versionId !== where.markerVersionId)
    throw new BargeError(
      'NotLatestMarker',
      `Delete marker "${where.markerVersionId}" of ${url} is not its latest version ("${latest.versionId}" is): ` +
        `removing it would not bring the key back. Nothing was changed.`,
    );
  await withRetry(() =>
    connection.client.send(
      new DeleteObjectCommand({ Bucket: where.bucket, Key: where.key, VersionId: latest.versionId }),
    ),
  );
  return latest;
}
