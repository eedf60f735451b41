// The checksum an upload request carries, and the check of what the store answers.
//
// The store verifies the bytes it receives against the header before keeping them (a mismatch is
// refused as BadDigest); its answer echoes the CRC it stored, which is compared here. A store that
// answers without the echo ignores CRC headers: the connection then switches to Content-MD5, which
// every S3-compatible store checks.

import type { UploadChecksum } from '../../src/connection.ts';
import { checksumHeader, toBase64 } from './checksums.ts';
import type { ChecksumAlgorithm } from './checksums.ts';
import { BargeError } from './errors.ts';
import type { S3Connection } from './s3-connection.ts';
import type { StoredObject } from './s3-wire.ts';

export type UploadAlgorithm = Exclude<UploadChecksum, 'OFF'> & ChecksumAlgorithm;

export interface RequestChecksum {
  readonly algorithm: UploadAlgorithm;
  readonly digest: Buffer;
  /** The header's value (base64, as S3 wants it for Content-MD5 and the CRCs alike). */
  readonly value: string;
  readonly headers: Record<string, string>;
}

/** The algorithm this connection's uploads use now, or undefined for none. */
export function uploadAlgorithm(connection: S3Connection): UploadAlgorithm | undefined {
  return connection.uploadChecksum === 'OFF' ? undefined : connection.uploadChecksum;
}

export function requestChecksum(algorithm: UploadAlgorithm, digest: Buffer): RequestChecksum {
  const value = toBase64(digest);
  return { algorithm, digest, value, headers: { [checksumHeader(algorithm)]: value } };
}

/**
 * For a receipt, when the store reports no checksum: the Content-MD5 sent, which the store checked
 * (it refuses a wrong one). A CRC it did not echo was ignored, so it proves nothing and is not shown.
 */
export function verifiedWithoutEcho(checksum: RequestChecksum | undefined): string | undefined {
  return checksum?.algorithm === 'MD5' ? `MD5:${checksum.value}` : undefined;
}

/**
 * Compare the store's echo with what was sent; a missing echo of a CRC means the store ignores
 * them, and the connection moves to Content-MD5 for what follows.
 */
export function checkEcho(connection: S3Connection, sent: RequestChecksum | undefined, stored: StoredObject, what: string): void {
  if (!sent || sent.algorithm === 'MD5') return;
  const echoed = stored.checksums?.[sent.algorithm];
  if (echoed === undefined) {
    connection.uploadChecksum = 'MD5';
    return;
  }
  if (echoed !== sent.value) {
    throw new BargeError('ChecksumMismatch', `The store reports ${sent.algorithm} ${echoed} for ${what}, but ${sent.value} was sent; the upload is not trusted. Retry it.`);
  }
}
