// Checking a download against what the store says the object is: its checksum (whole, or composite
// over its parts) or, where that is all there is, its ETag (the MD5 of a single-part upload, or the
// MD5 of the parts' MD5s for a multipart one).
//
// Each range is hashed as it is written, so no byte is read twice when the ranges match what the
// checksum covers: a whole-object CRC is combined from the ranges' CRCs (CRCs combine without the
// data), while a composite checksum or a multipart ETag needs one digest per part. Where the ranges
// do not match the parts (an object fetched in one GET, a range resumed mid-body, a guessed part
// size that was wrong) the parts are hashed again from the file, which the page cache usually holds.
//
// A check by parts needs the part size. It is known exactly from a HEAD of part 1 and of the last
// part (where the store answers for parts), or from the part size Barge records with its own uploads
// (part-size-metadata.ts). Otherwise it is guessed from the sizes common clients use, and only an
// exact match counts: when no guess matches, the object was checked for its size only, and says so.

import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import type { Verification } from '../../../src/verification.ts';
import { BargeError } from '../errors.ts';
import { bareEtag, compositeChecksum, createHasher, multipartEtag, parseChecksumValue, toBase64 } from './checksums.ts';
import type { ChecksumAlgorithm, CrcAlgorithm } from './checksums.ts';
import { combineCrc } from './crc.ts';
import { fileChecksum } from './file-checksum.ts';
import { recordedPartSize, PART_SIZE_METADATA } from './part-size-metadata.ts';
import { etagIsNotDigest, reportedChecksums } from './store-answers.ts';

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
  /** The part size Barge recorded in the object's metadata when it uploaded it. */
  readonly recordedPartSize?: number | undefined;
  /**
   * The store answered a HEAD of one part with that part (not the whole object): what it says of
   * parts is the truth, and the metadata (which a copy tool may have carried over) is not needed.
   */
  readonly partsAnswered?: boolean;
  /**
   * Whether the ETag can be an MD5 of the content: not for objects encrypted with SSE-KMS or a
   * customer key (SSE-C), whose ETags are something else.
   */
  readonly etagIsDigest: boolean;
}

type Check = 'whole-crc' | 'composite' | 'multipart-etag' | 'md5-file';

/** One way the object may be checked. */
export interface VerificationAttempt {
  readonly algorithm: ChecksumAlgorithm;
  readonly check: Check;
  /** "ALGORITHM:value" (or "ETAG:…") the object must match. */
  readonly expected: string;
  /** For a check by parts: the part size. */
  readonly partSize?: number;
  /** The part size or the kind of checksum is a guess: a mismatch proves nothing. */
  readonly guess: boolean;
  /** The part size comes from the object's metadata (worth a HEAD of its parts, where the store answers them). */
  readonly fromMetadata?: boolean;
}

export interface VerificationPlan {
  /** Tried in order until one matches; empty when there is nothing to check against. */
  readonly attempts: readonly VerificationAttempt[];
  /** What each range is hashed with as it arrives (the first attempt's); undefined: nothing. */
  readonly algorithm: ChecksumAlgorithm | undefined;
  /** Ranges should be exactly this size (one per part); undefined: any size will do. */
  readonly rangeSize: number | undefined;
  /** Why there is nothing to check against, for a plan without attempts. */
  readonly why?: string;
}

const CRCS = new Set<ChecksumAlgorithm>(['CRC32', 'CRC32C', 'CRC64NVME']);
const MIB = 1024 * 1024;
/** S3's bounds on multipart uploads: no part but the last below 5 MiB, at most 10,000 parts. */
const MIN_PART_BYTES = 5 * MIB;
const MAX_PARTS = 10_000;
/**
 * Part sizes clients use by default: 5 MiB (rclone, S3's minimum), 8 MiB (aws-cli, boto3), 10 MiB,
 * 15 and 16 MiB (MinIO's mc, Barge), 32, 50 MiB (s5cmd), 64, 100 and 128 MiB.
 */
const COMMON_PART_SIZES = [5, 8, 10, 15, 16, 32, 50, 64, 100, 128].map((mib) => mib * MIB);

