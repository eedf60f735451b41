// When a store's answer is a refusal of S3's checksum headers (and the connection stops sending
// them), and when it is an error of its own that must stay one.

import { describe, expect, it } from 'vitest';
import {
  checksumHeadersIn,
  learnChecksumHeaderRefusal,
  refusesChecksumHeaders,
} from '../../../../../main/engine/s3/checksum-headers.ts';
import type { LearntOfStore } from '../../../../../main/engine/s3/checksum-headers.ts';

function storeError(
  name: string,
  status: number,
  message = name,
  fields: { Header?: string; ArgumentName?: string } = {},
): Error {
  return Object.assign(new Error(message), { name, ...fields, $metadata: { httpStatusCode: status } });
}

const NOT_IMPLEMENTED = 'A header you provided implies functionality that is not implemented';
const crcPut = {
  'x-amz-checksum-crc32c': 'yZRlqg==',
  'content-md5': 'XrY7u+Ae7tCTyyK7j1rNww==',
  'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
};

function connection(trailers: LearntOfStore['trailers'] = 'unknown'): LearntOfStore {
  return { checksumHeaders: 'unknown', trailers };
}

describe('the checksum headers', () => {
  it('are x-amz-checksum-* (not x-amz-checksum-mode, which asks for checksums back), x-amz-sdk-checksum-* and x-amz-trailer', () => {
    expect(
      checksumHeadersIn({
        'x-amz-checksum-crc32c': '',
        'X-Amz-Checksum-Algorithm': '',
        'x-amz-checksum-type': '',
        'x-amz-sdk-checksum-algorithm': '',
        'x-amz-trailer': '',
        'x-amz-checksum-mode': '',
        'content-md5': '',
        'x-amz-content-sha256': '',
        'x-amz-trailer-extra': '',
      }),
    ).toEqual([
      'x-amz-checksum-crc32c',
      'X-Amz-Checksum-Algorithm',
      'x-amz-checksum-type',
      'x-amz-sdk-checksum-algorithm',
      'x-amz-trailer',
    ]);
  });
});

