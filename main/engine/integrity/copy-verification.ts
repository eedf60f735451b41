// Whether a server-side copy holds the source's bytes, from what the store said of each.
//
// The store copies without the client seeing a byte, so the proof is in its answers: the copy's
// checksum of the source's algorithm (asked for when the copy is made) against the source's own; for
// a copy made in parts, the parts' CRCs combined into the whole object's; else the ETag, which is the
// MD5 of the bytes for a single-part object on both sides; else the size alone, said as such.

import type { Verification } from '../../../src/verification.ts';
import { bareEtag, parseChecksumValue } from './checksums.ts';
import type { ChecksumAlgorithm } from './checksums.ts';
import { fullObjectCrc } from './crc.ts';
import type { CrcAlgorithm } from './crc.ts';

export type CopyChecksumAlgorithm = Exclude<ChecksumAlgorithm, 'MD5'>;

/** A checksum the store keeps for an object: the algorithm, and its value as S3 shows it ("base64" or "base64-N"). */
export interface StoredChecksum {
  readonly algorithm: CopyChecksumAlgorithm;
  readonly value: string;
}

export interface CopiedSide {
  readonly size: number;
  readonly etag: string | undefined;
  readonly checksum: StoredChecksum | undefined;
}

export interface CopyVerdict {
  readonly verification: Verification;
  /** Set when the copy is not the source: what differs, in words. */
  readonly mismatch?: string;
}

const CRCS: readonly string[] = ['CRC32', 'CRC32C', 'CRC64NVME'];

/** A whole object's checksum (not a multipart upload's composite "-N"), the only kind two objects can share. */
export function wholeObjectChecksum(checksum: StoredChecksum | undefined): StoredChecksum | undefined {
  if (!checksum) return undefined;
  const parsed = parseChecksumValue(checksum.value);
  return parsed && parsed.parts === undefined ? checksum : undefined;
}

/** The verdict on a copy made by one CopyObject. */
export function verifySingleCopy(source: CopiedSide, copy: CopiedSide): CopyVerdict {
  if (copy.size !== source.size)
    return { verification: 'size-only', mismatch: `${copy.size} bytes where the source has ${source.size}` };
  const wanted = wholeObjectChecksum(source.checksum);
  const got = wholeObjectChecksum(copy.checksum);
  if (wanted && got && wanted.algorithm === got.algorithm) {
    return wanted.value === got.value
      ? { verification: 'checksum' }
      : { verification: 'checksum', mismatch: `${got.algorithm} ${got.value} where the source has ${wanted.value}` };
  }
  const sourceEtag = md5Etag(source.etag);
  const copyEtag = md5Etag(copy.etag);
  if (sourceEtag && copyEtag) {
    return sourceEtag === copyEtag
      ? { verification: 'etag' }
      : { verification: 'etag', mismatch: `ETag ${copyEtag} where the source has ${sourceEtag}` };
  }
  return { verification: 'size-only' };
}

/** The verdict on a copy made in parts, each part's CRC (of the source's algorithm) as the store gave it. */
export function verifyPartsCopy(
  source: CopiedSide,
  copySize: number,
  parts: readonly { readonly size: number; readonly checksum: string | undefined }[],
): CopyVerdict {
  if (copySize !== source.size)
    return { verification: 'size-only', mismatch: `${copySize} bytes where the source has ${source.size}` };
  const wanted = wholeObjectChecksum(source.checksum);
  if (!wanted || !CRCS.includes(wanted.algorithm) || parts.some((part) => part.checksum === undefined))
    return { verification: 'size-only' };
  const combined = fullObjectCrc(
    wanted.algorithm as CrcAlgorithm,
    parts.map((part) => ({ digest: Buffer.from(part.checksum!, 'base64'), size: part.size })),
  ).toString('base64');
  return combined === wanted.value
    ? { verification: 'checksum' }
    : { verification: 'checksum', mismatch: `${wanted.algorithm} ${combined} where the source has ${wanted.value}` };
}

/** An ETag that is the MD5 of the bytes: 32 hex digits, not a multipart upload's "-N". */
function md5Etag(etag: string | undefined): string | undefined {
  if (etag === undefined) return undefined;
  const bare = bareEtag(etag);
  return /^[0-9a-f]{32}$/.test(bare) ? bare : undefined;
}
