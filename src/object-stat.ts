// Everything a store says of one object (objects.stat, barge stat): what the details dialog and stat show.
//
// Tags, retention and legal hold are asked separately, and many stores refuse one of them (no Object Lock
// on the bucket, no tagging at all): each is then "not available" with the store's reason, never a failure
// of the whole answer.

export type Answered<T> =
  { readonly available: true; readonly value: T } | { readonly available: false; readonly why: string };

export interface ObjectStat {
  readonly bucket: string;
  readonly key: string;
  readonly size: number;
  readonly etag?: string;
  readonly lastModified?: number;
  readonly versionId?: string;
  readonly storageClass: string;
  /** Parts it was uploaded in, where the store says (or the multipart ETag's "-N" does). */
  readonly partsCount?: number;
  /** S3's flexible checksums by algorithm (CRC32, CRC32C, CRC64NVME, SHA1, SHA256), base64, as stored. */
  readonly checksums: Readonly<Record<string, string>>;
  /** FULL_OBJECT or COMPOSITE, where the store says. */
  readonly checksumType?: string;
  readonly contentType?: string;
  readonly cacheControl?: string;
  readonly contentEncoding?: string;
  readonly contentDisposition?: string;
  readonly contentLanguage?: string;
  readonly serverSideEncryption?: string;
  readonly sseKmsKeyId?: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly tags: Answered<Readonly<Record<string, string>>>;
  readonly retention: Answered<{ readonly mode?: string; readonly retainUntil?: number }>;
  readonly legalHold: Answered<{ readonly status?: string }>;
}
