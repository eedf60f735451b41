// The part size a source object was uploaded in, so a copy can read it in the same parts.
//
// A source with no CRC whose ETag is a multipart one ("<md5>-N": the MD5 of its N parts' MD5s) can
// only be checked by reading it in the very parts it was uploaded in and computing that ETag again.
// A HEAD with PartNumber=1 gives part 1's size; the parts are taken as all of that size but the last,
// which holds only where N parts of it make the object. Where the store does not answer PartNumber,
// or the parts were of other sizes, there is no layout: the copy cannot be checked against the source.

import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { bareEtag } from '../integrity/checksums.ts';
import { errorCode } from '../errors.ts';
import type { CopyRequests, CopySource } from './object-copy.ts';
import type { S3Connection } from './s3-connection.ts';

const MULTIPART_ETAG = /^[0-9a-f]{32}-(\d+)$/;

/** The source's own part size, when its ETag is a multipart one and the store tells part 1's size. */
export async function sourcePartSize(
  from: S3Connection,
  source: CopySource,
  requests: Pick<CopyRequests, 'request'>,
): Promise<number | undefined> {
  const match = MULTIPART_ETAG.exec(source.etag === undefined ? '' : bareEtag(source.etag));
  if (!match) return undefined;
  const parts = Number(match[1]);
  const head = await requests
    .request((signal) =>
      from.client.send(
        new HeadObjectCommand({ Bucket: source.bucket, Key: source.key, PartNumber: 1, IfMatch: source.etag }),
        { abortSignal: signal },
      ),
    )
    .catch((error: unknown) => {
      // The object changed since it was described: its copy fails as any read of it would.
      if (errorCode(error) === 'PreconditionFailed') throw error;
      return undefined;
    });
  const partSize = head?.ContentLength ?? 0;
  if (partSize <= 0 || Math.ceil(source.size / partSize) !== parts) return undefined;
  if (head?.PartsCount !== undefined && head.PartsCount !== parts) return undefined;
  return partSize;
}
