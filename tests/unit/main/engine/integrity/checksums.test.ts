import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bareEtag,
  checksumHeader,
  checksumOf,
  compositeChecksum,
  createHasher,
  multipartEtag,
  parseChecksumValue,
  toBase64,
} from '../../../../../main/engine/integrity/checksums.ts';
import type { ChecksumAlgorithm, CrcAlgorithm } from '../../../../../main/engine/integrity/checksums.ts';
import { combineCrc, fullObjectCrc } from '../../../../../main/engine/integrity/crc.ts';
import { seededRandom } from '../../../../support/seeded-random.ts';

const CRCS: readonly CrcAlgorithm[] = ['CRC32', 'CRC32C', 'CRC64NVME'];
const MiB = 1024 * 1024;

function randomBytes(next: () => number, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = Math.floor(next() * 256);
  return out;
}

/** The textbook bit-at-a-time reflected CRC: slow, and obviously right. */
function referenceCrc(algorithm: CrcAlgorithm, data: Uint8Array): Buffer {
  const [width, poly] =
    algorithm === 'CRC32'
      ? [32n, 0xedb88320n]
      : algorithm === 'CRC32C'
        ? [32n, 0x82f63b78n]
        : [64n, 0x9a6c9329ac4bc9b5n];
  const mask = (1n << width) - 1n;
  let crc = mask;
  for (const byte of data) {
    crc ^= BigInt(byte);
    for (let k = 0; k < 8; k++) crc = crc & 1n ? (crc >> 1n) ^ poly : crc >> 1n;
  }
  crc ^= mask;
  const out = Buffer.alloc(Number(width / 8n));
  for (let i = out.length - 1; i >= 0; i--, crc >>= 8n) out[i] = Number(crc & 0xffn);
  return out;
}

/** Hash data fed in random pieces (empty ones too), each a view at an odd offset of its own buffer. */
function hashInPieces(algorithm: ChecksumAlgorithm, data: Buffer, next: () => number): Buffer {
  const hasher = createHasher(algorithm);
  for (let offset = 0; offset < data.length;) {
    const size = next() < 0.1 ? 0 : Math.floor(next() * Math.min(data.length - offset, next() < 0.5 ? 40 : 5000)) + 1;
    const shift = Math.floor(next() * 4);
    const copy = new Uint8Array(size + shift);
    copy.set(data.subarray(offset, offset + size), shift);
    hasher.update(copy.subarray(shift));
    offset += size;
  }
  return hasher.digest();
}

describe('createHasher', () => {
  it.each([
    ['CRC32', 'cbf43926'],
    ['CRC32C', 'e3069283'],
    ['CRC64NVME', 'ae8b14860a799888'],
    ['MD5', '25f9e794323b453885f5181f1b624d0b'],
    ['SHA1', 'f7c3bc1d808e04732adf679965ccc34ca7ae3441'],
    ['SHA256', '15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225'],
  ] as const)('%s of "123456789" is the published check value', (algorithm, hex) => {
    expect(checksumOf(algorithm, Buffer.from('123456789')).toString('hex')).toBe(hex);
  });

  it.each(CRCS)("%s of nothing is zero, in the CRC's width", (algorithm) => {
    expect(createHasher(algorithm).digest()).toEqual(Buffer.alloc(algorithm === 'CRC64NVME' ? 8 : 4));
  });

  it.each(CRCS)('%s matches the bit-at-a-time CRC on random data in random pieces', (algorithm) => {
    const next = seededRandom(algorithm.length);
    const lengths = [1, 3, 15, 16, 17, 63, 64, 65, 100, 255, 256, 1000, 4099, 65_537, 300_000];
    for (let i = 0; i < 40; i++) lengths.push(Math.floor(next() * 3000));
    for (const length of lengths) {
      const data = randomBytes(next, length);
      const expected = referenceCrc(algorithm, data);
      expect(checksumOf(algorithm, data), `${length} bytes whole`).toEqual(expected);
      expect(hashInPieces(algorithm, data, next), `${length} bytes in pieces`).toEqual(expected);
    }
  });

  it.each(['MD5', 'SHA1', 'SHA256'] as const)("%s in random pieces is node:crypto's digest", (algorithm) => {
    const next = seededRandom(7);
    const data = randomBytes(next, 100_000);
    expect(hashInPieces(algorithm, data, next)).toEqual(createHash(algorithm.toLowerCase()).update(data).digest());
  });

  it.each(CRCS)('%s: an empty chunk changes nothing, even a view of an empty ArrayBuffer', (algorithm) => {
    // zlib.crc32(new Uint8Array(0).subarray(0), value) answers 0 in Node 24.9, whatever the value.
    const hasher = createHasher(algorithm);
    hasher.update(Buffer.from('1234'));
    hasher.update(new Uint8Array(0).subarray(0));
    hasher.update(Buffer.alloc(0));
    hasher.update(Buffer.from('56789'));
    expect(hasher.digest()).toEqual(checksumOf(algorithm, Buffer.from('123456789')));
  });

  it("keeps each hasher's state its own", () => {
    const next = seededRandom(11);
    const a = randomBytes(next, 5000);
    const b = randomBytes(next, 7000);
    for (const algorithm of CRCS) {
      const ha = createHasher(algorithm);
      const hb = createHasher(algorithm);
      for (let i = 0; i < 7000; i += 1000) {
        ha.update(a.subarray(i, i + 1000));
        hb.update(b.subarray(i, i + 1000));
      }
      expect(ha.digest()).toEqual(checksumOf(algorithm, a));
      expect(hb.digest()).toEqual(checksumOf(algorithm, b));
    }
  });
});