describe('a refusal of the checksum headers', () => {
  it('is a 501 NotImplemented naming none of the headers, or one of them', () => {
    expect(refusesChecksumHeaders(storeError('NotImplemented', 501, NOT_IMPLEMENTED), ['x-amz-checksum-crc32c'])).toBe(
      true,
    );
    expect(
      refusesChecksumHeaders(
        storeError('NotImplemented', 501, NOT_IMPLEMENTED, { Header: 'x-amz-checksum-algorithm' }),
        ['x-amz-checksum-algorithm'],
      ),
    ).toBe(true);
    expect(refusesChecksumHeaders(storeError('Http501', 501, 'HTTP 501'), ['x-amz-checksum-crc32'])).toBe(true);
  });

  it('is a 400 InvalidArgument or InvalidRequest that names one, by its ArgumentName or in its message', () => {
    expect(
      refusesChecksumHeaders(
        storeError('InvalidArgument', 400, 'Unsupported header received.', { ArgumentName: 'x-amz-checksum-crc32c' }),
        ['x-amz-checksum-crc32c'],
      ),
    ).toBe(true);
    expect(
      refusesChecksumHeaders(
        storeError('InvalidRequest', 400, 'Header x-amz-sdk-checksum-algorithm is not supported.'),
        ['x-amz-sdk-checksum-algorithm'],
      ),
    ).toBe(true);
    expect(
      refusesChecksumHeaders(storeError('InvalidArgument', 400, 'x-amz-trailer is not supported'), ['x-amz-trailer']),
    ).toBe(true);
  });

  it('is not a 501 naming another header, nor one to a request that carried none of them', () => {
    expect(
      refusesChecksumHeaders(storeError('NotImplemented', 501, NOT_IMPLEMENTED, { Header: 'Transfer-Encoding' }), [
        'x-amz-checksum-crc32c',
      ]),
    ).toBe(false);
    expect(
      refusesChecksumHeaders(storeError('NotImplemented', 501, 'x-amz-storage-class GLACIER_IR is not implemented'), [
        'x-amz-checksum-crc32c',
      ]),
    ).toBe(false);
    expect(refusesChecksumHeaders(storeError('NotImplemented', 501, NOT_IMPLEMENTED), [])).toBe(false);
  });

  it('is not a 400 that names no checksum header, nor a verdict on the bytes, nor any other answer', () => {
    // MinIO, to a part without the CRC its upload was created with: the store wants the header, not the reverse.
    expect(
      refusesChecksumHeaders(
        storeError(
          'InvalidArgument',
          400,
          'Invalid arguments provided for b/k: (checksum missing, want "CRC32C", got "")',
        ),
        ['x-amz-checksum-crc32c'],
      ),
    ).toBe(false);
    expect(
      refusesChecksumHeaders(
        storeError('InvalidArgument', 400, 'Invalid storage class.', { ArgumentName: 'x-amz-storage-class' }),
        ['x-amz-checksum-crc32c'],
      ),
    ).toBe(false);
    expect(
      refusesChecksumHeaders(storeError('InvalidArgument', 400, 'x-amz-checksum-mode must be ENABLED'), [
        'x-amz-checksum-crc32c',
      ]),
    ).toBe(false);
    expect(
      refusesChecksumHeaders(
        storeError('BadDigest', 400, 'The x-amz-checksum-crc32c you specified did not match the calculated checksum.'),
        ['x-amz-checksum-crc32c'],
      ),
    ).toBe(false);
    expect(
      refusesChecksumHeaders(
        storeError('XAmzContentChecksumMismatch', 400, 'The provided x-amz-checksum-crc32c header does not match'),
        ['x-amz-checksum-crc32c'],
      ),
    ).toBe(false);
    expect(
      refusesChecksumHeaders(storeError('AccessDenied', 403, 'x-amz-checksum-crc32c'), ['x-amz-checksum-crc32c']),
    ).toBe(false);
    expect(refusesChecksumHeaders(storeError('InternalError', 500), ['x-amz-checksum-crc32c'])).toBe(false);
  });
});

describe('learning it', () => {
  it('marks the connection and says to send the request again; anything else comes back as it was', () => {
    const store = connection();
    const other = storeError('NotImplemented', 501, NOT_IMPLEMENTED, { Header: 'Transfer-Encoding' });
    expect(learnChecksumHeaderRefusal(store, other, crcPut)).toBe(other);
    expect(store.checksumHeaders).toBe('unknown');
    const refusal = storeError('NotImplemented', 501, NOT_IMPLEMENTED);
    expect(learnChecksumHeaderRefusal(store, refusal, crcPut)).toMatchObject({
      code: 'ChecksumHeadersRefused',
      message:
        "The store refused S3's checksum headers (x-amz-checksum-crc32c: NotImplemented, HTTP 501); this connection sends Content-MD5 or a signed SHA-256 instead from now on.",
      cause: refusal,
    });
    expect(store.checksumHeaders).toBe('refused');
  });

  it("leaves a refused checksum after the body to the trailer's reading, until the store has taken one", () => {
    const trailer = {
      'x-amz-trailer': 'x-amz-checksum-crc32c',
      'content-encoding': 'aws-chunked',
      'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
    };
    const refusal = storeError('NotImplemented', 501, NOT_IMPLEMENTED);
    const first = connection('unknown');
    expect(learnChecksumHeaderRefusal(first, refusal, trailer)).toBe(refusal);
    expect(first.checksumHeaders).toBe('unknown');
    // It took them before: now it refuses checksum headers (a store upgraded, a fleet mixed).
    const taking = connection('taken');
    expect(learnChecksumHeaderRefusal(taking, refusal, trailer)).toMatchObject({ code: 'ChecksumHeadersRefused' });
    expect(taking.checksumHeaders).toBe('refused');
  });
});