export function factsFromHeaders(headers: IncomingHttpHeaders, size: number): ObjectFacts {
  const checksums = reportedChecksums(headers);
  const parts = headers['x-amz-mp-parts-count'];
  const type = headers['x-amz-checksum-type'];
  const partsCount = typeof parts === 'string' ? Number(parts) : undefined;
  return {
    size,
    etag: headers.etag,
    checksums,
    checksumType: typeof type === 'string' ? type.toUpperCase() : undefined,
    partsCount,
    firstPartSize: undefined,
    recordedPartSize: recordedPartSize(headers[`x-amz-meta-${PART_SIZE_METADATA}`], size, undefined),
    etagIsDigest: !etagIsNotDigest(headers),
  };
}

/**
 * The object's checksum and ETag (a HEAD) and, when the check depends on its parts (a composite
 * checksum, a multipart ETag), their sizes: part 1 and the last part, whose sizes show whether the
 * parts are equal. A store that cannot answer for parts leaves them unknown (no check by parts).
 * `head`: a HEAD of the object, or of one part; `size`: the object's, where already known.
 */
export async function objectFactsByHead(
  head: (partNumber?: number) => Promise<IncomingHttpHeaders>,
  size: number | undefined,
  aborted: () => boolean,
): Promise<ObjectFacts> {
  const headers = await head();
  const facts = factsFromHeaders(headers, size ?? Number(headers['content-length'] ?? 0));
  const parts = partsClaimed(facts);
  if (parts === undefined || parts < 2) return facts;
  try {
    const first = await head(1);
    const firstPartSize = Number(first['content-length']);
    // A store that cannot answer for one part (Ceph's RGW) answers with the whole object.
    if (!(firstPartSize > 0 && firstPartSize < facts.size)) return { ...facts, partsCount: parts };
    const last = await head(parts);
    const lastPartSize = Number(last['content-length']);
    // Equal parts but the last: the last holds what the others leave.
    const equal = lastPartSize === facts.size - (parts - 1) * firstPartSize;
    return { ...facts, partsCount: parts, firstPartSize: equal ? firstPartSize : undefined, partsAnswered: true };
  } catch (error) {
    if (aborted()) throw error;
    return facts;
  }
}

/** How many parts the object's checksum or ETag says it was uploaded in, if either says. */
function partsClaimed(facts: ObjectFacts): number | undefined {
  for (const value of Object.values(facts.checksums)) {
    const parts = /-(\d+)$/.exec(value ?? '')?.[1];
    if (parts) return Number(parts);
  }
  const etagParts = /-(\d+)"?$/.exec(facts.etag ?? '')?.[1];
  return etagParts ? Number(etagParts) : facts.partsCount;
}

/** The MD5 of no bytes: the ETag of an empty object uploaded whole (and not encrypted with SSE-KMS or SSE-C). */
const EMPTY_MD5 = createHash('md5').digest('hex');

/**
 * Whether an ETag says its object holds no bytes. A store's word that an object is empty (a size of
 * 0 in a listing or a HEAD) is taken without a GET only when its ETag agrees: a size alone, where
 * anything else is stated, is a claim the bytes must bear out.
 */
export function etagOfNoBytes(etag: string | undefined): boolean {
  return etag !== undefined && bareEtag(etag) === EMPTY_MD5;
}

/** The part count a multipart ETag ("…-N") claims, if it is one. */
export function etagPartCount(etag: string | undefined): number | undefined {
  const parts = /^[0-9a-f]{32}-(\d+)$/.exec(bareEtag(etag ?? ''))?.[1];
  return parts === undefined ? undefined : Number(parts);
}

/**
 * How to verify an object downloaded in ranges of `preferredRangeSize` (or one range, when the
 * object is that small). A checksum the store reports wins over the ETag.
 */
