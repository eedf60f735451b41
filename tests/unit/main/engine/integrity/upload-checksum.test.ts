// When a store's refusal of a trailing checksum turns the connection back to checksums before the
// body, and when a failure is about the bytes, not the trailer.

import { describe, expect, it } from 'vitest';
import { afterTrailerFailure, trailerTaken, trailingCrc } from '../../../../../main/engine/integrity/upload-checksum.ts';
import type { RequestKind } from '../../../../../main/engine/integrity/upload-checksum.ts';
import type { S3Connection } from '../../../../../main/engine/s3/s3-connection.ts';

function connection(trailers: S3Connection['trailers'] = 'unknown', crcEcho: S3Connection['crcEcho'] = 'echoes'): S3Connection {
  return { trailers, crcEcho } as S3Connection;
}

function storeError(name: string, status: number): Error {
  return Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
}

const part: RequestKind = { algorithm: 'CRC32C', crc: 'CRC32C', crcRequired: true, buffered: false };

describe('trailing checksums', () => {
  it('are used only once the store has echoed a CRC, for streamed requests, until refused', () => {
    expect(trailingCrc(connection('unknown', 'echoes'), part)).toBe('CRC32C');
    expect(trailingCrc(connection('unknown', 'unknown'), part)).toBeUndefined();
    expect(trailingCrc(connection('unknown', 'ignores'), part)).toBeUndefined();
    expect(trailingCrc(connection('refused', 'echoes'), part)).toBeUndefined();
    expect(trailingCrc(connection('unknown', 'echoes'), { ...part, buffered: true })).toBeUndefined();
  });

  it('a 400, 411 or 501 answer to one is a refusal: the connection sends checksums first from then on', () => {
    for (const [code, status] of [['NotImplemented', 501], ['MissingContentLength', 411], ['InvalidArgument', 400]] as const) {
      const refusing = connection();
      expect(afterTrailerFailure(refusing, storeError(code, status))).toMatchObject({ code: 'TrailerRefused' });
      expect(refusing.trailers).toBe('refused');
    }
  });

  it('a verdict on the bytes (BadDigest, MinIO\'s XAmzContentChecksumMismatch), a timeout or a denial is no refusal', () => {
    for (const [code, status] of [['BadDigest', 400], ['XAmzContentChecksumMismatch', 400], ['RequestTimeout', 400], ['AccessDenied', 403], ['InternalError', 500]] as const) {
      const store = connection();
      const error = storeError(code, status);
      expect(afterTrailerFailure(store, error)).toBe(error);
      expect(store.trailers).toBe('unknown');
    }
  });

  it('once one was taken, a later 400 is about that request, not trailers; a refusal is not undone by a part that was taken', () => {
    const taking = connection('taken');
    const error = storeError('InvalidArgument', 400);
    expect(afterTrailerFailure(taking, error)).toBe(error);
    expect(taking.trailers).toBe('taken');
    const refused = connection('refused');
    trailerTaken(refused);
    expect(refused.trailers).toBe('refused');
  });
});
