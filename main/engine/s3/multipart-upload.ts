// The requests of one multipart upload: create it, list what it holds, complete it.
//
// Jobs decide what to send and when (the part size, the checksum, the journal's records); these
// build the requests, so a store's quirk in any of them has one place to be handled.

import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import type {
  CompleteMultipartUploadCommandOutput,
  CreateMultipartUploadCommandOutput,
  ListPartsCommandOutput,
  Part,
} from '@aws-sdk/client-s3';
import type { CrcAlgorithm } from '../integrity/crc.ts';
import type { S3Connection } from './s3-connection.ts';
import { uploadOptionFields } from './upload-option-fields.ts';
import type { UploadOptions } from '../../../src/upload-options.ts';

export interface NewMultipartUpload {
  readonly bucket: string;
  readonly key: string;
  readonly contentType: string;
  readonly metadata: Readonly<Record<string, string>>;
  /** The checksum the parts carry: CRC64NVME as a whole-object checksum, the 32-bit CRCs as a composite. */
  readonly crc?: CrcAlgorithm | undefined;
  /** What the object is stored with (storage class, content headers, metadata, tags, encryption, ACL). */
  readonly options?: UploadOptions | undefined;
}

export function createMultipartUpload(
  connection: S3Connection,
  upload: NewMultipartUpload,
  signal: AbortSignal,
): Promise<CreateMultipartUploadCommandOutput> {
  const { crc } = upload;
  return connection.client.send(
    new CreateMultipartUploadCommand({
      Bucket: upload.bucket,
      Key: upload.key,
      ...uploadOptionFields(upload.options),
      ContentType: upload.contentType,
      Metadata: { ...upload.options?.metadata, ...upload.metadata },
      ...(crc ? { ChecksumAlgorithm: crc, ChecksumType: crc === 'CRC64NVME' ? 'FULL_OBJECT' : 'COMPOSITE' } : {}),
    }),
    { abortSignal: signal },
  );
}

/** One page of the parts an upload holds, from after `marker`. */
export function listPartsPage(
  connection: S3Connection,
  where: { readonly bucket: string; readonly key: string; readonly uploadId: string },
  marker: string | undefined,
  signal: AbortSignal,
): Promise<ListPartsCommandOutput> {
  return connection.client.send(
    new ListPartsCommand({ Bucket: where.bucket, Key: where.key, UploadId: where.uploadId, PartNumberMarker: marker }),
    { abortSignal: signal },
  );
}

/**
 * Every part an upload holds, a page at a time from `page` (listPartsPage, with whatever retries the caller
 * wraps it in), while the store's marker moves on: a store that names the same page again is not listed forever.
 */
export async function* listedParts(
  page: (marker: string | undefined) => Promise<ListPartsCommandOutput>,
): AsyncGenerator<Part> {
  let marker: string | undefined;
  do {
    const listed = await page(marker);
    yield* listed.Parts ?? [];
    const next = listed.IsTruncated ? listed.NextPartNumberMarker : undefined;
    marker = next !== undefined && Number(next) > Number(marker ?? 0) ? next : undefined;
  } while (marker);
}

export interface CompletedPart {
  readonly partNumber: number;
  readonly etag: string;
  /** The part's CRC as S3's field for it names it (`ChecksumCRC32`...) and its base64 value, when it has one. */
  readonly checksum?: { readonly field: string; readonly value: string } | undefined;
}

export function completeMultipartUpload(
  connection: S3Connection,
  upload: {
    readonly bucket: string;
    readonly key: string;
    readonly uploadId: string;
    readonly parts: readonly CompletedPart[];
    /** Sent on condition that nothing is under the key (If-None-Match: *). */
    readonly ifAbsent: boolean;
  },
  signal: AbortSignal,
): Promise<CompleteMultipartUploadCommandOutput> {
  return connection.client.send(
    new CompleteMultipartUploadCommand({
      Bucket: upload.bucket,
      Key: upload.key,
      UploadId: upload.uploadId,
      MultipartUpload: {
        Parts: upload.parts.map((part) => ({
          PartNumber: part.partNumber,
          ETag: part.etag,
          ...(part.checksum ? { [part.checksum.field]: part.checksum.value } : {}),
        })),
      },
      ...(upload.ifAbsent ? { IfNoneMatch: '*' } : {}),
    }),
    { abortSignal: signal },
  );
}