export function planVerification(facts: ObjectFacts, preferredRangeSize: number): VerificationPlan {
  const singleRange = facts.size <= preferredRangeSize;
  const attempts: VerificationAttempt[] = [];
  const etagParts = etagPartCount(facts.etag);
  for (const [algorithm, raw] of Object.entries(facts.checksums) as [ChecksumAlgorithm, string][]) {
    const value = parseChecksumValue(raw);
    if (!value) continue;
    const expected = `${algorithm}:${raw}`;
    if (value.parts === undefined && facts.checksumType !== 'COMPOSITE') {
      // A store that names neither "-N" nor the type, for an object whose ETag shows parts: the
      // checksum may be composite (CRC64NVME never is).
      const ambiguous =
        facts.checksumType === undefined && etagParts !== undefined && etagParts > 1 && algorithm !== 'CRC64NVME';
      // A whole-object checksum: CRCs combine from any ranges; SHA needs the bytes in one stream.
      if (CRCS.has(algorithm)) attempts.push({ algorithm, check: 'whole-crc', expected, guess: ambiguous });
      else if (singleRange) attempts.push({ algorithm, check: 'whole-crc', expected, guess: ambiguous });
      if (ambiguous) attempts.push(...byParts(facts, etagParts, algorithm, 'composite', expected));
      if (attempts.length) break;
      continue;
    }
    attempts.push(...byParts(facts, value.parts ?? etagParts, algorithm, 'composite', expected));
    if (attempts.length) break;
  }
  if (attempts.length === 0 && facts.etag && facts.etagIsDigest) {
    const etag = bareEtag(facts.etag);
    if (/^[0-9a-f]{32}$/.test(etag)) {
      // Written as Content-MD5 is (base64), so a receipt shows an upload's and a download's MD5 alike.
      const expected = `MD5:${Buffer.from(etag, 'hex').toString('base64')}`;
      attempts.push({ algorithm: 'MD5', check: singleRange ? 'whole-crc' : 'md5-file', expected, guess: false });
    } else if (etagParts !== undefined) {
      attempts.push(...byParts(facts, etagParts, 'MD5', 'multipart-etag', `ETAG:${etag}`));
    }
  }
  const first = attempts[0];
  if (!first) {
    const why = !facts.etagIsDigest
      ? 'it is encrypted with SSE-KMS or SSE-C and has no checksum'
      : 'the store reports no checksum and no usable ETag';
    return { attempts, algorithm: undefined, rangeSize: undefined, why };
  }
  const rangeSize =
    first.partSize ??
    (first.check === 'whole-crc' && singleRange && !CRCS.has(first.algorithm) ? facts.size : undefined);
  // An MD5 over several ranges is taken from the file at the end: hashing the ranges would be waste.
  return { attempts, algorithm: first.check === 'md5-file' ? undefined : first.algorithm, rangeSize };
}

/** Attempts by parts: the exact part size when known, else each likely one. */
function byParts(
  facts: ObjectFacts,
  parts: number | undefined,
  algorithm: ChecksumAlgorithm,
  check: 'composite' | 'multipart-etag',
  expected: string,
): VerificationAttempt[] {
  const count = parts ?? facts.partsCount;
  if (count === undefined) return [];
  if (count < 1 || count > MAX_PARTS) return [];
  const exact = exactPartSize(facts, count);
  if (exact !== undefined)
    return [{ algorithm, check, expected, partSize: exact.partSize, guess: false, fromMetadata: exact.fromMetadata }];
  return likelyPartSizes(facts.size, count).map((partSize) => ({ algorithm, check, expected, partSize, guess: true }));
}

/** The part size of an upload of `count` equal parts (but the last), where the facts show it. */
function exactPartSize(facts: ObjectFacts, count: number): { partSize: number; fromMetadata: boolean } | undefined {
  if (count === 1) return { partSize: facts.size, fromMetadata: false };
  const first = facts.firstPartSize;
  if (first !== undefined && first >= MIN_PART_BYTES && Math.ceil(facts.size / first) === count)
    return { partSize: first, fromMetadata: false };
  // A store that answers for parts has said what they are: the metadata may be a copy's.
  if (facts.partsAnswered) return undefined;
  const recorded = facts.recordedPartSize;
  if (recorded !== undefined && Math.ceil(facts.size / recorded) === count)
    return { partSize: recorded, fromMetadata: true };
  return undefined;
}

/**
 * Part sizes that give `count` parts for `size` bytes: the common ones, and the size divided by the
 * count (rounded up to a MiB); none below S3's smallest part (5 MiB, for all but the last).
 */
export function likelyPartSizes(size: number, count: number): number[] {
  const even = Math.ceil(size / count / MIB) * MIB;
  return [...new Set([...COMMON_PART_SIZES, even])].filter(
    (partSize) => partSize >= MIN_PART_BYTES && Math.ceil(size / partSize) === count,
  );
}

/** A range as downloaded: its size and, where it was hashed whole as it arrived, its digest. */
export interface DownloadedRange {
  readonly digest: Buffer | undefined;
  readonly size: number;
}

