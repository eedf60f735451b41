// The checksums an upload request carries, and the check of what the store answers.
//
// Every request that carries bytes must be checked by the store before it keeps them, on any store.
// AWS, MinIO and versitygw verify a CRC header (x-amz-checksum-*) and echo it; a large family of
// S3-compatible stores that predate flexible checksums (Ceph's RGW among them) accept the header and
// neither check nor echo it. Every store checks Content-MD5. So until a store has echoed a CRC on
// this connection, streamed requests carry Content-MD5 beside it; once it has, the CRC alone; a store
// that answered without the echo gets Content-MD5 alone from then on. The first requests of every
// run are checked either way. Once a store has echoed, streamed requests send their CRC after the
// body instead (trailing-checksum.ts), so each is read once; while the first one finds out, the
// others wait for its answer (a couple of seconds at most).
//
// A buffered body (a small file) is hashed with SHA-256 into the request's signature, which every
// store checks, so it needs no Content-MD5; once the store has echoed a CRC, the CRC alone.
//
// A store that refuses the checksum headers themselves (s3/checksum-headers.ts) gets none from then
// on: Content-MD5 for streamed bodies, the signed SHA-256 for buffered ones. A multipart upload
// created with a CRC before that was learnt cannot go on (the store wants that CRC on every part):
// it is started again without one (MultipartChecksumRefused).
//
// (Comparing the ETag with the MD5 sent would add nothing where Content-MD5 went, and fails on stores
// whose ETags look like MD5s without being one; it is not done.)

import type { UploadChecksum } from '../../../src/connection.ts';
import type { Verification } from '../../../src/verification.ts';
import { checksumHeader, toBase64 } from './checksums.ts';
import type { ChecksumAlgorithm, CrcAlgorithm } from './checksums.ts';
import { BargeError, errorCode, httpStatus } from '../errors.ts';
import { regionRedirectOf } from '../queue/retry-policy.ts';
import type { StoredObject } from './store-answers.ts';

/** What this connection has learnt of the store's CRC checks. */
export type CrcEcho = 'unknown' | 'echoes' | 'ignores';

/**
 * What a connection knows of its store's checksums: held by the connection (s3/s3-connection.ts
 * extends it), read and learnt here, from the answers of the requests it checks.
 */
export interface StoreChecksumFacts {
  /** What uploads carry. */
  readonly uploadChecksum: UploadChecksum;
  /** Whether the store has echoed a CRC (so checks it), or answered without one (ignores them). */
  crcEcho: CrcEcho;
  /** The request finding out whether the store echoes CRCs, while one is. */
  crcProbe?: Promise<void>;
  /** Whether the store took a checksum sent after the body (trailing-checksum.ts), or refused one. */
  trailers: 'unknown' | 'taken' | 'refused';
  /** Whether the store refused S3's checksum headers, so none is sent (s3/checksum-headers.ts). */
  readonly checksumHeaders: 'unknown' | 'refused';
}

export type UploadAlgorithm = Exclude<UploadChecksum, 'OFF'> & ChecksumAlgorithm;

export interface SentDigest {
  readonly digest: Buffer;
  /** The header's value (base64, as S3 wants it for Content-MD5 and the CRCs alike). */
  readonly value: string;
}

export interface RequestChecksums {
  readonly crc?: SentDigest & { readonly algorithm: CrcAlgorithm };
  readonly md5?: SentDigest;
  readonly headers: Record<string, string>;
}

/** The algorithm this connection's uploads use, or undefined for none. */
export function uploadAlgorithm(connection: StoreChecksumFacts): UploadAlgorithm | undefined {
  return connection.uploadChecksum === 'OFF' ? undefined : connection.uploadChecksum;
}

/**
 * The CRC a new multipart upload is created with: none once the store is known to ignore them, or to refuse their
 * headers.
 */
export function multipartCrc(
  connection: StoreChecksumFacts,
  algorithm: UploadAlgorithm | undefined,
): CrcAlgorithm | undefined {
  return algorithm && algorithm !== 'MD5' && connection.crcEcho !== 'ignores' && !refusesHeaders(connection)
    ? algorithm
    : undefined;
}

function refusesHeaders(connection: StoreChecksumFacts): boolean {
  return connection.checksumHeaders === 'refused';
}

