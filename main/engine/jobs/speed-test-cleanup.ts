// What a speed test leaves behind: nothing. Its prefix is emptied (every version of every object, where
// the bucket keeps versions, and every multipart upload begun there), then listed again to prove it.
//
// It runs after a test that ended, was cancelled or failed alike, and never on the test's own signal
// (which may be the cancel): a leftover is billed. What it cannot remove it names, with the prefix.

import { printable } from '../../../src/unsafe-text.ts';
import { formatS3Url } from '../../../src/s3-url.ts';
import type { SpeedTestCleanup } from '../../../src/speed-test.ts';
import { toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { abortIncompleteUploads } from '../s3/s3-buckets.ts';
import { deleteObjectBatch } from '../s3/object-deletes.ts';
import type { ObjectToDelete } from '../s3/object-deletes.ts';
import { listAllObjects, listAllVersions, listMultipartUploads, listObjectsPage } from '../s3/s3-listing.ts';
import type { S3Connection } from '../s3/s3-connection.ts';

const DELETE_BATCH = 1000;

export async function cleanUpSpeedTest(
  connection: S3Connection,
  bucket: string,
  prefix: string,
): Promise<SpeedTestCleanup> {
  const place = formatS3Url({ bucket, key: prefix });
  const problems: string[] = [];
  try {
    const aborted = await abortIncompleteUploads(connection, bucket, prefix);
    for (const failed of aborted.failed) problems.push(failed.error.message);
    await deleteAll(connection, bucket, await everything(connection, bucket, prefix), problems);
  } catch (error) {
    problems.push(toBargeError(error, `empty ${place}`).message);
  }
  // The proof: a listing of the prefix (objects, and versions where the store lists them) and its uploads.
  let objectsLeft: number | undefined;
  let uploadsLeft: number | undefined;
  try {
    objectsLeft = (await everything(connection, bucket, prefix)).length;
    let uploads = 0;
    for await (const _upload of listMultipartUploads(connection, bucket, prefix)) uploads += 1;
    uploadsLeft = uploads;
  } catch (error) {
    // Unknown, not 0: a listing that failed says nothing of what is there.
    problems.push(toBargeError(error, `list ${place} to check it is empty`).message);
  }
  const clean = problems.length === 0 && objectsLeft === 0 && uploadsLeft === 0;
  return {
    place,
    clean,
    objectsLeft,
    uploadsLeft,
    ...(clean ? {} : { problem: problems[0] ?? `${objectsLeft} objects and ${uploadsLeft} uploads are still there.` }),
  };
}

/**
 * Every version below the prefix; a store that lists no versions (ListObjectVersions not implemented,
 * as on R2) has only the objects' current ones, which a listing of the objects gives.
 */
async function everything(connection: S3Connection, bucket: string, prefix: string): Promise<ObjectToDelete[]> {
  try {
    const versions: ObjectToDelete[] = [];
    for await (const version of listAllVersions(connection, { bucket, prefix })) {
      // "null" by name too: deleted without one, a bucket whose versioning is suspended would add a marker.
      versions.push({ key: version.key, versionId: version.versionId });
    }
    return versions;
  } catch (error) {
    if (toBargeError(error).code !== 'NotImplemented') throw error;
  }
  const objects: ObjectToDelete[] = [];
  for await (const object of listAllObjects(connection, { bucket, prefix })) objects.push({ key: object.key });
  // A listing of one page proves nothing is left where versions cannot be listed.
  if (objects.length === 0) await listObjectsPage(connection, { bucket, prefix, pageSize: 1 });
  return objects;
}

async function deleteAll(
  connection: S3Connection,
  bucket: string,
  objects: readonly ObjectToDelete[],
  problems: string[],
): Promise<void> {
  for (let at = 0; at < objects.length; at += DELETE_BATCH) {
    const batch = objects.slice(at, at + DELETE_BATCH);
    const answer = await withRetry(() => deleteObjectBatch(connection, bucket, batch, new AbortController().signal));
    for (const refused of answer.Errors ?? [])
      // The store's own words, escapes and all: shown as text, never run by a terminal.
      problems.push(printable(`${refused.Key}: ${refused.Code} ${refused.Message ?? ''}`));
  }
}
