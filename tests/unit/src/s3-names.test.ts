import { describe, expect, it } from 'vitest';
import { bucketNameProblem, bucketReferenceProblem, objectKeyProblem } from '../../../src/s3-names.ts';
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

describe('bucket names already there', () => {
  it('takes the names older buckets and laxer stores hold, and refuses what no store takes, with the rule', () => {
    for (const held of ['Legacy_Bucket', 'ab', 'x', 'a'.repeat(255)])
      expect(bucketReferenceProblem(held)).toBeUndefined();
    expect(bucketReferenceProblem('x!y')).toBe(
      'may contain only letters, digits, dots (.), hyphens (-) and underscores (_)',
    );
    expect(bucketReferenceProblem('a b')).toMatch(/^may contain only/);
    expect(bucketReferenceProblem('a'.repeat(256))).toBe('is 256 characters long; no store takes more than 255');
  });
});

describe('object keys', () => {
  it('counts the 1,024-byte limit in UTF-8 bytes, not characters', () => {
    expect(objectKeyProblem('a'.repeat(1024))).toBeUndefined();
    expect(objectKeyProblem('é'.repeat(513))).toContain('1026 bytes');
    expect(objectKeyProblem('')).toBe('is empty');
    expect(objectKeyProblem('k'.repeat(1025))).toBe(
      'is 1025 bytes long in UTF-8; S3 allows at most 1024: shorten the name or the destination prefix',
    );
  });

  it.each([
    ['bell\x07', '\\x07'],
    ['a\nb', '\\n'],
    ['\x1b[2J', '\\x1b'],
    ['nul\x00', '\\x00'],
    ['del\x7f', '\\x7f'],
  ])('refuses a key with a control character (%j), showing it escaped', (key, shown) => {
    expect(objectKeyProblem(key)).toBe(
      `contains a control character (${shown}), which many S3 tools cannot list or show: rename the file`,
    );
  });

  it.each([
    ['invoice-\u202efdp.exe', 'a bidirectional formatting character (\\u202e)'],
    ['csi\x9b', 'a control character (\\x9b)'],
    ['nel\x85', 'a control character (\\x85)'],
    ['line\u2028break', 'a line or paragraph separator (\\u2028)'],
    ['isolate\u2066x\u2069', 'a bidirectional formatting character (\\u2066)'],
  ])('refuses a file name that would read as another or move the cursor (%j), as it refuses C0', (key, shown) => {
    expect(objectKeyProblem(key)).toBe(`contains ${shown}, which many S3 tools cannot list or show: rename the file`);
  });

  it('accepts keys with spaces, symbols and any script', () => {
    for (const key of ['a b/c d.txt', 'naïve/日本語/🚀', 'x+y=z&w', '\u00a0nbsp', 'עברית/שלום.txt', 'عربي.pdf'])
      expect(objectKeyProblem(key)).toBeUndefined();
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
