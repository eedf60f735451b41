// One object's whole description: its HEAD (with checksums asked for), its parts, tags, retention and legal hold.
//
// The HEAD must answer (it is the object); the other questions are each the store's to refuse: many
// S3-compatible stores have no Object Lock or no tagging, and a bucket without Object Lock refuses
// retention outright. A refusal there is said as "not available" with the store's code.

import {
  GetObjectLegalHoldCommand,
  GetObjectRetentionCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
} from '@aws-sdk/client-s3';
import type { HeadObjectCommandOutput } from '@aws-sdk/client-s3';
import type { Answered, ObjectStat } from '../../../src/object-stat.ts';
import { errorCode, toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import type { S3Connection } from './s3-connection.ts';
import { explainHeadFailure } from './s3-listing.ts';
import { explainVersionFailure } from './version-actions.ts';

export async function statObject(
  connection: S3Connection,
  bucket: string,
  key: string,
  signal?: AbortSignal,
  /** One version of the key, not its latest (stat --version-id). */
  versionId?: string,
): Promise<ObjectStat> {
  const version = versionId === undefined ? {} : { VersionId: versionId };
  const head = (partNumber?: number) =>
    withRetry(
      () =>
        connection.client.send(
          new HeadObjectCommand({
            Bucket: bucket,
            Key: key,
            ChecksumMode: 'ENABLED',
            PartNumber: partNumber,
            ...version,
          }),
          { abortSignal: signal },
        ),
      { signal },
    );
  let whole: HeadObjectCommandOutput;
  try {
    whole = await head();
  } catch (error) {
    const explained =
      versionId === undefined
        ? await explainHeadFailure(connection, bucket, key, error, signal)
        : await explainVersionFailure(connection, { bucket, key, versionId }, error, signal);
    throw toBargeError(explained, `stat s3://${bucket}/${key}`);
  }
  const multipartEtag = /-(\d+)"?$/.exec(whole.ETag ?? '');
  const [partsCount, tags, retention, legalHold] = await Promise.all([
    // Only a multipart object has parts to count: HEAD ?partNumber=1 says how many.
    multipartEtag
      ? head(1).then(
          (first) => first.PartsCount ?? Number(multipartEtag[1]),
          () => Number(multipartEtag[1]),
        )
      : Promise.resolve(undefined),
    answered(async () => {
      const tagging = await connection.client.send(
        new GetObjectTaggingCommand({ Bucket: bucket, Key: key, ...version }),
        {
          abortSignal: signal,
        },
      );
      return Object.fromEntries((tagging.TagSet ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? '']));
    }),
    answered(async () => {
      const answer = await connection.client.send(
        new GetObjectRetentionCommand({ Bucket: bucket, Key: key, ...version }),
        {
          abortSignal: signal,
        },
      );
      return {
        ...(answer.Retention?.Mode ? { mode: answer.Retention.Mode } : {}),
        ...(answer.Retention?.RetainUntilDate ? { retainUntil: answer.Retention.RetainUntilDate.getTime() } : {}),
      };
    }),
    answered(async () => {
      const answer = await connection.client.send(
        new GetObjectLegalHoldCommand({ Bucket: bucket, Key: key, ...version }),
        {
          abortSignal: signal,
        },
      );
      return answer.LegalHold?.Status ? { status: answer.LegalHold.Status } : {};
    }),
  ]);
  const checksums: Record<string, string> = {};
  for (const [name, value] of [
    ['CRC32', whole.ChecksumCRC32],
    ['CRC32C', whole.ChecksumCRC32C],
    ['CRC64NVME', whole.ChecksumCRC64NVME],
    ['SHA1', whole.ChecksumSHA1],
    ['SHA256', whole.ChecksumSHA256],
  ] as const)
    if (value) checksums[name] = value;
  return stripped({
    bucket,
    key,
    size: whole.ContentLength ?? 0,
    etag: whole.ETag,
    lastModified: whole.LastModified?.getTime(),
    versionId: whole.VersionId,
    storageClass: whole.StorageClass ?? 'STANDARD',
    partsCount,
    checksums,
    checksumType: whole.ChecksumType,
    contentType: whole.ContentType,
    cacheControl: whole.CacheControl,
    contentEncoding: whole.ContentEncoding,
    contentDisposition: whole.ContentDisposition,
    contentLanguage: whole.ContentLanguage,
    serverSideEncryption: whole.ServerSideEncryption,
    sseKmsKeyId: whole.SSEKMSKeyId,
    metadata: whole.Metadata ?? {},
    tags,
    retention,
    legalHold,
  });
}

/** The store's answer, or why it gave none (its error code and words): a refusal is not a failure here. */
async function answered<T>(ask: () => Promise<T>): Promise<Answered<T>> {
  try {
    return { available: true, value: await ask() };
  } catch (error) {
    // Barge's code, not the store's: "InvalidRequest" alone would not say that the bucket has no Object Lock.
    return { available: false, why: `${errorCode(error)}: ${toBargeError(error).message}` };
  }
}

/** Without the fields the store did not send (the answer crosses IPC and prints as JSON). */
function stripped(stat: ObjectStat): ObjectStat {
  return Object.fromEntries(Object.entries(stat).filter(([, value]) => value !== undefined)) as unknown as ObjectStat;
}
