// An object's bytes on their way to a browser: counted, hashed as the object's checksum or ETag
// (whole, or by parts) says they must be, and the last chunk held back until they are found right.

import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checksumOf, compositeChecksum, multipartEtag } from '../../../../../main/engine/integrity/checksums.ts';
import { planVerification, StreamVerifier } from '../../../../../main/engine/integrity/download-verification.ts';
import type { ObjectFacts } from '../../../../../main/engine/integrity/download-verification.ts';
import { checkedBody } from '../../../../../main/engine/s3/object-stream.ts';

const what = 's3://b/k';
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');
const MIB = 1024 * 1024;

/** The verifier a stream gets for an object with these facts (one pass: one range for the whole). */
function verifierFor(facts: Partial<ObjectFacts> & { size: number }): StreamVerifier {
  return new StreamVerifier(
    planVerification(
      {
        etag: undefined,
        checksums: {},
        checksumType: undefined,
        partsCount: undefined,
        firstPartSize: undefined,
        etagIsDigest: true,
        ...facts,
      },
      Number.MAX_SAFE_INTEGER,
    ),
  );
}
const etagOf = (data: Buffer) => ({ size: data.length, etag: `"${md5(data)}"` });

/** What the checked body let through, and how it ended. */
async function drain(body: Readable): Promise<{ received: Buffer; error: unknown }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return { received: Buffer.concat(chunks), error: undefined };
  } catch (error) {
    return { received: Buffer.concat(chunks), error };
  }
}

const chunks = [Buffer.from('first '), Buffer.from('second '), Buffer.from('last')];
const whole = Buffer.concat(chunks);

describe('a checked body', () => {
  it('passes every byte when the count and the MD5 are right', async () => {
    const { received, error } = await drain(
      checkedBody(Readable.from(chunks), { size: whole.length, what, verifier: verifierFor(etagOf(whole)) }),
    );
    expect(error).toBeUndefined();
    expect(received.equals(whole)).toBe(true);
  });

  it('holds back the last chunk of bytes that do not match their ETag, and fails', async () => {
    const damaged = [Buffer.from('first '), Buffer.from('secOnd '), Buffer.from('last')];
    const { received, error } = await drain(
      checkedBody(Readable.from(damaged), { size: whole.length, what, verifier: verifierFor(etagOf(whole)) }),
    );
    expect(error).toMatchObject({
      code: 'ChecksumMismatch',
      message: expect.stringContaining(`expected MD5:${Buffer.from(md5(whole), 'hex').toString('base64')}`),
    });
    // Fewer bytes than Content-Length reach the browser: it cannot take the file as whole.
    expect(received.length).toBeLessThan(whole.length);
  });

  it('fails a body that ends short, or runs long, holding back its end', async () => {
    const short = await drain(checkedBody(Readable.from(chunks.slice(0, 2)), { size: whole.length, what }));
    expect(short.error).toMatchObject({
      code: 'SizeMismatch',
      message: expect.stringContaining(`sent 13 of the ${whole.length} bytes`),
    });
    // What the store did send, but for its last chunk at most: never all of it.
    expect(short.received.toString()).not.toContain('second');
    const long = await drain(checkedBody(Readable.from([...chunks, Buffer.from('!')]), { size: whole.length, what }));
    expect(long.error).toMatchObject({ code: 'SizeMismatch' });
    expect(long.received.length).toBeLessThan(whole.length);
  });

  it('checks an object uploaded in parts by its multipart ETag or its composite CRC, part by part as the bytes pass', async () => {
    const object = Buffer.alloc(11 * MIB);
    for (let i = 0; i < object.length; i += 4096) object[i] = (i / 4096) % 251;
    const parts = [object.subarray(0, 5 * MIB), object.subarray(5 * MIB, 10 * MIB), object.subarray(10 * MIB)];
    const inChunks = (data: Buffer) =>
      Array.from({ length: Math.ceil(data.length / 700_001) }, (_, i) => data.subarray(i * 700_001, (i + 1) * 700_001));
    const damaged = Buffer.from(object);
    damaged[7 * MIB] = damaged[7 * MIB]! ^ 1;
    const byEtag = {
      size: object.length,
      etag: `"${multipartEtag(parts.map((p) => createHash('md5').update(p).digest()))}"`,
      partsCount: 3,
      firstPartSize: 5 * MIB,
    };
    const byCrc = {
      size: object.length,
      checksums: {
        CRC32C: compositeChecksum(
          'CRC32C',
          parts.map((p) => checksumOf('CRC32C', p)),
        ),
      },
      checksumType: 'COMPOSITE',
      partsCount: 3,
      firstPartSize: 5 * MIB,
    };
    for (const facts of [byEtag, byCrc]) {
      const good = await drain(
        checkedBody(Readable.from(inChunks(object)), { size: object.length, what, verifier: verifierFor(facts) }),
      );
      expect(good.error).toBeUndefined();
      expect(good.received.equals(object)).toBe(true);
      const bad = await drain(
        checkedBody(Readable.from(inChunks(damaged)), { size: object.length, what, verifier: verifierFor(facts) }),
      );
      expect(bad.error).toMatchObject({ code: 'ChecksumMismatch' });
      expect(bad.received.length).toBeLessThan(object.length);
    }
  });

  it('passes bytes it can check for their size only, unless asked to save only what can be verified', async () => {
    const nothing = { size: whole.length, etag: '"not-a-digest"' };
    expect(
      (await drain(checkedBody(Readable.from(chunks), { size: whole.length, what, verifier: verifierFor(nothing) })))
        .error,
    ).toBeUndefined();
    const refused = await drain(
      checkedBody(Readable.from(chunks), {
        size: whole.length,
        what,
        verifier: verifierFor(nothing),
        requireVerified: true,
      }),
    );
    expect(refused.error).toMatchObject({ code: 'Unverified' });
    expect(refused.received.length).toBeLessThan(whole.length);
  });

  it('fails when its source fails (a reset), its end unsent', async () => {
    const source = new Readable({ read() {} });
    const body = checkedBody(source, { size: whole.length, what });
    source.push(chunks[0]);
    source.push(chunks[1]);
    source.destroy(Object.assign(new Error('Checksum mismatch'), { name: 'ChecksumMismatch' }));
    const { received, error } = await drain(body);
    expect(error).toMatchObject({ message: 'Checksum mismatch' });
    expect(received.length).toBeLessThan(whole.length);
  });

  it('passes an empty object', async () => {
    const { received, error } = await drain(
      checkedBody(Readable.from([]), { size: 0, what, verifier: verifierFor(etagOf(Buffer.alloc(0))) }),
    );
    expect(error).toBeUndefined();
    expect(received.length).toBe(0);
  });
});