export interface VerificationOutcome {
  /** How the bytes were checked. */
  readonly how: Verification;
  /** What was matched ("ALGORITHM:value"), for the receipt. */
  readonly verified: string | undefined;
  /** Why only the size was checked. */
  readonly why?: string;
}

/**
 * Check the downloaded file against the plan: the ranges' digests where they fit, the file itself
 * where they do not. A mismatch with a known part size (or none needed) throws ChecksumMismatch; when
 * only guesses were tried and none matched, the object is reported as checked for size only.
 */
export async function verifyDownload(
  plan: VerificationPlan,
  ranges: readonly DownloadedRange[],
  hashedWith: ChecksumAlgorithm | undefined,
  file: string,
  what: string,
): Promise<VerificationOutcome> {
  if (plan.attempts.length === 0) return { how: 'size-only', verified: undefined, why: plan.why };
  const misses: string[] = [];
  for (const attempt of plan.attempts) {
    const actual = await digestFor(attempt, attempt.algorithm === hashedWith ? ranges : undefined, ranges, file);
    if (actual === attempt.expected) return matchedBy(attempt);
    misses.push(actual);
  }
  return noMatch(plan, misses[0]!, what, 'nothing was saved under its name. Retry');
}

function matchedBy(attempt: VerificationAttempt): VerificationOutcome {
  return { how: attempt.algorithm === 'MD5' ? 'etag' : 'checksum', verified: attempt.expected };
}

/**
 * No attempt matched: where every one was a guess at the part size, the object was checked for its
 * size only (and says why); otherwise the bytes are wrong, and ChecksumMismatch says so. `stopped`:
 * what became of the bytes, and what to do ("the download was stopped. Try again").
 */
function noMatch(plan: VerificationPlan, firstMiss: string, what: string, stopped: string): VerificationOutcome {
  const expected = plan.attempts[0]!.expected;
  if (plan.attempts.every((attempt) => attempt.guess)) {
    const sizes = plan.attempts.filter((a) => a.partSize).map((a) => `${a.partSize! / MIB} MiB`);
    const tried = sizes.length
      ? `none of the part sizes tried (${sizes.join(', ')}; the sizes that fit its ${partCountOf(expected)} parts)`
      : 'no reading of its checksum';
    const against = expected.split(':')[0] === 'ETAG' ? 'ETag' : 'checksum';
    return {
      how: 'size-only',
      verified: undefined,
      // Either the object was uploaded with parts of a size not tried, or its bytes were damaged on
      // the way: nothing here can tell which, and the user must hear both.
      why:
        `the store cannot say where its parts begin, and ` +
        `${tried} gives its ${against}: ` +
        'either it was uploaded with another part size, or its bytes were damaged on the way (download it ' +
        'again: if this repeats with the same bytes, it is the part size)',
    };
  }
  throw new BargeError(
    'ChecksumMismatch',
    `The bytes received for ${what} do not match the store's checksum (expected ${expected}, got ${firstMiss}); ` +
      `${stopped}; if it happens again the stored object may be damaged.`,
  );
}

/**
 * What the file gives for one attempt, "ALGORITHM:value" as the attempt's `expected` is written.
 * `hashed`: the ranges, when their digests are by the attempt's algorithm.
 */
async function digestFor(
  attempt: VerificationAttempt,
  hashed: readonly DownloadedRange[] | undefined,
  ranges: readonly DownloadedRange[],
  file: string,
): Promise<string> {
  switch (attempt.check) {
    case 'whole-crc': {
      let offset = 0;
      let digest: Buffer | undefined;
      for (const range of ranges) {
        const own =
          (hashed ? range.digest : undefined) ??
          (await fileChecksum(file, attempt.algorithm, offset, offset + range.size));
        digest = digest === undefined ? own : combineCrc(attempt.algorithm as CrcAlgorithm, digest, own, range.size);
        offset += range.size;
      }
      return `${attempt.algorithm}:${toBase64(digest ?? createHasher(attempt.algorithm).digest())}`;
    }
    case 'md5-file':
      return `MD5:${toBase64(await fileChecksum(file, 'MD5'))}`;
    case 'composite':
    case 'multipart-etag': {
      return partsValue(attempt, await partDigests(attempt, hashed, file));
    }
  }
}

