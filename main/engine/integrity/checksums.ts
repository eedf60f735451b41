// Checksums as S3 uses them for end-to-end integrity: the CRCs (crc.ts), SHA-1, SHA-256 and MD5
// (Content-MD5 and ETags) behind one streaming interface, and the formats a store reports them in:
// the base64 header form, a multipart upload's composite checksum and ETag.
//
// Every value here is the server's form: a digest is the big-endian bytes of the checksum, and a
// header value (x-amz-checksum-crc32c and the like) is that digest in base64.

import { createHash } from 'node:crypto';
import { createCrcHasher } from './crc.ts';
import type { CrcAlgorithm, Hasher } from './crc.ts';

export type { CrcAlgorithm, Hasher } from './crc.ts';
export type ChecksumAlgorithm = CrcAlgorithm | 'SHA1' | 'SHA256' | 'MD5';

export function createHasher(algorithm: ChecksumAlgorithm): Hasher {
  switch (algorithm) {
    case 'CRC32':
    case 'CRC32C':
    case 'CRC64NVME':
      return createCrcHasher(algorithm);
    case 'SHA1':
      return createHash('sha1');
    case 'SHA256':
      return createHash('sha256');
    case 'MD5':
      return createHash('md5');
  }
}

/** The checksum of data at hand, in one call. */
export function checksumOf(algorithm: ChecksumAlgorithm, data: Uint8Array): Buffer {
  const hasher = createHasher(algorithm);
  hasher.update(data);
  return hasher.digest();
}

/** The header that carries an algorithm's checksum on a request or an answer. */
export function checksumHeader(algorithm: ChecksumAlgorithm): string {
  return algorithm === 'MD5' ? 'content-md5' : `x-amz-checksum-${algorithm.toLowerCase()}`;
}

/** The field of the SDK's inputs and outputs (UploadPart, CompletedPart, HeadObject...) that holds it. */
export function checksumField(
  algorithm: Exclude<ChecksumAlgorithm, 'MD5'>,
): `Checksum${Exclude<ChecksumAlgorithm, 'MD5'>}` {
  return `Checksum${algorithm}`;
}

export function toBase64(digest: Uint8Array): string {
  return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('base64');
}

/** A checksum value as S3 shows it: base64, with "-N" after a multipart upload's composite checksum. */
export interface ChecksumValue {
  readonly digest: Buffer;
  /** The number of parts of a composite checksum ("-N"), or undefined for a whole object's. */
  readonly parts: number | undefined;
}

/** Read an x-amz-checksum-* value ("base64" or "base64-N"); undefined if it is not one. */
export function parseChecksumValue(value: string): ChecksumValue | undefined {
  const match = /^([A-Za-z0-9+/]+={0,2})(?:-(\d+))?$/.exec(value.trim());
  if (!match?.[1]) return undefined;
  return { digest: Buffer.from(match[1], 'base64'), parts: match[2] === undefined ? undefined : Number(match[2]) };
}

/**
 * A multipart upload's COMPOSITE checksum as S3 reports it: the checksum of the parts' raw
 * checksums one after another, in base64, then "-" and the number of parts.
 */
export function compositeChecksum(
  algorithm: Exclude<ChecksumAlgorithm, 'MD5'>,
  partDigests: readonly Uint8Array[],
): string {
  const hasher = createHasher(algorithm);
  for (const digest of partDigests) hasher.update(digest);
  return `${toBase64(hasher.digest())}-${partDigests.length}`;
}

/**
 * The ETag S3 gives a multipart upload: the MD5 of the parts' MD5 digests one after another, in hex,
 * then "-" and the number of parts (without the quotes HTTP puts around it).
 */
export function multipartEtag(partMd5s: readonly Uint8Array[]): string {
  const md5 = createHash('md5');
  for (const digest of partMd5s) md5.update(digest);
  return `${md5.digest('hex')}-${partMd5s.length}`;
}

/** An ETag without its quotes (and without a weak validator's W/), lower-case. */
export function bareEtag(etag: string): string {
  return etag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
}
