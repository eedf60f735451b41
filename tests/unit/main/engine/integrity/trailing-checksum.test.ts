// aws-chunked bodies with a trailing checksum: the length announced is the length sent, the bytes
// come out whole, and the trailer carries their CRC.

import { describe, expect, it } from 'vitest';
import {
  encodedLength,
  trailerHeaders,
  withTrailingChecksum,
} from '../../../../../main/engine/integrity/trailing-checksum.ts';
import { checksumOf, toBase64 } from '../../../../../main/engine/integrity/checksums.ts';
import { ChunkedDecoder } from '../../../../../main/engine/s3/direct-get.ts';
import type { StreamedBody } from '../../../../../main/engine/s3/s3-wire.ts';
import { seededRandom } from '../../../../support/seeded-random.ts';

/** `data` as a body of pieces of uneven sizes, as a file read may give them. */
function piecesOf(data: Buffer, sizes: readonly number[]): StreamedBody {
  const pieces: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const size = sizes[i % sizes.length]!;
    pieces.push(data.subarray(at, at + size));
    at += size;
  }
  return {
    async pipeTo(write) {
      for (const piece of pieces) await write(piece);
    },
    release: async () => {},
  };
}

/** What a body writes, each chunk copied (its memory may be used again after the write). */
async function drain(body: StreamedBody): Promise<Buffer> {
  const out: Buffer[] = [];
  await body.pipeTo(async (chunk) => {
    out.push(Buffer.from(chunk));
  });
  return Buffer.concat(out);
}

describe('withTrailingChecksum', () => {
  const random = seededRandom(7);
  const cases = [
    { size: 0, chunk: 1024, pieces: [100] },
    { size: 1, chunk: 1024, pieces: [1] },
    { size: 1024, chunk: 1024, pieces: [1024] },
    { size: 5000, chunk: 1024, pieces: [333, 1024, 7, 2048] },
    { size: 3 * 1024 * 1024 + 5, chunk: 1024 * 1024, pieces: [256 * 1024, 100_000] },
  ];
  for (const algorithm of ['CRC32C', 'CRC32', 'CRC64NVME'] as const) {
    for (const { size, chunk, pieces } of cases) {
      it(`${algorithm}, ${size} bytes in chunks of ${chunk}: the announced length is sent, the bytes decode whole, the trailer is their checksum`, async () => {
        const data = Buffer.from(Array.from({ length: size }, () => Math.floor(random() * 256)));
        const encoded = withTrailingChecksum(piecesOf(data, pieces), size, algorithm, chunk);
        const wire = await drain(encoded.body);
        expect(wire.length).toBe(encoded.contentLength);
        expect(encodedLength(size, algorithm, chunk)).toBe(wire.length);
        const decoder = new ChunkedDecoder();
        const decoded: Buffer[] = [];
        expect(decoder.feed(wire, (bytes) => decoded.push(Buffer.from(bytes)))).toBe(wire.length);
        expect(decoder.done).toBe(true);
        expect(Buffer.concat(decoded).equals(data)).toBe(true);
        const expected = checksumOf(algorithm, data);
        expect(encoded.digest()?.equals(expected)).toBe(true);
        expect(wire.toString('latin1')).toContain(
          `\r\n0\r\nx-amz-checksum-${algorithm.toLowerCase()}:${toBase64(expected)}\r\n\r\n`.slice(size === 0 ? 2 : 0),
        );
        // Every chunk but the last is exactly the chunk size (stores limit chunk sizes).
        const sizes = [...wire.toString('latin1').matchAll(/(?:^|\r\n)([0-9a-f]+)\r\n/g)].map((m) =>
          parseInt(m[1]!, 16),
        );
        expect(sizes.slice(0, -2).every((each) => each === chunk)).toBe(true);
      });
    }
  }

  it('fails a body shorter or longer than announced, as a changed file', async () => {
    const short = withTrailingChecksum(piecesOf(Buffer.alloc(10), [10]), 11, 'CRC32C', 4);
    await expect(drain(short.body)).rejects.toMatchObject({ code: 'FileChanged' });
    const long = withTrailingChecksum(piecesOf(Buffer.alloc(12), [12]), 11, 'CRC32C', 4);
    await expect(drain(long.body)).rejects.toMatchObject({ code: 'FileChanged' });
  });

  it("passes the source's own failure on", async () => {
    let released = false;
    const failing: StreamedBody = {
      pipeTo: async () => {
        throw Object.assign(new Error('disk gone'), { code: 'EIO' });
      },
      release: async () => {
        released = true;
      },
    };
    const encoded = withTrailingChecksum(failing, 5, 'CRC32C');
    await expect(drain(encoded.body)).rejects.toMatchObject({ code: 'EIO' });
    await encoded.body.release();
    expect(released).toBe(true);
  });

  it('announces itself in the headers S3 reads', () => {
    expect(trailerHeaders(123, 'CRC64NVME')).toEqual({
      'content-encoding': 'aws-chunked',
      'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      'x-amz-decoded-content-length': '123',
      'x-amz-trailer': 'x-amz-checksum-crc64nvme',
    });
  });
});
