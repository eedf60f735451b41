// Checking a download against what the store says the object is: its checksum (whole, or composite
// over its parts) or, where that is all there is, its ETag (the MD5 of a single-part upload, or the
// MD5 of the parts' MD5s for a multipart one).
//
// Each range is hashed as it is written, so no byte is read twice. That works when the ranges match
// what the checksum covers: a whole-object CRC is combined from the ranges' CRCs (CRCs combine
// without the data), while a composite checksum or a multipart ETag needs one range per part. The
// plan says how to hash and, where it matters, the range size. Only an MD5 over several ranges
// (a large single-part object without a checksum) reads the file again at the end.

import type { IncomingHttpHeaders } from 'node:http';
import { BargeError } from './errors.ts';
import {
  bareEtag, combineCrc, compositeChecksum, createHasher, multipartEtag, parseChecksumValue, toBase64,
} from './checksums.ts';
import type { ChecksumAlgorithm, CrcAlgorithm } from './checksums.ts';
import { fileChecksum } from './file-checksum.ts';
import { reportedChecksums } from './s3-wire.ts';

/** What is known of an object before its bytes arrive (a HEAD, or the GET's own answer). */
export interface ObjectFacts {
  readonly size: number;
  readonly etag: string | undefined;
  /** The x-amz-checksum-* headers, by algorithm. */
  readonly checksums: Readonly<Partial<Record<ChecksumAlgorithm, string>>>;
  /** x-amz-checksum-type: FULL_OBJECT or COMPOSITE (absent on stores that do not say). */
  readonly checksumType: string | undefined;
  /** x-amz-mp-parts-count, when the store says (a HEAD or GET of part 1). */
  readonly partsCount: number | undefined;
  /** The size of part 1 (a HEAD of part 1): the part size of an upload with equal parts. */
  readonly firstPartSize: number | undefined;
  /**
   * Whether the ETag can be an MD5 of the content: not for objects encrypted with SSE-KMS or a
   * customer key (SSE-C), whose ETags are something else.
   */
  readonly etagIsDigest: boolean;
}

export interface VerificationPlan {
  /** What each range is hashed with; undefined when there is nothing to check against. */
  readonly algorithm: ChecksumAlgorithm | undefined;
  /** Ranges must be exactly this size (one per part); undefined: any size will do. */
  readonly rangeSize: number | undefined;
  /** "ALGORITHM:value" the object must match, for the receipt. */
  readonly expected: string | undefined;
  /** How the ranges' digests become the object's. */
  readonly check: 'whole-crc' | 'composite' | 'multipart-etag' | 'md5-file' | 'none';
}

const NOTHING: VerificationPlan = { algorithm: undefined, rangeSize: undefined, expected: undefined, check: 'none' };
const CRCS = new Set<ChecksumAlgorithm>(['CRC32', 'CRC32C', 'CRC64NVME']);

export function factsFromHeaders(headers: IncomingHttpHeaders, size: number): ObjectFacts {
  const checksums = reportedChecksums(headers);
  const parts = headers['x-amz-mp-parts-count'];
  const type = headers['x-amz-checksum-type'];
  return {
    size,
    etag: headers.etag,
    checksums,
    checksumType: typeof type === 'string' ? type.toUpperCase() : undefined,
    partsCount: typeof parts === 'string' ? Number(parts) : undefined,
    firstPartSize: undefined,
    etagIsDigest: !String(headers['x-amz-server-side-encryption'] ?? '').startsWith('aws:kms') && !headers['x-amz-server-side-encryption-customer-algorithm'],
  };
}

/**
 * How to verify an object downloaded in ranges of `preferredRangeSize` (or one range, when the
 * object is that small). A checksum the store reports wins over the ETag; an object whose parts
 * cannot be matched with ranges (unequal parts) is checked for size only.
 */
