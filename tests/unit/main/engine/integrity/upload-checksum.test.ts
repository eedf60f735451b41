// When a store's refusal of a trailing checksum turns the connection back to checksums before the
// body, and when a failure is about the bytes, not the trailer; and what requests carry once a store
// has refused the checksum headers themselves.

import { describe, expect, it } from 'vitest';
import {
  afterTrailerFailure,
  crcProbe,
  digestsFor,
  multipartCrc,
  signsBufferedBody,
  trailerTaken,
  trailingCrc,
} from '../../../../../main/engine/integrity/upload-checksum.ts';
import type { RequestKind } from '../../../../../main/engine/integrity/upload-checksum.ts';
import type { S3Connection } from '../../../../../main/engine/s3/s3-connection.ts';

function connection(
  trailers: S3Connection['trailers'] = 'unknown',
  crcEcho: S3Connection['crcEcho'] = 'echoes',
  checksumHeaders: S3Connection['checksumHeaders'] = 'unknown',
): S3Connection {
  return { trailers, crcEcho, checksumHeaders, uploadChecksum: 'CRC32C' } as S3Connection;
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
    for (const [code, status] of [
      ['NotImplemented', 501],
      ['MissingContentLength', 411],
      ['InvalidArgument', 400],
    ] as const) {
      const refusing = connection();
      expect(afterTrailerFailure(refusing, storeError(code, status))).toMatchObject({ code: 'TrailerRefused' });
      expect(refusing.trailers).toBe('refused');
    }
  });

  it("a verdict on the bytes (BadDigest, MinIO's XAmzContentChecksumMismatch), a timeout or a denial is no refusal", () => {
    for (const [code, status] of [
      ['BadDigest', 400],
      ['XAmzContentChecksumMismatch', 400],
      ['RequestTimeout', 400],
      ['AccessDenied', 403],
      ['InternalError', 500],
    ] as const) {
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

describe('on a store that refuses the checksum headers', () => {
  const streamed: RequestKind = { algorithm: 'CRC32C', crc: 'CRC32C', crcRequired: false, buffered: false };
  const buffered: RequestKind = { ...streamed, buffered: true };

  it('streamed bodies carry Content-MD5 alone, buffered ones their signed SHA-256 alone, whatever the store echoed before', () => {
    for (const crcEcho of ['unknown', 'echoes', 'ignores'] as const) {
      const refusing = connection('unknown', crcEcho, 'refused');
      expect(digestsFor(refusing, streamed)).toEqual(['MD5']);
      expect(digestsFor(refusing, buffered)).toEqual([]);
      expect(signsBufferedBody(refusing, 'CRC32C')).toBe(true);
      expect(trailingCrc(refusing, streamed)).toBeUndefined();
    }
    // Before: the CRC beside Content-MD5 until the store echoes it; then the CRC alone, unsigned.
    expect(digestsFor(connection('unknown', 'unknown'), streamed)).toEqual(['CRC32C', 'MD5']);
    expect(signsBufferedBody(connection('unknown', 'echoes'), 'CRC32C')).toBe(false);
  });

  it('new multipart uploads are created without a CRC, and no request waits for a CRC probe', async () => {
    expect(multipartCrc(connection('unknown', 'unknown'), 'CRC32C')).toBe('CRC32C');
    expect(multipartCrc(connection('unknown', 'unknown', 'refused'), 'CRC32C')).toBeUndefined();
    expect(await crcProbe(connection('unknown', 'unknown', 'refused'), streamed)).toBeUndefined();
  });

  it('a part of an upload created with a CRC cannot go without it: the upload starts again', () => {
    expect(() => digestsFor(connection('unknown', 'echoes', 'refused'), part)).toThrow(
      expect.objectContaining({ code: 'MultipartChecksumRefused' }),
    );
  });

  it('Content-MD5 alone, asked for, is no checksum header: it goes as before', () => {
    expect(
      digestsFor(connection('unknown', 'unknown', 'refused'), {
        algorithm: 'MD5',
        crc: undefined,
        crcRequired: false,
        buffered: false,
      }),
    ).toEqual(['MD5']);
  });
});