describe("the server's form", () => {
  it('names the header each checksum travels in', () => {
    expect(checksumHeader('CRC32C')).toBe('x-amz-checksum-crc32c');
    expect(checksumHeader('CRC64NVME')).toBe('x-amz-checksum-crc64nvme');
    expect(checksumHeader('MD5')).toBe('content-md5');
  });

  it('base64-encodes the big-endian digest, as MinIO and versitygw report it', () => {
    const data = Buffer.from('123456789');
    expect(toBase64(checksumOf('CRC32', data))).toBe('y/Q5Jg==');
    expect(toBase64(checksumOf('CRC32C', data))).toBe('4waSgw==');
    expect(toBase64(checksumOf('CRC64NVME', data))).toBe('rosUhgp5mIg=');
  });

  it('reads whole-object and composite values', () => {
    expect(parseChecksumValue('QSepcw==')).toEqual({ digest: Buffer.from('QSepcw==', 'base64'), parts: undefined });
    expect(parseChecksumValue('qxAMDQ==-2')).toEqual({ digest: Buffer.from('qxAMDQ==', 'base64'), parts: 2 });
    expect(parseChecksumValue('not base64!')).toBeUndefined();
    expect(parseChecksumValue('')).toBeUndefined();
  });

  it('strips the quotes from an ETag', () => {
    expect(bareEtag('"3567C5796C75F963497E6280C558306D-2"')).toBe('3567c5796c75f963497e6280c558306d-2');
    expect(bareEtag('W/"abc"')).toBe('abc');
    expect(bareEtag('abc')).toBe('abc');
  });
});

