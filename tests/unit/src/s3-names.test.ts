import { describe, expect, it } from 'vitest';
import { bucketNameProblem, objectKeyProblem } from '../../../src/s3-names.ts';
import { asFolderPrefix, parseS3Url } from '../../../src/s3-url.ts';

describe('bucket names', () => {
  it.each(['my-bucket', 'abc', 'logs.2024.example', 'a'.repeat(63)])('accepts %s', (name) => {
    expect(bucketNameProblem(name)).toBeUndefined();
  });

  it.each([
    ['ab', '3 to 63'],
    ['My_Bucket', 'lowercase'],
    ['-bucket', 'start and end'],
    ['a..b', 'two dots'],
    ['192.168.1.1', 'IP address'],
  ])('refuses %s and says why', (name, why) => {
    expect(bucketNameProblem(name)).toContain(why);
  });
});

describe('object keys', () => {
  it('counts the 1,024-byte limit in UTF-8 bytes, not characters', () => {
    expect(objectKeyProblem('a'.repeat(1024))).toBeUndefined();
    expect(objectKeyProblem('é'.repeat(513))).toContain('1026 bytes');
    expect(objectKeyProblem('')).toBe('is empty');
  });
});

describe('s3 URLs', () => {
  it('parses bucket and key', () => {
    expect(parseS3Url('s3://b/a/b c.txt')).toEqual({ bucket: 'b', key: 'a/b c.txt' });
    expect(parseS3Url('s3://b')).toEqual({ bucket: 'b', key: '' });
    expect(parseS3Url('/local/path')).toBeUndefined();
  });

  it('turns a prefix into a folder so siblings are never matched', () => {
    expect(asFolderPrefix('photos')).toBe('photos/');
    expect(asFolderPrefix('photos/')).toBe('photos/');
    expect(asFolderPrefix('')).toBe('');
  });
});
