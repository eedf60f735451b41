import { describe, expect, it } from 'vitest';
import { BargeError } from '../../../../src/errors.ts';
import { parseUploadOptions } from '../../../../main/cli/upload-options.ts';
import { uploadOptionsSchema } from '../../../../src/upload-options.ts';
import { uploadOptionHeaders, uploadOptionFields } from '../../../../main/engine/s3/upload-option-fields.ts';

const refuse = (message: string) => new BargeError('UsageError', message);

describe('the upload options flags', () => {
  it('are nothing when none is given', () => {
    expect(parseUploadOptions({}, refuse)).toBeUndefined();
  });

  it('read repeated k=v flags, a value may hold "=", and the storage class in any case', () => {
    expect(
      parseUploadOptions(
        {
          'storage-class': 'standard_ia',
          metadata: ['a=1', 'b=x=y'],
          tags: ['t=v w'],
          sse: 'aws:kms',
          'sse-kms-key-id': 'k',
        },
        refuse,
      ),
    ).toEqual({
      storageClass: 'STANDARD_IA',
      metadata: { a: '1', b: 'x=y' },
      tags: { t: 'v w' },
      sse: 'aws:kms',
      sseKmsKeyId: 'k',
    });
  });

  it.each([
    [{ metadata: ['a=1', 'a=2'] }, '--metadata names a twice: give each name once.'],
    [{ metadata: ['Team=web', 'team=ops'] }, '--metadata names team twice: give each name once.'],
    [{ metadata: ['bad name=1'] }, '--metadata: The metadata name "bad name" is not one S3 takes'],
    [{ metadata: ['a=é'] }, 'holds a character beyond US-ASCII'],
    // Each header's own advice: RFC 8187 is Content-Disposition's alone; metadata is encoded by its writer.
    [
      { metadata: ['a=é'] },
      'a metadata value carries printable US-ASCII only: encode other text first (percent-encoding or base64)',
    ],
    [{ 'content-disposition': 'attachment; filename="é.txt"' }, "RFC 8187 says (filename*=UTF-8''…)"],
    [{ 'content-type': 'text/é' }, 'this header carries printable US-ASCII only.'],
    [{ tags: Array.from({ length: 11 }, (_, i) => `k${i}=v`) }, '--tags: 11 tags: S3 keeps at most 10 on an object.'],
    [
      { 'content-type': 'text/plain\n' },
      '--content-type: The content type "text/plain\\x0a" holds a control character',
    ],
    [
      { metadata: ['a', 'b', 'c'].map((name) => `${name}=${'x'.repeat(700)}`) },
      'S3 keeps at most 2048 bytes of names and values.',
    ],
  ])('refuse %# with the rule', (values, message) => {
    expect(() => parseUploadOptions(values, refuse)).toThrow(message);
  });
});

describe('the upload options on a request', () => {
  const options = {
    storageClass: 'GLACIER_IR' as const,
    cacheControl: 'no-cache',
    metadata: { Team: 'ops' },
    tags: { a: 'b c', 'd/e': 'f' },
    sse: 'aws:kms' as const,
    sseKmsKeyId: 'key-1',
    acl: 'bucket-owner-full-control' as const,
  };

  it('are the same headers for a PUT as fields for a multipart create', () => {
    expect(uploadOptionHeaders(options)).toEqual({
      'x-amz-storage-class': 'GLACIER_IR',
      'cache-control': 'no-cache',
      'x-amz-meta-team': 'ops',
      'x-amz-tagging': 'a=b%20c&d%2Fe=f',
      'x-amz-server-side-encryption': 'aws:kms',
      'x-amz-server-side-encryption-aws-kms-key-id': 'key-1',
      'x-amz-acl': 'bucket-owner-full-control',
    });
    expect(uploadOptionFields(options)).toEqual({
      StorageClass: 'GLACIER_IR',
      CacheControl: 'no-cache',
      Metadata: { Team: 'ops' },
      Tagging: 'a=b%20c&d%2Fe=f',
      ServerSideEncryption: 'aws:kms',
      SSEKMSKeyId: 'key-1',
      ACL: 'bucket-owner-full-control',
    });
  });
});

describe('the upload options schema (every host, the window and the web host too)', () => {
  it('refuses metadata names that differ only in case: headers know no case, and one value would be lost', () => {
    const result = uploadOptionsSchema.safeParse({ metadata: { Team: 'a', team: 'b' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('"team" is given twice');
    expect(uploadOptionsSchema.safeParse({ tags: { Team: 'a', team: 'b' } }).success).toBe(true);
  });
});
