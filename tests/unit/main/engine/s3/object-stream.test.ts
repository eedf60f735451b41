// An object's bytes on their way to a browser: counted, hashed where an ETag says what they must be,
// and the last chunk held back until they are found right.

import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkedBody } from '../../../../../main/engine/s3/object-stream.ts';

const what = 's3://b/k';
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

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
    const { received, error } = await drain(checkedBody(Readable.from(chunks), { size: whole.length, md5Hex: md5(whole), what }));
    expect(error).toBeUndefined();
    expect(received.equals(whole)).toBe(true);
  });

  it('holds back the last chunk of bytes that do not match their ETag, and fails', async () => {
    const damaged = [Buffer.from('first '), Buffer.from('secOnd '), Buffer.from('last')];
    const { received, error } = await drain(checkedBody(Readable.from(damaged), { size: whole.length, md5Hex: md5(whole), what }));
    expect(error).toMatchObject({ code: 'ChecksumMismatch', message: expect.stringContaining(`do not match its ETag (expected MD5 ${md5(whole)}`) });
    // Fewer bytes than Content-Length reach the browser: it cannot take the file as whole.
    expect(received.length).toBeLessThan(whole.length);
  });

  it('fails a body that ends short, or runs long, holding back its end', async () => {
    const short = await drain(checkedBody(Readable.from(chunks.slice(0, 2)), { size: whole.length, what }));
    expect(short.error).toMatchObject({ code: 'SizeMismatch', message: expect.stringContaining(`sent 13 of the ${whole.length} bytes`) });
    // What the store did send, but for its last chunk at most: never all of it.
    expect(short.received.toString()).not.toContain('second');
    const long = await drain(checkedBody(Readable.from([...chunks, Buffer.from('!')]), { size: whole.length, what }));
    expect(long.error).toMatchObject({ code: 'SizeMismatch' });
    expect(long.received.length).toBeLessThan(whole.length);
  });

  it('fails when its source fails (the SDK\'s own checksum check, a reset), its end unsent', async () => {
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
    const { received, error } = await drain(checkedBody(Readable.from([]), { size: 0, md5Hex: md5(Buffer.alloc(0)), what }));
    expect(error).toBeUndefined();
    expect(received.length).toBe(0);
  });
});
