import { expect, it } from 'vitest';
import { checksumOf, compositeChecksum, toBase64 } from '../../../main/engine/checksums.ts';
import { factsFromHeaders, planVerification, verifyDownload } from '../../../main/engine/download-verification.ts';
import type { ObjectFacts } from '../../../main/engine/download-verification.ts';

const MIB = 1024 * 1024;
const facts = (over: Partial<ObjectFacts>): ObjectFacts => ({ size: 40 * MIB, etag: undefined, checksums: {}, checksumType: undefined, partsCount: undefined, firstPartSize: undefined, etagIsDigest: true, ...over });

it('a whole-object CRC is combined from ranges of any size', () => {
  expect(planVerification(facts({ checksums: { CRC64NVME: 'AAAAAAAAAAA=' }, checksumType: 'FULL_OBJECT' }), 16 * MIB))
    .toMatchObject({ algorithm: 'CRC64NVME', rangeSize: undefined, check: 'whole-crc' });
});

it('a composite checksum cuts the ranges at the parts, when the parts are equal', () => {
  const plan = planVerification(facts({ checksums: { CRC32C: 'AAAAAA==-8' }, firstPartSize: 5 * MIB }), 16 * MIB);
  expect(plan).toMatchObject({ algorithm: 'CRC32C', rangeSize: 5 * MIB, check: 'composite' });
});

it('parts of unequal size cannot be matched with ranges: the object is checked for size only', () => {
  expect(planVerification(facts({ checksums: { CRC32C: 'AAAAAA==-3' }, firstPartSize: 5 * MIB }), 16 * MIB)).toMatchObject({ check: 'none' });
  expect(planVerification(facts({ etag: '"0123456789abcdef0123456789abcdef-3"', firstPartSize: 5 * MIB }), 16 * MIB)).toMatchObject({ check: 'none' });
});

it('without a checksum, a single-part ETag is an MD5: hashed as it streams when small, from the file when large', () => {
  const etag = '"0123456789abcdef0123456789abcdef"';
  expect(planVerification(facts({ size: MIB, etag }), 16 * MIB)).toMatchObject({ algorithm: 'MD5', check: 'whole-crc' });
  expect(planVerification(facts({ etag }), 16 * MIB)).toMatchObject({ algorithm: 'MD5', check: 'md5-file' });
  // An ETag that is not an MD5 (encrypted objects have others) promises nothing.
  expect(planVerification(facts({ etag: '"not-an-md5"' }), 16 * MIB)).toMatchObject({ check: 'none' });
  // SSE-KMS and SSE-C objects have ETags that look like MD5s but are not.
  for (const headers of [{ 'x-amz-server-side-encryption': 'aws:kms' }, { 'x-amz-server-side-encryption-customer-algorithm': 'AES256' }]) {
    expect(planVerification(factsFromHeaders({ etag, ...headers }, MIB), 16 * MIB)).toMatchObject({ check: 'none' });
  }
  // SSE-S3 (AES256) keeps the MD5 ETag.
  expect(planVerification(factsFromHeaders({ etag, 'x-amz-server-side-encryption': 'AES256' }, MIB), 16 * MIB)).toMatchObject({ check: 'whole-crc', algorithm: 'MD5' });
});

it('verifies a composite from the ranges, and refuses one flipped byte', async () => {
  const parts = [Buffer.alloc(100, 1), Buffer.alloc(100, 2), Buffer.alloc(50, 3)];
  const digests = parts.map((part) => checksumOf('CRC32C', part));
  const plan = { algorithm: 'CRC32C' as const, rangeSize: 100, expected: `CRC32C:${compositeChecksum('CRC32C', digests)}`, check: 'composite' as const };
  await expect(verifyDownload(plan, parts.map((part, i) => ({ digest: digests[i]!, size: part.length })), '', 'x')).resolves.toBe(plan.expected);
  const damaged = Buffer.from(parts[1]!);
  damaged[7] = 0;
  const wrong = [digests[0]!, checksumOf('CRC32C', damaged), digests[2]!];
  await expect(verifyDownload(plan, wrong.map((digest, i) => ({ digest, size: parts[i]!.length })), '', 's3://b/k')).rejects.toMatchObject({ code: 'ChecksumMismatch' });
});

it('a whole-object CRC is checked across ranges by combining their CRCs', async () => {
  const data = Buffer.from('The quick brown fox jumps over the lazy dog, twice over.');
  const whole = toBase64(checksumOf('CRC32C', data));
  const plan = { algorithm: 'CRC32C' as const, rangeSize: undefined, expected: `CRC32C:${whole}`, check: 'whole-crc' as const };
  const ranges = [data.subarray(0, 20), data.subarray(20, 21), data.subarray(21)].map((r) => ({ digest: checksumOf('CRC32C', r), size: r.length }));
  await expect(verifyDownload(plan, ranges, '', 'x')).resolves.toBe(plan.expected);
});
