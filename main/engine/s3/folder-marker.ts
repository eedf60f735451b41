// A new, empty folder: a zero-byte object whose key ends in "/", the marker the AWS console and
// Cyberduck make, so the folder shows in every listing before anything is put in it.
//
// Refused when the folder is already there (its marker or any key below it), decided by a listing of
// one key; the PUT then carries If-None-Match, so a marker another client made in between is not
// replaced (on a store that refuses the condition, as any client would, it is).

import { folderMarkerKey, newFolderNameProblem } from '../../../src/entry-names.ts';
import { asFolderPrefix } from '../../../src/s3-url.ts';
import { printable } from '../../../src/unsafe-text.ts';
import { BargeError, toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { conditionRefused, IF_ABSENT_HEADERS, objectAppeared, takesConditionalWrites } from './conditional-writes.ts';
import type { S3Connection } from './s3-connection.ts';
import { listObjectsPage } from './s3-listing.ts';

/** Make folder `name` in `prefix` of `bucket`; answers the marker's key. InvalidFolderName, FolderExists. */
export async function makeFolderMarker(
  connection: S3Connection,
  bucket: string,
  prefix: string,
  name: string,
): Promise<string> {
  prefix = asFolderPrefix(prefix);
  const problem = newFolderNameProblem(prefix, name);
  if (problem) throw new BargeError('InvalidFolderName', problem);
  const key = folderMarkerKey(prefix, name);
  const exists = () =>
    new BargeError(
      'FolderExists',
      `s3://${bucket}/${printable(key)} is already there: choose another name, or open that folder.`,
    );
  try {
    const below = await listObjectsPage(connection, { bucket, prefix: key, pageSize: 1 });
    if (below.objects.length > 0 || below.prefixes.length > 0) throw exists();
    await withRetry(() => putMarker(connection, bucket, key));
  } catch (error) {
    if (error instanceof BargeError) throw error;
    if (objectAppeared(error)) throw exists();
    throw toBargeError(error, `make the folder s3://${bucket}/${key}`);
  }
  return key;
}

async function putMarker(connection: S3Connection, bucket: string, key: string): Promise<void> {
  const conditional = takesConditionalWrites(connection);
  try {
    await connection.wire.putObject(bucket, key, Buffer.alloc(0), 0, conditional ? { ...IF_ABSENT_HEADERS } : {});
  } catch (error) {
    if (conditional && conditionRefused(connection, error)) return putMarker(connection, bucket, key);
    throw error;
  }
}
