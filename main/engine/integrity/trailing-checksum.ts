// A body sent with its checksum after it (aws-chunked, STREAMING-UNSIGNED-PAYLOAD-TRAILER): the CRC
// is computed as the bytes go out, so each part is read from the disk once, not once for a checksum
// header and again to send.
//
// The body is cut into chunks of a fixed size, each "<hex size>\r\n<bytes>\r\n", then "0\r\n", the
// trailer "x-amz-checksum-<algorithm>:<base64>\r\n" and "\r\n". Fixed sizes make the encoded length
// known before the first byte (HTTP needs it in Content-Length); the pieces the file gives are cut
// at chunk boundaries as views, never copied.

import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { checksumHeader, createHasher, toBase64 } from './checksums.ts';
import type { CrcAlgorithm } from './checksums.ts';
import { BargeError } from '../errors.ts';

/** Chunks of 1 MiB: few framing lines, and well inside every store's largest chunk (MinIO's 16 MiB). */
export const TRAILER_CHUNK_BYTES = 1024 * 1024;

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
  readonly body: Readable;
  readonly contentLength: number;
  /** The checksum of the bytes sent, once the body has ended. */
  digest(): Buffer | undefined;
}

/** `source` (exactly `size` bytes) encoded with its `algorithm` checksum as trailer. */
export function withTrailingChecksum(source: Readable, size: number, algorithm: CrcAlgorithm, chunkBytes = TRAILER_CHUNK_BYTES): TrailingBody {
  const hasher = createHasher(algorithm);
  let digest: Buffer | undefined;
  let sent = 0;
  /** Bytes left in the chunk under way (0: the next byte starts a chunk). */
  let leftInChunk = 0;
  const encoder = new Transform({
    transform(piece: Buffer, _encoding, done) {
      hasher.update(piece);
      for (let at = 0; at < piece.length;) {
        if (leftInChunk === 0) {
          leftInChunk = Math.min(chunkBytes, size - sent);
          // More bytes than were announced: the length sent would be a lie.
          if (leftInChunk <= 0) return done(new BargeError('FileChanged', 'The file grew while it was being uploaded (it is longer than when the upload began).'));
          this.push(chunkHead(leftInChunk), 'latin1');
        }
        const take = Math.min(leftInChunk, piece.length - at);
        this.push(piece.subarray(at, at + take));
        at += take;
        sent += take;
        leftInChunk -= take;
        if (leftInChunk === 0) this.push('\r\n', 'latin1');
      }
      done();
    },
    flush(done) {
      if (sent !== size) return done(new BargeError('FileChanged', 'The file changed while it was being uploaded (it is shorter than when the upload began).'));
      digest = hasher.digest();
      this.push(`0\r\n${checksumHeader(algorithm)}:${toBase64(digest)}\r\n\r\n`, 'latin1');
      done();
    },
  });
  // The source's failure is the encoder's (and so the request's), with its own cause.
  source.once('error', (error) => encoder.destroy(error));
  encoder.once('close', () => { if (!source.destroyed) source.destroy(); });
  source.pipe(encoder);
  return { body: encoder, contentLength: encodedLength(size, algorithm, chunkBytes), digest: () => digest };
}
