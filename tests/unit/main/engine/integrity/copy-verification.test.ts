import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checksumOf, toBase64 } from '../../../../../main/engine/integrity/checksums.ts';
import { verifyPartsCopy, verifySingleCopy } from '../../../../../main/engine/integrity/copy-verification.ts';

const data = randomBytes(3000);
const crc = (bytes: Buffer) => toBase64(checksumOf('CRC32C', bytes));

describe('the verdict on a server-side copy', () => {
  it('compares a single copy by the checksum of the same algorithm, then by an MD5 ETag, else says size only', () => {
    const source = {
      size: 3000,
      etag: '"0123456789abcdef0123456789abcdef"',
      checksum: { algorithm: 'CRC32C' as const, value: crc(data) },
    };
    expect(verifySingleCopy(source, source)).toEqual({ verification: 'checksum' });
    expect(verifySingleCopy(source, { ...source, checksum: undefined })).toEqual({ verification: 'etag' });
    expect(
      verifySingleCopy(source, { ...source, checksum: { algorithm: 'CRC32C', value: crc(randomBytes(3000)) } })
        .mismatch,
    ).toMatch(/CRC32C/);
    const multipart = { size: 3000, etag: '"0123456789abcdef0123456789abcdef-2"', checksum: undefined };
    expect(verifySingleCopy(multipart, multipart)).toEqual({ verification: 'size-only' });
    expect(verifySingleCopy(source, { ...source, size: 2999 }).mismatch).toMatch(/2999 bytes/);
  });

  it('combines the parts’ CRCs into the whole object’s and compares it with the source’s', () => {
    const source = { size: 3000, etag: undefined, checksum: { algorithm: 'CRC32C' as const, value: crc(data) } };
    const parts = [data.subarray(0, 1000), data.subarray(1000)].map((part) => ({
      size: part.length,
      checksum: crc(part),
    }));
    expect(verifyPartsCopy(source, 3000, parts)).toEqual({ verification: 'checksum' });
    const swapped = [parts[1]!, parts[0]!];
    expect(verifyPartsCopy(source, 3000, swapped).mismatch).toMatch(/where the source has/);
    expect(verifyPartsCopy(source, 3000, [{ ...parts[0]!, checksum: undefined }, parts[1]!])).toEqual({
      verification: 'size-only',
    });
    // A composite checksum ("-N") is of the source's own parts: no copy's parts can be compared with it.
    expect(
      verifyPartsCopy({ ...source, checksum: { algorithm: 'CRC32C', value: `${crc(data)}-2` } }, 3000, parts),
    ).toEqual({ verification: 'size-only' });
  });
});