/**
 * Whether a buffered body's SHA-256 is signed: until the store has shown it checks the CRC (then the
 * CRC alone proves the bytes, and hashing them twice costs CPU for nothing), and always once it
 * refuses the CRC's header.
 */
export function signsBufferedBody(connection: StoreChecksumFacts, crc: CrcAlgorithm | undefined): boolean {
  return !(crc && connection.crcEcho === 'echoes' && !refusesHeaders(connection));
}

/** What a request carries: its upload's choice, and whether its body is signed (buffered). */
export interface RequestKind {
  readonly algorithm: UploadAlgorithm | undefined;
  /** The CRC the request carries: a part always carries the one its upload was created with. */
  readonly crc: CrcAlgorithm | undefined;
  /** A part of an upload created with `crc`: the store expects it on every part. */
  readonly crcRequired: boolean;
  /** The body is signed with its SHA-256, so it needs no Content-MD5 of its own. */
  readonly buffered: boolean;
}

/** The digests a request needs now, given what the connection has learnt of the store. */
export function digestsFor(connection: StoreChecksumFacts, kind: RequestKind): ChecksumAlgorithm[] {
  if (!kind.algorithm) return [];
  if (kind.algorithm === 'MD5') return ['MD5'];
  if (refusesHeaders(connection)) {
    if (kind.crcRequired) {
      throw new BargeError(
        'MultipartChecksumRefused',
        `The store refuses the ${kind.crc} header its multipart upload was created to carry on every part; the ` +
          `upload is started again without it.`,
      );
    }
    return kind.buffered ? [] : ['MD5'];
  }
  const digests: ChecksumAlgorithm[] =
    kind.crc && (kind.crcRequired || connection.crcEcho !== 'ignores') ? [kind.crc] : [];
  if (!kind.buffered && connection.crcEcho !== 'echoes') digests.push('MD5');
  return digests;
}

/**
 * The CRC a streamed request sends after its body rather than before it (trailing-checksum.ts), so
 * its bytes are read once: once the store has echoed a CRC on this connection (it checks them, so
 * Content-MD5 is no longer sent), and unless it refused a trailer.
 */
export function trailingCrc(connection: StoreChecksumFacts, kind: RequestKind): CrcAlgorithm | undefined {
  return kind.crc &&
    !kind.buffered &&
    connection.crcEcho === 'echoes' &&
    connection.trailers !== 'refused' &&
    !refusesHeaders(connection)
    ? kind.crc
    : undefined;
}

/** The longest a request waits for the first one's answer before it reads its bytes twice. */
const CRC_PROBE_WAIT_MS = 2_000;

/**
 * Until the store has shown whether it checks CRCs, a streamed request would read its bytes twice
 * (Content-MD5 must lead the body). The first such request finds out; the others wait for its answer
 * (up to two seconds, so a slow first request holds no one for long) and then, on a store that
 * echoes, read once. Returns what the finding-out request calls when its answer is in (or it failed).
 */
export async function crcProbe(connection: StoreChecksumFacts, kind: RequestKind): Promise<(() => void) | undefined> {
  if (!kind.crc || kind.buffered || connection.crcEcho !== 'unknown' || refusesHeaders(connection)) return undefined;
  if (connection.crcProbe) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      connection.crcProbe,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CRC_PROBE_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    return undefined;
  }
  let answered!: () => void;
  const probe = new Promise<void>((resolve) => {
    answered = resolve;
  });
  connection.crcProbe = probe;
  return () => {
    if (connection.crcProbe === probe) connection.crcProbe = undefined;
    answered();
  };
}

/**
 * A request with a trailing checksum failed. A store that cannot read one answers 400 or 501 (not
 * BadDigest, which is a verdict on the bytes): from then on this connection reads bodies twice, and
 * the request is sent again that way.
 */
export function afterTrailerFailure(connection: StoreChecksumFacts, error: unknown): unknown {
  const status = httpStatus(error);
  // Read through the synonyms: MinIO's XAmzContentChecksumMismatch is BadDigest, a verdict on bytes.
  const code = errorCode(error);
  if (
    connection.trailers === 'taken' ||
    !TRAILER_REFUSALS.has(status ?? 0) ||
    code === 'BadDigest' ||
    code === 'RequestTimeout'
  )
    return error;
  // A refusal for the bucket's region is about where the request went, not how its body was framed.
  if (regionRedirectOf(error) !== undefined) return error;
  connection.trailers = 'refused';
  return new BargeError(
    'TrailerRefused',
    `The store refused a checksum sent after the body (${code || `HTTP ${status}`}); it is sent before the ` +
      `body from now on.`,
    { cause: error },
  );
}