/** A check by parts's value, written as the attempt's `expected` is, from the parts' digests. */
function partsValue(attempt: VerificationAttempt, digests: readonly Buffer[]): string {
  if (attempt.check === 'multipart-etag') return `ETAG:${multipartEtag(digests)}`;
  const composite = compositeChecksum(attempt.algorithm as Exclude<ChecksumAlgorithm, 'MD5'>, digests);
  // Some stores show a composite checksum without its "-N".
  return `${attempt.algorithm}:${/-\d+$/.test(attempt.expected) ? composite : composite.replace(/-\d+$/, '')}`;
}

/** One digest per part: the ranges' own where they are the parts, the file's otherwise. */
async function partDigests(
  attempt: VerificationAttempt,
  ranges: readonly DownloadedRange[] | undefined,
  file: string,
): Promise<Buffer[]> {
  const partSize = attempt.partSize!;
  const size = (await stat(file)).size;
  // An empty object uploaded in one empty part has one part, of no bytes.
  // An empty object uploaded in one empty part has one part, of no bytes.
  const count = partSize > 0 ? Math.max(1, Math.ceil(size / partSize)) : 1;
  const aligned =
    ranges !== undefined &&
    ranges.length === count &&
    ranges.every((range, index) => index === count - 1 || range.size === partSize);
  const digests: Buffer[] = [];
  for (let index = 0; index < count; index++) {
    const start = index * partSize;
    digests.push(
      (aligned ? ranges[index]!.digest : undefined) ??
        (await fileChecksum(file, attempt.algorithm, start, Math.min(size, start + partSize))),
    );
  }
  return digests;
}

/** How many parts an ETag or checksum says its object has ("…-3" is 3), or "several". */
function partCountOf(expected: string): string {
  return /-(\d+)"?$/.exec(expected)?.[1] ?? 'several';
}

/**
 * The plan's checks made on bytes as they pass, in one pass (no file to read again): what a browser
 * saves through the web host. Every attempt hashes as it goes (a few, where the part size is a
 * guess); `finish` says how the bytes were checked, or throws ChecksumMismatch.
 */
export class StreamVerifier {
  private readonly runs: AttemptRun[];
  private readonly plan: VerificationPlan;

  constructor(plan: VerificationPlan) {
    this.plan = plan;
    this.runs = plan.attempts.map((attempt) => new AttemptRun(attempt));
  }

  update(chunk: Uint8Array): void {
    for (const run of this.runs) run.update(chunk);
  }

  finish(what: string): VerificationOutcome {
    if (this.runs.length === 0) return { how: 'size-only', verified: undefined, why: this.plan.why };
    const results = this.runs.map((run) => run.result());
    const matched = this.plan.attempts.find((attempt, i) => results[i] === attempt.expected);
    return matched ? matchedBy(matched) : noMatch(this.plan, results[0]!, what, 'the download was stopped. Try again');
  }
}

/** One attempt's hashing of a stream: whole, or part by part at its part size. */
class AttemptRun {
  private readonly attempt: VerificationAttempt;
  private hasher: ReturnType<typeof createHasher>;
  private inPart = 0;
  private readonly parts: Buffer[] = [];

  constructor(attempt: VerificationAttempt) {
    this.attempt = attempt;
    this.hasher = createHasher(attempt.algorithm);
  }

  update(chunk: Uint8Array): void {
    const partSize = this.attempt.partSize;
    if (this.attempt.check === 'whole-crc' || this.attempt.check === 'md5-file' || partSize === undefined) {
      this.hasher.update(chunk);
      return;
    }
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(chunk.length - offset, partSize - this.inPart);
      this.hasher.update(chunk.subarray(offset, offset + take));
      offset += take;
      this.inPart += take;
      if (this.inPart === partSize) {
        this.parts.push(Buffer.from(this.hasher.digest()));
        this.hasher = createHasher(this.attempt.algorithm);
        this.inPart = 0;
      }
    }
  }

  result(): string {
    const { algorithm, check } = this.attempt;
    if (check === 'whole-crc' || check === 'md5-file') return `${algorithm}:${toBase64(this.hasher.digest())}`;
    // The last part, where bytes of it came (or the only one, of an empty object).
    return partsValue(
      this.attempt,
      this.inPart > 0 || this.parts.length === 0 ? [...this.parts, Buffer.from(this.hasher.digest())] : this.parts,
    );
  }
}