describe('multipart uploads', () => {
  // Two parts, and what MinIO (2026-02) and versitygw 1.8.0 both reported for them: per part, and
  // for the object after CompleteMultipartUpload, for each checksum type.
  const parts = [Buffer.alloc(5 * MiB, 'barge'), Buffer.alloc(MiB + 1, 'part two')];
  const sized = (algorithm: CrcAlgorithm) =>
    parts.map((part) => ({ digest: checksumOf(algorithm, part), size: part.length }));

  it('computes the part checksums the server reported', () => {
    expect(parts.map((part) => toBase64(checksumOf('CRC32C', part)))).toEqual(['zfzwWA==', 'rMWabg==']);
    expect(parts.map((part) => toBase64(checksumOf('CRC32', part)))).toEqual(['QoXNVQ==', 'R5iXZA==']);
    expect(parts.map((part) => toBase64(checksumOf('CRC64NVME', part)))).toEqual(['+kIQnk35lXc=', 'VLrw1WGf79U=']);
    expect(parts.map((part) => checksumOf('MD5', part).toString('hex'))).toEqual([
      'a3fe4b847b46754cf2b774fd7900b101',
      '085489b10c4aa3f9d7aaac686a547c96',
    ]);
  });

  it('computes the COMPOSITE checksums the server reported', () => {
    expect(
      compositeChecksum(
        'CRC32C',
        parts.map((part) => checksumOf('CRC32C', part)),
      ),
    ).toBe('qxAMDQ==-2');
    expect(
      compositeChecksum(
        'CRC32',
        parts.map((part) => checksumOf('CRC32', part)),
      ),
    ).toBe('CC2iLQ==-2');
    expect(
      compositeChecksum(
        'SHA256',
        parts.map((part) => checksumOf('SHA256', part)),
      ),
    ).toBe('hgq7sitlk6/fy5vFuyiKG9KgzCoCbUuwAscHzaIkYRk=-2');
  });

  it("computes the FULL_OBJECT checksums the server reported, from the parts' CRCs alone", () => {
    expect(toBase64(fullObjectCrc('CRC32C', sized('CRC32C')))).toBe('QSepcw==');
    expect(toBase64(fullObjectCrc('CRC32', sized('CRC32')))).toBe('UMJm8w==');
    expect(toBase64(fullObjectCrc('CRC64NVME', sized('CRC64NVME')))).toBe('/qmz9VqpcY8=');
    for (const algorithm of CRCS)
      expect(fullObjectCrc(algorithm, sized(algorithm))).toEqual(checksumOf(algorithm, Buffer.concat(parts)));
  });

  it('computes the ETag the server reported (MD5 of the parts\' MD5s, "-N")', () => {
    expect(multipartEtag(parts.map((part) => checksumOf('MD5', part)))).toBe('3567c5796c75f963497e6280c558306d-2');
  });
});

describe('combineCrc', () => {
  it.each(CRCS)('%s: crc(A + B) from crc(A), crc(B) and |B|, for random splits', (algorithm) => {
    const next = seededRandom(algorithm.length + 100);
    for (let i = 0; i < 30; i++) {
      const a = randomBytes(next, Math.floor(next() * 2000));
      const b = randomBytes(next, i === 0 ? 0 : Math.floor(next() * 70_000));
      expect(combineCrc(algorithm, checksumOf(algorithm, a), checksumOf(algorithm, b), b.length)).toEqual(
        checksumOf(algorithm, Buffer.concat([a, b])),
      );
    }
  });

  it.each(CRCS)('%s: pieces of zeros combine to the CRC of all the zeros', (algorithm) => {
    const zeros = Buffer.alloc(3 * MiB + 5);
    const piece = checksumOf(algorithm, zeros.subarray(0, MiB));
    let crc = createHasher(algorithm).digest();
    for (let i = 0; i < 3; i++) crc = combineCrc(algorithm, crc, piece, MiB);
    crc = combineCrc(algorithm, crc, checksumOf(algorithm, zeros.subarray(0, 5)), 5);
    expect(crc).toEqual(checksumOf(algorithm, zeros));
  });

  it.each(CRCS)('%s: lengths beyond 4 GiB combine consistently (associativity)', (algorithm) => {
    const next = seededRandom(3);
    const width = algorithm === 'CRC64NVME' ? 8 : 4;
    const [a, b, c] = [randomBytes(next, width), randomBytes(next, width), randomBytes(next, width)];
    const n = 5 * 1024 ** 4; // 5 TiB, the largest object
    const m = 2 ** 32 + 12_345;
    expect(combineCrc(algorithm, combineCrc(algorithm, a, b, n), c, m)).toEqual(
      combineCrc(algorithm, a, combineCrc(algorithm, b, c, m), n + m),
    );
  });

  it('refuses a length that is not one', () => {
    const crc = Buffer.alloc(4);
    expect(() => combineCrc('CRC32C', crc, crc, -1)).toThrow(RangeError);
    expect(() => combineCrc('CRC32C', crc, crc, 1.5)).toThrow(RangeError);
  });
});
