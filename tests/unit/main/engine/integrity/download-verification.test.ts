import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import {
  checksumOf,
  compositeChecksum,
  multipartEtag,
  toBase64,
} from '../../../../../main/engine/integrity/checksums.ts';
import {
  etagOfNoBytes,
  factsFromHeaders,
  likelyPartSizes,
  planVerification,
  verifyDownload,
} from '../../../../../main/engine/integrity/download-verification.ts';
import type { ObjectFacts, VerificationPlan } from '../../../../../main/engine/integrity/download-verification.ts';

const MIB = 1024 * 1024;
const facts = (over: Partial<ObjectFacts>): ObjectFacts => ({
  size: 40 * MIB,
  etag: undefined,
  checksums: {},
  checksumType: undefined,
  partsCount: undefined,
  firstPartSize: undefined,
  etagIsDigest: true,
  ...over,
});

async function fileOf(data: Buffer): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'barge-verify-')), 'data.bin');
  await writeFile(file, data);
  return file;
}

it('a whole-object CRC is combined from ranges of any size', () => {
  const plan = planVerification(
    facts({ checksums: { CRC64NVME: 'AAAAAAAAAAA=' }, checksumType: 'FULL_OBJECT' }),
    16 * MIB,
  );
  expect(plan).toMatchObject({
    algorithm: 'CRC64NVME',
    rangeSize: undefined,
    attempts: [{ check: 'whole-crc', guess: false }],
  });
});

it('a composite checksum cuts the ranges at the parts, when the parts are equal', () => {
  const plan = planVerification(facts({ checksums: { CRC32C: 'AAAAAA==-8' }, firstPartSize: 5 * MIB }), 16 * MIB);
  expect(plan).toMatchObject({
    algorithm: 'CRC32C',
    rangeSize: 5 * MIB,
    attempts: [{ check: 'composite', partSize: 5 * MIB, guess: false }],
  });
});

it('the part size Barge recorded in the metadata is exact; without it, likely part sizes are guesses', () => {
  const etag = '"0123456789abcdef0123456789abcdef-3"';
  const recorded = planVerification(
    factsFromHeaders({ etag, 'x-amz-meta-barge-part-size': String(5 * MIB) }, 12 * MIB),
    16 * MIB,
  );
  expect(recorded.attempts).toEqual([
    expect.objectContaining({ check: 'multipart-etag', partSize: 5 * MIB, guess: false }),
  ]);
  // A recorded size that does not give the ETag's part count is ignored.
  const wrong = planVerification(
    factsFromHeaders({ etag, 'x-amz-meta-barge-part-size': String(8 * MIB) }, 12 * MIB),
    16 * MIB,
  );
  expect(wrong.attempts.every((attempt) => attempt.guess)).toBe(true);
  expect(wrong.attempts.map((attempt) => attempt.partSize)).toEqual([5 * MIB]);
  expect(likelyPartSizes(20 * MIB + 3, 3)).toEqual([8 * MIB, 10 * MIB, 7 * MIB]);
  expect(likelyPartSizes(100 * MIB, 2)).toEqual([50 * MIB, 64 * MIB]);
});

it('a checksum without "-N" or a type, on an object whose ETag shows parts, is tried whole and then as composite', () => {
  const plan = planVerification(
    facts({
      size: 12 * MIB,
      etag: '"0123456789abcdef0123456789abcdef-3"',
      checksums: { CRC32C: 'AAAAAA==' },
      firstPartSize: 5 * MIB,
    }),
    16 * MIB,
  );
  expect(plan.attempts.map((attempt) => [attempt.check, attempt.guess])).toEqual([
    ['whole-crc', true],
    ['composite', false],
  ]);
});

it('without a checksum, a single-part ETag is an MD5: hashed as it streams when small, from the file when large', () => {
  const etag = '"0123456789abcdef0123456789abcdef"';
  expect(planVerification(facts({ size: MIB, etag }), 16 * MIB)).toMatchObject({
    algorithm: 'MD5',
    attempts: [{ check: 'whole-crc' }],
  });
  expect(planVerification(facts({ etag }), 16 * MIB)).toMatchObject({
    algorithm: undefined,
    attempts: [{ check: 'md5-file' }],
  });
  // An ETag that is not an MD5 (encrypted objects have others) promises nothing.
  expect(planVerification(facts({ etag: '"not-an-md5"' }), 16 * MIB).attempts).toEqual([]);
  // SSE-KMS and SSE-C objects have ETags that look like MD5s but are not.
  for (const headers of [
    { 'x-amz-server-side-encryption': 'aws:kms' },
    { 'x-amz-server-side-encryption-customer-algorithm': 'AES256' },
  ]) {
    expect(planVerification(factsFromHeaders({ etag, ...headers }, MIB), 16 * MIB)).toMatchObject({
      attempts: [],
      why: expect.stringContaining('SSE-KMS or SSE-C'),
    });
  }
  // SSE-S3 (AES256) keeps the MD5 ETag.
  expect(
    planVerification(factsFromHeaders({ etag, 'x-amz-server-side-encryption': 'AES256' }, MIB), 16 * MIB),
  ).toMatchObject({ algorithm: 'MD5' });
});

