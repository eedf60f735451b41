// What a store's answer says of the bytes it holds: the checksums it reports, whether its ETag is
// a digest of them, and what it stored. Read by the wire (s3/s3-wire.ts) and by the checks here.

import type { IncomingHttpHeaders } from 'node:http';
import type { Verification } from '../../../src/verification.ts';

/** What a store says about what it stored: ETag, version (versioned buckets), and checksum if any. */
export interface StoredObject {
  readonly etag: string | undefined;
  readonly versionId: string | undefined;
  /** "ALGORITHM:value" (e.g. "CRC32C:yZRlqg=="), as the store reports it. */
  readonly checksum: string | undefined;
  /** Every x-amz-checksum-* value the store sent, by algorithm ("CRC32C"). */
  readonly checksums?: Readonly<Record<string, string>>;
  /** Encrypted with SSE-KMS or a customer key: the ETag is not an MD5 of the content. */
  readonly encrypted?: boolean;
  /** How the bytes were checked (see src/verification.ts). */
  readonly verified?: Verification;
}

const CHECKSUM_HEADERS = ['crc64nvme', 'crc32c', 'crc32', 'sha256', 'sha1'] as const;
export type ReportedAlgorithm = Uppercase<(typeof CHECKSUM_HEADERS)[number]>;

/** The x-amz-checksum-* values of a response, by algorithm ("CRC32C"), strongest first. */
export function reportedChecksums(headers: IncomingHttpHeaders): Partial<Record<ReportedAlgorithm, string>> {
  const checksums: Partial<Record<ReportedAlgorithm, string>> = {};
  for (const name of CHECKSUM_HEADERS) {
    const value = headers[`x-amz-checksum-${name}`];
    if (typeof value === 'string' && value) checksums[name.toUpperCase() as ReportedAlgorithm] = value;
  }
  return checksums;
}

/** SSE-KMS and SSE-C objects have ETags that are not an MD5 of their content. */
export function etagIsNotDigest(headers: IncomingHttpHeaders): boolean {
  return (
    String(headers['x-amz-server-side-encryption'] ?? '').startsWith('aws:kms') ||
    headers['x-amz-server-side-encryption-customer-algorithm'] !== undefined
  );
}
