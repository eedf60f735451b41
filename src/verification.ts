// How an object's bytes were checked, as a receipt, a job row and the command line say it.
//
// Uploads: the store checked what it received before keeping it (its echo of a CRC, a Content-MD5
// it verifies, or a SHA-256 of the body signed into the request), or a part kept on resume matched
// the local bytes by its ETag. Downloads: the bytes received matched the object's checksum or ETag,
// or only their count could be checked.

export type Verification =
  | 'store-checksum'
  | 'content-md5'
  | 'signed-sha256'
  | 'etag-md5'
  | 'earlier-run'
  | 'empty'
  | 'checksum'
  | 'etag'
  | 'size-only'
  | 'none';

export const VERIFICATION_LABELS: Readonly<Record<Verification, string>> = {
  'store-checksum': 'CRC verified by the store',
  'content-md5': 'Content-MD5 verified by the store',
  'signed-sha256': 'signed SHA-256 verified by the store',
  'etag-md5': 'ETag equal to the MD5 of the bytes sent',
  'earlier-run': 'checked by the store when sent, before the interruption',
  empty: 'empty object',
  checksum: "matched the store's checksum",
  etag: "matched the store's ETag",
  'size-only': 'size only',
  none: 'not checked (upload checksums off)',
};

/** Weakest first: an object made of parts is as well checked as its least checked part. */
const STRENGTH: Readonly<Record<Verification, number>> = {
  none: 0,
  'size-only': 0,
  'etag-md5': 1,
  'earlier-run': 1,
  'content-md5': 2,
  'signed-sha256': 2,
  etag: 2,
  checksum: 3,
  'store-checksum': 3,
  empty: 3,
};

export function weakest(checks: Iterable<Verification>): Verification | undefined {
  let worst: Verification | undefined;
  for (const check of checks) if (worst === undefined || STRENGTH[check] < STRENGTH[worst]) worst = check;
  return worst;
}

export function isVerification(value: unknown): value is Verification {
  return typeof value === 'string' && Object.hasOwn(VERIFICATION_LABELS, value);
}