const parts = [Buffer.alloc(100, 1), Buffer.alloc(100, 2), Buffer.alloc(50, 3)];
const whole = Buffer.concat(parts);

it('verifies a composite from the ranges, and refuses one flipped byte', async () => {
  const digests = parts.map((part) => checksumOf('CRC32C', part));
  const plan: VerificationPlan = {
    algorithm: 'CRC32C',
    rangeSize: 100,
    attempts: [
      {
        algorithm: 'CRC32C',
        check: 'composite',
        partSize: 100,
        expected: `CRC32C:${compositeChecksum('CRC32C', digests)}`,
        guess: false,
      },
    ],
  };
  const file = await fileOf(whole);
  await expect(
    verifyDownload(
      plan,
      parts.map((part, i) => ({ digest: digests[i]!, size: part.length })),
      'CRC32C',
      file,
      'x',
    ),
  ).resolves.toEqual({ how: 'checksum', verified: plan.attempts[0]!.expected });
  const damaged = Buffer.from(parts[1]!);
  damaged[7] = 0;
  const wrong = [digests[0]!, checksumOf('CRC32C', damaged), digests[2]!];
  await expect(
    verifyDownload(
      plan,
      wrong.map((digest, i) => ({ digest, size: parts[i]!.length })),
      'CRC32C',
      file,
      's3://b/k',
    ),
  ).rejects.toMatchObject({ code: 'ChecksumMismatch' });
});

it('a multipart ETag fetched in one range is checked by parts from the file; a wrong guess moves on to the next', async () => {
  const etag = multipartEtag(parts.map((part) => checksumOf('MD5', part)));
  const file = await fileOf(whole);
  const attempt = (partSize: number) => ({
    algorithm: 'MD5' as const,
    check: 'multipart-etag' as const,
    partSize,
    expected: `ETAG:${etag}`,
    guess: true,
  });
  const plan: VerificationPlan = { algorithm: 'MD5', rangeSize: 90, attempts: [attempt(90), attempt(100)] };
  await expect(
    verifyDownload(plan, [{ digest: checksumOf('MD5', whole), size: whole.length }], 'MD5', file, 'x'),
  ).resolves.toEqual({ how: 'etag', verified: `ETAG:${etag}` });
  // Damaged, no guess matches: checked for size only, and said why.
  const damaged = Buffer.from(whole);
  damaged[150] = damaged[150]! ^ 0xff;
  const outcome = await verifyDownload(
    plan,
    [{ digest: undefined, size: whole.length }],
    'MD5',
    await fileOf(damaged),
    'x',
  );
  expect(outcome).toMatchObject({ how: 'size-only', why: expect.stringContaining('none of the part sizes tried') });
  // The same with the part size known is damage.
  const exact: VerificationPlan = { ...plan, attempts: [{ ...attempt(100), guess: false }] };
  await expect(
    verifyDownload(exact, [{ digest: undefined, size: whole.length }], 'MD5', await fileOf(damaged), 'x'),
  ).rejects.toMatchObject({ code: 'ChecksumMismatch' });
});

it('a whole-object CRC is checked across ranges by combining their CRCs', async () => {
  const data = Buffer.from('The quick brown fox jumps over the lazy dog, twice over.');
  const expected = `CRC32C:${toBase64(checksumOf('CRC32C', data))}`;
  const plan: VerificationPlan = {
    algorithm: 'CRC32C',
    rangeSize: undefined,
    attempts: [{ algorithm: 'CRC32C', check: 'whole-crc', expected, guess: false }],
  };
  const ranges = [data.subarray(0, 20), data.subarray(20, 21), data.subarray(21)].map((r) => ({
    digest: checksumOf('CRC32C', r),
    size: r.length,
  }));
  await expect(verifyDownload(plan, ranges, 'CRC32C', await fileOf(data), 'x')).resolves.toMatchObject({
    verified: expected,
  });
});

it('an ETag says an object is empty only when it is the MD5 of no bytes, however it is quoted', () => {
  expect(
    [
      '"d41d8cd98f00b204e9800998ecf8427e"',
      'd41d8cd98f00b204e9800998ecf8427e',
      'W/"D41D8CD98F00B204E9800998ECF8427E"',
    ].map(etagOfNoBytes),
  ).toEqual([true, true, true]);
  expect(
    [undefined, '', '"9b2cf535f27731c974343645a3985328"', '"d41d8cd98f00b204e9800998ecf8427e-1"'].map(etagOfNoBytes),
  ).toEqual([false, false, false, false]);
});

it('an empty object uploaded in one empty part matches its multipart ETag', async () => {
  const empty = createHash('md5').digest();
  const plan = planVerification(factsFromHeaders({ etag: `"${multipartEtag([empty])}"` }, 0), 16 * MIB);
  await expect(
    verifyDownload(plan, [{ digest: undefined, size: 0 }], undefined, await fileOf(Buffer.alloc(0)), 'empty'),
  ).resolves.toMatchObject({ how: 'etag' });
});
