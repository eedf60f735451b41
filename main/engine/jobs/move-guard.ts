// Before a move between two connections deletes its source: is the source still the object that was read?
//
// Two connections may reach one store whatever their endpoints say (a proxy, a DNS alias): a move of a
// key onto the same name there streams the object onto itself, and deleting "the source" then deletes
// the only copy. So the source is looked at again (HEAD) before it is deleted. If its ETag or date is
// not what was read at the start, it was overwritten (by this copy onto itself, or by someone else):
// it is kept. If it looks just like the copy (same ETag, same date, same size), the two may be one
// object (a copy onto itself within the same second): it is kept too. Either way the item fails with
// the reason, and nothing is lost.

import { BargeError, errorCode } from '../errors.ts';
import type { CopySource, ObjectPlace } from '../s3/object-copy.ts';
import { headObjectOnce } from '../s3/s3-listing.ts';
import type { S3Connection } from '../s3/s3-connection.ts';

type Request = <T>(send: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/** Throws (SourceKept) when the moved source must not be deleted; resolves when it may be. */
export async function checkSourceBeforeDelete(
  from: S3Connection,
  source: CopySource,
  to: S3Connection,
  target: ObjectPlace,
  request: Request,
): Promise<void> {
  const where = `s3://${source.bucket}/${source.key}`;
  const there = `s3://${target.bucket}/${target.key}`;
  const now = await request((signal) => headObjectOnce(from, source.bucket, source.key, signal)).catch(missing);
  // Gone already (deleted by someone else): there is nothing left to delete, and the copy stands.
  if (now === undefined) return;
  const readModified = source.head.LastModified?.getTime();
  if (now.etag !== source.etag || now.lastModified !== readModified)
    throw new BargeError(
      'SourceKept',
      `${where} was kept, not deleted: it changed while it was moved (its ETag or date is not what was read), ` +
        `so it may be the copy itself (the two connections reach one store) or another writer's. ` +
        `${there} holds the object as it was read; delete the source yourself if you are sure.`,
    );
  const copy = await request((signal) => headObjectOnce(to, target.bucket, target.key, signal));
  if (copy.etag === now.etag && copy.lastModified === now.lastModified && copy.size === now.size)
    throw new BargeError(
      'SourceKept',
      `${where} was kept, not deleted: it cannot be told from its copy ${there} (same ETag, date and size), ` +
        `so the two connections may reach one store and the copy be the source itself. ` +
        `Check both; delete the source yourself if they are two.`,
    );
}

function missing(error: unknown): undefined {
  if (['NoSuchKey', 'NotFound'].includes(errorCode(error) ?? '')) return undefined;
  throw error;
}