/** How stores that cannot read aws-chunked bodies answer: 400, 411 (Length Required, Storj's gateway) or 501. */
const TRAILER_REFUSALS: ReadonlySet<number> = new Set([400, 411, 501]);

/** A request with a trailing checksum was taken: the store reads them (unless one was refused meanwhile). */
export function trailerTaken(connection: StoreChecksumFacts): void {
  if (connection.trailers === 'unknown') connection.trailers = 'taken';
}

/**
 * The checksums for the next attempt: those already computed while they are still what the
 * connection wants (they change only when the store turns out to ignore CRCs, or to refuse their
 * headers), else new ones.
 */
export async function checksumsForAttempt(
  connection: StoreChecksumFacts,
  kind: RequestKind,
  current: RequestChecksums | undefined,
  digest: (algorithms: ChecksumAlgorithm[]) => Promise<Buffer[]> | Buffer[],
): Promise<RequestChecksums> {
  const wanted = digestsFor(connection, kind);
  const have = current ? [...(current.crc ? [current.crc.algorithm] : []), ...(current.md5 ? ['MD5'] : [])] : undefined;
  if (current && have!.length === wanted.length && wanted.every((algorithm) => have!.includes(algorithm)))
    return current;
  return requestChecksums(wanted, await digest(wanted));
}

export function requestChecksums(
  algorithms: readonly ChecksumAlgorithm[],
  digests: readonly Buffer[],
): RequestChecksums {
  let crc: RequestChecksums['crc'];
  let md5: SentDigest | undefined;
  const headers: Record<string, string> = {};
  algorithms.forEach((algorithm, index) => {
    const digest = digests[index]!;
    const value = toBase64(digest);
    headers[checksumHeader(algorithm)] = value;
    if (algorithm === 'MD5') md5 = { digest, value };
    else crc = { algorithm: algorithm as CrcAlgorithm, digest, value };
  });
  return { crc, md5, headers };
}

/**
 * Compare the store's answer with what was sent, learn whether the store echoes CRCs, and say how
 * the bytes were checked. `buffered`: the body's SHA-256 was signed.
 */
export function checkAnswer(
  connection: StoreChecksumFacts,
  sent: RequestChecksums,
  stored: StoredObject,
  what: string,
  buffered: boolean,
): Verification {
  let echoed = false;
  if (sent.crc) {
    const echo = stored.checksums?.[sent.crc.algorithm];
    if (echo === undefined) {
      connection.crcEcho = 'ignores';
      // A CRC alone, not echoed: nothing proves the store checked these bytes. Sent again, with
      // Content-MD5 this time (the retry asks checksumsForAttempt again).
      if (!sent.md5 && !buffered) {
        throw Object.assign(
          new Error(
            `The store did not confirm the ${sent.crc.algorithm} of ${what}; it is sent again with Content-MD5.`,
          ),
          { name: 'UncheckedUpload', stored },
        );
      }
    } else if (echo !== sent.crc.value) {
      throw new BargeError(
        'ChecksumMismatch',
        `The store reports ${sent.crc.algorithm} ${echo} for ${what}, but ${sent.crc.value} was sent; the ` +
          `upload is not trusted. Retry it.`,
      );
    } else {
      echoed = true;
      if (connection.crcEcho === 'unknown') connection.crcEcho = 'echoes';
    }
  }
  if (echoed) return 'store-checksum';
  if (sent.md5) return 'content-md5';
  return buffered ? 'signed-sha256' : 'none';
}

/** For a receipt: the checksum the store verified (an echoed CRC, or the Content-MD5 it checked). */
export function verifiedChecksum(
  sent: RequestChecksums,
  stored: StoredObject,
  verification: Verification,
): string | undefined {
  if (verification === 'store-checksum') return stored.checksum;
  if (verification === 'content-md5' && sent.md5) return `MD5:${sent.md5.value}`;
  return undefined;
}
