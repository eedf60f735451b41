// Deleting objects: one version by its key, or up to 1,000 in one DeleteObjects.
//
// DeleteObjects answers 200 even when some keys failed; its per-key errors are the caller's to read.

import { DeleteObjectCommand, DeleteObjectsCommand } from '@aws-sdk/client-s3';
import type { DeleteObjectsCommandOutput } from '@aws-sdk/client-s3';
import type { S3Connection } from './s3-connection.ts';

/** Delete one object (the version named, or the current one when none is). */
export async function deleteObject(
  connection: S3Connection,
  where: { readonly bucket: string; readonly key: string; readonly versionId?: string | undefined },
  signal?: AbortSignal,
): Promise<void> {
  await connection.client.send(
    new DeleteObjectCommand({ Bucket: where.bucket, Key: where.key, VersionId: where.versionId }),
    signal ? { abortSignal: signal } : {},
  );
}

export interface ObjectToDelete {
  readonly key: string;
  readonly versionId?: string | undefined;
}

/**
 * One DeleteObjects of at most 1,000 objects. Quiet (the default) lists only failures; `quiet: false`
 * lists each object deleted too, with the delete marker it made (a bucket that keeps versions).
 */
export function deleteObjectBatch(
  connection: S3Connection,
  bucket: string,
  objects: readonly ObjectToDelete[],
  signal: AbortSignal,
  options: { readonly quiet?: boolean } = {},
): Promise<DeleteObjectsCommandOutput> {
  return connection.client.send(
    new DeleteObjectsCommand({
      Bucket: bucket,
      Delete: {
        Objects: objects.map((o) => ({ Key: o.key, VersionId: o.versionId })),
        Quiet: options.quiet ?? true,
      },
    }),
    { abortSignal: signal },
  );
}
