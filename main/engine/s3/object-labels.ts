// An object's metadata and tags edited in place: a copy of the object onto itself that replaces them.
//
// S3 has no call that changes user metadata: a CopyObject onto the same key with the REPLACE
// directive is the way (the AWS console does the same), and the server-side copy (object-copy.ts)
// keeps every other header, the storage class and the checksum, checking the result as any copy.

import { withRetry } from '../queue/retry-loop.ts';
import { copyObject, describeCopySource } from './object-copy.ts';
import type { S3Connection } from './s3-connection.ts';

/** Parts copied at once when the object is above CopyObject's 5 GiB and goes in parts. */
const EDIT_PARTS_IN_FLIGHT = 8;

export interface ObjectLabels {
  readonly metadata: Readonly<Record<string, string>>;
  readonly tags: Readonly<Record<string, string>>;
}

export async function replaceObjectLabels(
  connection: S3Connection,
  bucket: string,
  key: string,
  labels: ObjectLabels,
  partSizeBytes: number,
): Promise<void> {
  const requests = {
    request: <T>(send: (signal: AbortSignal) => Promise<T>) => withRetry(() => send(new AbortController().signal)),
    partsInFlight: () => EDIT_PARTS_IN_FLIGHT,
    partSizeBytes,
  };
  const place = { bucket, key };
  const source = await describeCopySource(connection, place, requests);
  await copyObject(connection, source, place, requests, { metadata: labels.metadata, tags: labels.tags });
}
