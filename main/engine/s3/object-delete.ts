// One object deleted by key: a move's last step, once its copy is verified.

import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import type { S3Connection } from './s3-connection.ts';

/** Delete `key` (its current version: a versioned bucket keeps the others, behind a delete marker). */
export async function deleteObjectOnce(
  connection: S3Connection,
  bucket: string,
  key: string,
  signal?: AbortSignal,
): Promise<void> {
  await connection.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
}
