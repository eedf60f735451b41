// Whether a store takes S3's conditional writes: If-None-Match: * on PutObject and on
// CompleteMultipartUpload, "store this only if nothing is under its key" (AWS since 2024, MinIO,
// versitygw, R2, Ceph's RGW).
//
// An upload that must not replace an object decides from a listing, then sends with this condition:
// an object another writer put there between the listing and the write is refused (412), not
// replaced. A store that refuses the header outright (501 NotImplemented) is remembered per
// connection and sent the write without it. A store that ignores the header cannot be told from
// one that takes it: there, an object written in that gap is replaced, as by any S3 client.

import { errorCode, httpStatus } from '../errors.ts';
import { headerNamedBy } from './checksum-headers.ts';
import type { S3Connection } from './s3-connection.ts';

export const IF_ABSENT_HEADERS: Readonly<Record<string, string>> = { 'if-none-match': '*' };

const refused = new WeakSet<S3Connection>();

/** Whether writes on this connection may carry the condition (until the store has refused it once). */
export function takesConditionalWrites(connection: S3Connection): boolean {
  return !refused.has(connection);
}

/**
 * A conditional write refused for its condition: remembered, and true, so the write goes again
 * without it. AWS-like stores name the header (501 NotImplemented, <Header>If-None-Match</Header>);
 * a 501 naming none was first read as a refusal of the checksum headers (checksum-headers.ts) and
 * sent again without them, so one that comes back again can only be about the condition.
 */
export function conditionRefused(connection: S3Connection, error: unknown): boolean {
  if (httpStatus(error) !== 501) return false;
  const named = headerNamedBy(error);
  if (named !== undefined && named.toLowerCase() !== 'if-none-match') return false;
  refused.add(connection);
  return true;
}

/** Something is under the key now (412): another writer's object, or this job's own earlier attempt. */
export function objectAppeared(error: unknown): boolean {
  return httpStatus(error) === 412 || errorCode(error) === 'PreconditionFailed';
}
