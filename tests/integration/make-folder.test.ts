// New folder: a zero-byte "name/" marker, made by the engine (the window's New folder) and by
// `barge mkdir`, refused in words for a bad name or a folder already there.

import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine();
});
afterEach(() => t.close());

const head = (key: string) => t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: key }));
const listed = async (prefix: string) => {
  const page = await t.engine.listObjects(t.connection, { bucket: t.bucket, prefix, delimiter: '/' });
  return { keys: page.objects.map((o) => o.key), prefixes: page.prefixes };
};

describe('a new folder in a bucket', () => {
  it('is a zero-byte marker named with a "/", listed as a folder of its prefix', async () => {
    expect(await t.engine.makeBucketFolder(t.connection, t.bucket, 'photos/', '2024')).toBe('photos/2024/');
    expect((await head('photos/2024/')).ContentLength).toBe(0);
    expect(await listed('photos/')).toEqual({ keys: [], prefixes: ['photos/2024/'] });
    // A prefix without its "/" is the same folder ("photos" is photos/, never photos2024/).
    expect(await t.engine.makeBucketFolder(t.connection, t.bucket, 'photos', 'raw')).toBe('photos/raw/');
  });

  it('is refused when the folder is there: its marker, or only objects below it', async () => {
    await t.engine.makeBucketFolder(t.connection, t.bucket, '', 'docs');
    await expect(t.engine.makeBucketFolder(t.connection, t.bucket, '', 'docs')).rejects.toMatchObject({
      code: 'FolderExists',
      message: `s3://${t.bucket}/docs/ is already there: choose another name, or open that folder.`,
    });
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'logs/a.log', Body: 'a' }));
    await expect(t.engine.makeBucketFolder(t.connection, t.bucket, '', 'logs')).rejects.toMatchObject({
      code: 'FolderExists',
    });
    await expect(head('logs/')).rejects.toThrow();
  });

  it.each([
    ['an empty name', '', 'Give a folder a name.'],
    ['a blank name', '   ', 'Give a folder a name.'],
    [
      'a name with "/"',
      'a/b',
      '"a/b" cannot name a folder: a name has no "/" in it (it would make folders of its own).',
    ],
    ['".."', '..', '".." cannot name a folder: it means this folder or the one above it to most tools.'],
    [
      'a key over 1,024 bytes',
      'x'.repeat(1024),
      "The folder's key is 1025 bytes long in UTF-8; S3 allows at most 1024: choose a shorter name.",
    ],
  ])('refuses %s with the rule', async (_what, name, message) => {
    await expect(t.engine.makeBucketFolder(t.connection, t.bucket, '', name)).rejects.toMatchObject({
      code: 'InvalidFolderName',
      message,
    });
    expect(await listed('')).toEqual({ keys: [], prefixes: [] });
  });
});

describe('barge mkdir', () => {
  it('makes the folder its address names, with or without the trailing "/"', async () => {
    expect(await runCli(['mkdir', `s3://${t.bucket}/a/b/`])).toMatchObject({
      code: 0,
      stdout: `Created s3://${t.bucket}/a/b/\n`,
    });
    expect(await runCli(['mkdir', '--json', `s3://${t.bucket}/c`])).toMatchObject({
      code: 0,
      stdout: `{"created":"s3://${t.bucket}/c/"}\n`,
    });
    expect((await head('a/b/')).ContentLength).toBe(0);
    expect((await head('c/')).ContentLength).toBe(0);
  });

  it('refuses a folder already there, and a bucket alone, saying why', async () => {
    expect((await runCli(['mkdir', `s3://${t.bucket}/a/`])).code).toBe(0);
    const again = await runCli(['mkdir', `s3://${t.bucket}/a/`]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`s3://${t.bucket}/a/ is already there`);
    const bucketOnly = await runCli(['mkdir', `s3://${t.bucket}/`]);
    expect(bucketOnly.code).not.toBe(0);
    expect(bucketOnly.stderr).toContain('use mb for a bucket');
  });

  it('refuses an empty folder name ("//") in the address with the rule, making nothing', async () => {
    const doubled = await runCli(['mkdir', `s3://${t.bucket}/mk//x/`]);
    expect(doubled.code).not.toBe(0);
    expect(doubled.stderr).toContain(
      '"mk//" has an empty folder name in it ("//" or a leading "/"): ' +
        'some stores keep it and others fold it into one "/". Remove the extra "/".',
    );
    expect(doubled.stdout).not.toContain('Created');
    await expect(t.engine.makeBucketFolder(t.connection, t.bucket, '/', 'y')).rejects.toMatchObject({
      code: 'InvalidFolderName',
    });
    expect(await listed('')).toEqual({ keys: [], prefixes: [] });
  });
});
