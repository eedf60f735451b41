// A body sent with its checksum after it (aws-chunked, STREAMING-UNSIGNED-PAYLOAD-TRAILER): the CRC
// is computed as the bytes go out, so each part is read from the disk once, not once for a checksum
// header and again to send.
//
// The body is cut into chunks of a fixed size, each "<hex size>\r\n<bytes>\r\n", then "0\r\n", the
// trailer "x-amz-checksum-<algorithm>:<base64>\r\n" and "\r\n". Fixed sizes make the encoded length
// known before the first byte (HTTP needs it in Content-Length); the pieces the file gives are cut
// at chunk boundaries as views, never copied.

import { checksumHeader, createHasher, toBase64 } from './checksums.ts';
import type { CrcAlgorithm } from './checksums.ts';
import { BargeError } from '../errors.ts';
import type { StreamedBody } from '../disk/streamed-body.ts';

/** Chunks of 1 MiB: few framing lines, and well inside every store's largest chunk (MinIO's 16 MiB). */
export const TRAILER_CHUNK_BYTES = 1024 * 1024;

const CRLF = Buffer.from('\r\n', 'latin1');

/** The trailer line's length for this algorithm (its base64 value has a fixed length). */
function trailerLength(algorithm: CrcAlgorithm): number {
  const digestBytes = algorithm === 'CRC64NVME' ? 8 : 4;
  return `${checksumHeader(algorithm)}:`.length + Math.ceil(digestBytes / 3) * 4 + 2;
}

function chunkHead(size: number): string {
  return `${size.toString(16)}\r\n`;
}

/** The length on the wire of `size` bytes so encoded. */
export function encodedLength(size: number, algorithm: CrcAlgorithm, chunkBytes = TRAILER_CHUNK_BYTES): number {
  const full = Math.floor(size / chunkBytes);
  const rest = size % chunkBytes;
  let length = full * (chunkHead(chunkBytes).length + chunkBytes + 2);
  if (rest > 0) length += chunkHead(rest).length + rest + 2;
  return length + '0\r\n'.length + trailerLength(algorithm) + 2;
}

/** The request headers of such a body (the signature's payload hash included). */
export function trailerHeaders(size: number, algorithm: CrcAlgorithm): Record<string, string> {
  return {
    'content-encoding': 'aws-chunked',
    'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
    'x-amz-decoded-content-length': String(size),
    'x-amz-trailer': checksumHeader(algorithm),
  };
}

export interface TrailingBody {
  readonly body: StreamedBody;
  readonly contentLength: number;
  /** The checksum of the bytes sent, once the body has ended. */
  digest(): Buffer | undefined;
}

/** `source` (exactly `size` bytes) encoded with its `algorithm` checksum as trailer. */
export function withTrailingChecksum(
  source: StreamedBody,
  size: number,
  algorithm: CrcAlgorithm,
  chunkBytes = TRAILER_CHUNK_BYTES,
): TrailingBody {
  let digest: Buffer | undefined;
  const body: StreamedBody = {
    async pipeTo(write) {
      const hasher = createHasher(algorithm);
      let sent = 0;
      /** Bytes left in the chunk under way (0: the next byte starts a chunk). */
      let leftInChunk = 0;
      await source.pipeTo(async (piece) => {
        hasher.update(piece);
        for (let at = 0; at < piece.length;) {
          if (leftInChunk === 0) {
            leftInChunk = Math.min(chunkBytes, size - sent);
            // More bytes than were announced: the length sent would be a lie.
            if (leftInChunk <= 0)
              throw new BargeError(
                'FileChanged',
                'The file grew while it was being uploaded (it is longer than when the upload began).',
              );
            await write(Buffer.from(chunkHead(leftInChunk), 'latin1'));
          }
          const take = Math.min(leftInChunk, piece.length - at);
          await write(piece.subarray(at, at + take));
          at += take;
          sent += take;
          leftInChunk -= take;
          if (leftInChunk === 0) await write(CRLF);
        }
      });
      if (sent !== size)
        throw new BargeError(
          'FileChanged',
          'The file changed while it was being uploaded (it is shorter than when the upload began).',
        );
      digest = hasher.digest();
      await write(Buffer.from(`0\r\n${checksumHeader(algorithm)}:${toBase64(digest)}\r\n\r\n`, 'latin1'));
    },
    release: () => source.release(),
  };
  return { body, contentLength: encodedLength(size, algorithm, chunkBytes), digest: () => digest };
}