export function planVerification(facts: ObjectFacts, preferredRangeSize: number): VerificationPlan {
  const singleRange = facts.size <= preferredRangeSize;
  for (const [algorithm, raw] of Object.entries(facts.checksums) as [ChecksumAlgorithm, string][]) {
    const value = parseChecksumValue(raw);
    if (!value) continue;
    const expected = `${algorithm}:${raw}`;
    if (value.parts === undefined && facts.checksumType !== 'COMPOSITE') {
      // A whole-object checksum: CRCs combine from any ranges; SHA needs the bytes in one stream.
      if (CRCS.has(algorithm)) return { algorithm, rangeSize: undefined, expected, check: 'whole-crc' };
      if (singleRange) return { algorithm, rangeSize: facts.size, expected, check: 'whole-crc' };
      continue;
    }
    const rangeSize = equalPartSize(facts, value.parts);
    if (rangeSize !== undefined) return { algorithm, rangeSize, expected, check: 'composite' };
  }
  if (!facts.etag || !facts.etagIsDigest) return NOTHING;
  const etag = bareEtag(facts.etag);
  if (/^[0-9a-f]{32}$/.test(etag)) {
    // Written as Content-MD5 is (base64), so a receipt shows an upload's and a download's MD5 alike.
    const expected = `MD5:${Buffer.from(etag, 'hex').toString('base64')}`;
    return { algorithm: 'MD5', rangeSize: singleRange ? facts.size : undefined, expected, check: singleRange ? 'whole-crc' : 'md5-file' };
  }
  const parts = /^[0-9a-f]{32}-(\d+)$/.exec(etag);
  if (parts) {
    const rangeSize = equalPartSize(facts, Number(parts[1]));
    if (rangeSize !== undefined) return { algorithm: 'MD5', rangeSize, expected: `ETAG:${etag}`, check: 'multipart-etag' };
  }
  return NOTHING;
}

/** The part size of an upload whose parts (all but the last) are equal, if the facts show one. */
function equalPartSize(facts: ObjectFacts, parts: number | undefined): number | undefined {
  const count = parts ?? facts.partsCount;
  const first = facts.firstPartSize;
  if (count === undefined || first === undefined || first <= 0) return count === 1 ? facts.size : undefined;
  return Math.ceil(facts.size / first) === count ? first : undefined;
}

/**
 * Check the ranges' digests (in order, with their sizes) against the plan; throws ChecksumMismatch.
 * Returns what was verified ("ALGORITHM:value") for the receipt.
 */
export async function verifyDownload(plan: VerificationPlan, ranges: readonly { digest: Buffer; size: number }[], file: string, what: string): Promise<string | undefined> {
  if (plan.check === 'none' || !plan.algorithm || !plan.expected) return undefined;
  let actual: string;
  switch (plan.check) {
    case 'whole-crc': {
      let digest = ranges[0]?.digest ?? createHasher(plan.algorithm).digest();
      for (const range of ranges.slice(1)) digest = combineCrc(plan.algorithm as CrcAlgorithm, digest, range.digest, range.size);
      actual = `${plan.algorithm}:${toBase64(digest)}`;
      break;
    }
    case 'composite': {
      const composite = compositeChecksum(plan.algorithm as Exclude<ChecksumAlgorithm, 'MD5'>, ranges.map((r) => r.digest));
      // Some stores show a composite checksum without its "-N".
      actual = `${plan.algorithm}:${/-\d+$/.test(plan.expected) ? composite : composite.replace(/-\d+$/, '')}`;
      break;
    }
    case 'multipart-etag':
      actual = `ETAG:${multipartEtag(ranges.map((r) => r.digest))}`;
      break;
    case 'md5-file':
      actual = `MD5:${toBase64(await fileChecksum(file, 'MD5'))}`;
      break;
  }
  if (actual !== plan.expected) {
    throw new BargeError('ChecksumMismatch', `The bytes received for ${what} do not match the store's checksum (expected ${plan.expected}, got ${actual}); `
      + 'nothing was saved under its name. Retry; if it happens again the stored object may be damaged.');
  }
  return plan.expected;
}
