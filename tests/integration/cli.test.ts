import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { randomFile, sha256File, uniqueBucket } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe('the barge command line', () => {
  it('makes a bucket, uploads, lists, downloads, deletes and removes the bucket', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-'));
    const bucket = uniqueBucket();
    const big = await randomFile(dir, 'src/big.bin', 7 * 1024 * 1024);
    await writeFile(path.join(dir, 'src', 'note.txt'), 'hello');

    expect(await runCli(['mb', `s3://${bucket}`])).toMatchObject({ code: 0, stdout: `Created s3://${bucket}\n` });
    const up = await runCli([
      'cp',
      '--recursive',
      '--part-size',
      '5MiB',
      '--threads',
      '4',
      path.join(dir, 'src'),
      `s3://${bucket}/backup/`,
    ]);
    expect(up.code).toBe(0);
    expect(up.stderr).toMatch(/Uploaded 2 of 2 objects/);
    // Its average: bytes a second, and objects a second beside them (two files).
    expect(up.stderr).toMatch(/ in [\d.]+s \([\d.]+ (?:B|KiB|MiB)\/s, [\d.,]+ objects?\/s\)/);

    const listed = await runCli(['ls', `s3://${bucket}/backup/src/`]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/\s7340032 {2}backup\/src\/big\.bin\n/);
    const json = await runCli(['ls', '--recursive', '--json', `s3://${bucket}/`]);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).key)
        .sort(),
    ).toEqual(['backup/src/big.bin', 'backup/src/note.txt']);

    const one = await runCli(['cp', `s3://${bucket}/backup/src/note.txt`, path.join(dir, 'note-copy.txt')]);
    expect(one.code).toBe(0);
    expect(await readFile(path.join(dir, 'note-copy.txt'), 'utf8')).toBe('hello');
    const tree = await runCli(['cp', '-r', `s3://${bucket}/backup/src`, path.join(dir, 'restore')]);
    expect(tree.code).toBe(0);
    expect(await sha256File(path.join(dir, 'restore', 'src', 'big.bin'))).toBe(big.sha256);

    const dry = await runCli(['rm', '-r', '--dry-run', `s3://${bucket}/backup`]);
    expect(dry).toMatchObject({
      code: 0,
      stdout: `would delete s3://${bucket}/backup/src/big.bin (7.00 MiB)\nwould delete s3://${bucket}/backup/src/note.txt (5 B)\nWould delete 2 objects (7.00 MiB); nothing was deleted.\n`,
    });
    const notRecursive = await runCli(['rm', `s3://${bucket}/backup/`]);
    expect(notRecursive.code).toBe(2);
    expect(notRecursive.stderr).toContain('add --recursive');
    expect((await runCli(['rm', '-r', `s3://${bucket}/backup`])).code).toBe(0);
    expect((await runCli(['ls', `s3://${bucket}/`])).stdout).toBe('');
    expect(await runCli(['rb', `s3://${bucket}`])).toMatchObject({ code: 0, stdout: `Deleted s3://${bucket}\n` });
  });

  it.each([
    [
      ['cp', '/definitely/not/here.txt', 's3://whatever/'],
      1,
      'Cannot read /definitely/not/here.txt: No such file or folder.',
    ],
    [['mb', 's3://Not_A_Valid_Name'], 1, '"Not_A_Valid_Name" is not a valid bucket name'],
    [['ls', 's3://no-such-bucket-barge-test/'], 1, 'The bucket does not exist'],
    [['--threads', '0', 'ls'], 2, '--threads must be between 1 and 256'],
    [['--part-size', 'huge', 'ls'], 2, '--part-size takes auto or a size such as 16MiB'],
    [['frobnicate'], 2, 'Unknown command "frobnicate"'],
    [['ls', '--endpoint-url', 'ftp://example'], 2, '--endpoint-url must be an http:// or https:// URL'],
    [['rb', '--dry-run', 's3://some-bucket'], 2, 'rb does not take --dry-run'],
    [['cp', '--all-versions', 'a', 's3://b/'], 2, 'cp does not take --all-versions'],
    [['ls', '--region', ''], 2, '--region needs a value'],
    [['ls', '--path-style', '--virtual-hosted'], 2, 'not both'],
  ])('barge %j exits %i with a clear message', async (args, code, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    noStackTrace(result.stderr);
  });

  it('says clearly when the credentials are wrong, without showing the secret', async () => {
    const wrongKey = await runCli(['ls'], { env: { AWS_ACCESS_KEY_ID: 'nobody-knows-me' } });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('The server does not know this access key ID');
    const wrongSecret = await runCli(['ls'], { env: { AWS_SECRET_ACCESS_KEY: 'not-the-secret-at-all' } });
    expect(wrongSecret.code).toBe(1);
    expect(wrongSecret.stderr).toContain('The secret access key does not match');
    expect(wrongSecret.stderr + wrongSecret.stdout).not.toContain('not-the-secret-at-all');
    expect(wrongKey.stderr + wrongSecret.stderr).not.toContain(inject('s3').secretAccessKey);
  });

  it('says clearly when the endpoint cannot be reached', async () => {
    const result = await runCli(['ls', '--endpoint-url', 'http://127.0.0.1:9']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'barge: Cannot list buckets: The connection was refused. Is the endpoint URL right and the server running?\n',
    );
  });

  it('reports a file it may not read, and uploads the rest', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-'));
    await chmod(dir, 0o755);
    await writeFile(path.join(dir, 'ok.txt'), 'fine');
    await writeFile(path.join(dir, 'secret.txt'), 'private');
    await chmod(path.join(dir, 'secret.txt'), 0o000);
    const bucket = uniqueBucket();
    expect((await runCli(['mb', `s3://${bucket}`])).code).toBe(0);
    // Root reads any file, so the upload runs as an ordinary user where the tests run as root.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const result = await runCli(
      ['cp', path.join(dir, 'ok.txt'), path.join(dir, 'secret.txt'), `s3://${bucket}/in/`],
      asUser,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `error: Cannot upload ${path.join(dir, 'secret.txt')} to s3://${bucket}/in/secret.txt: Permission denied.`,
    );
    expect(result.stderr).toMatch(/Uploaded 1 of 2 objects/);
    noStackTrace(result.stderr);
  });
});

describe('integrity options and receipts', () => {
  it('--upload-checksum md5 sends Content-MD5; a download receipt in JSON names what was verified', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-'));
    const bucket = uniqueBucket();
    expect((await runCli(['mb', `s3://${bucket}`])).code).toBe(0);
    const small = await randomFile(dir, 'small.bin', 300_000);
    const up = await runCli([
      'cp',
      '--upload-checksum',
      'md5',
      '--receipt',
      path.join(dir, 'up.json'),
      small.path,
      `s3://${bucket}/small.bin`,
    ]);
    expect(up.code).toBe(0);
    const [uploaded] = JSON.parse(await readFile(path.join(dir, 'up.json'), 'utf8'));
    // The receipt names the check the store made: the Content-MD5 (whatever checksum of its own it keeps).
    expect(uploaded).toMatchObject({
      key: 'small.bin',
      size: 300_000,
      checksumAlgorithm: 'MD5',
      verified: 'Content-MD5 verified by the store',
    });
    // Content-MD5 is the base64 of the MD5 the ETag shows in hex.
    expect(Buffer.from(uploaded.checksum, 'base64').toString('hex')).toBe(uploaded.etag);

    const down = await runCli([
      'cp',
      '--receipt',
      path.join(dir, 'down.csv'),
      `s3://${bucket}/small.bin`,
      path.join(dir, 'copy.bin'),
    ]);
    expect(down.code).toBe(0);
    const [header, row] = (await readFile(path.join(dir, 'down.csv'), 'utf8')).trim().split('\n');
    expect(header).toContain('checksumAlgorithm,checksum');
    // The download is checked against what the store keeps: the MD5 ETag on MinIO, its CRC64NVME on versitygw.
    const expected = inject('s3').kind === 'minio' ? `MD5,${uploaded.checksum}` : 'CRC64NVME,';
    expect(row).toContain(`small.bin,${path.join(dir, 'copy.bin')},300000,${uploaded.etag},,${expected}`);
  });

  it('refuses an unknown --upload-checksum, and --receipt on a command that makes none', async () => {
    const bad = await runCli(['cp', '--upload-checksum', 'sha1', 'a', 's3://b/a']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--upload-checksum takes crc64nvme, crc32c, crc32, md5 or off, not "sha1".');
    const misplaced = await runCli(['ls', '--receipt', 'r.csv', 's3://b']);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain('ls does not take --receipt.');
  });
});

it('--case-insensitive refuses a second key that differs only in case, and says why', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-'));
  const bucket = uniqueBucket();
  expect((await runCli(['mb', `s3://${bucket}`])).code).toBe(0);
  await writeFile(path.join(dir, 'Photo.jpg'), 'upper');
  expect((await runCli(['cp', path.join(dir, 'Photo.jpg'), `s3://${bucket}/p/Photo.jpg`])).code).toBe(0);
  expect((await runCli(['cp', path.join(dir, 'Photo.jpg'), `s3://${bucket}/p/photo.jpg`])).code).toBe(0);
  const down = await runCli(['cp', '-r', '--case-insensitive', `s3://${bucket}/p`, path.join(dir, 'out')]);
  expect(down.code).toBe(1);
  expect(down.stderr).toContain('differs only in case and this folder does not tell upper and lower case apart');
  const plain = await runCli(['cp', '-r', `s3://${bucket}/p`, path.join(dir, 'plain')]);
  expect(plain.code).toBe(0);
});

it('--max-rate holds a copy to the rate given, both ways, as its summary says', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-'));
  const bucket = uniqueBucket();
  const file = await randomFile(dir, 'capped.bin', 3_000_000);
  expect((await runCli(['mb', `s3://${bucket}`])).code).toBe(0);
  for (const args of [
    [file.path, `s3://${bucket}/capped.bin`],
    [`s3://${bucket}/capped.bin`, path.join(dir, 'back.bin')],
  ]) {
    const copied = await runCli(['cp', '--max-rate', '1MB/s', ...args]);
    expect(copied.code).toBe(0);
    // The job's own average (its bytes over its time): unheld, tens of MiB/s on loopback.
    const [, value, unit] = / in [\d.]+s \(([\d.]+) (B|KiB|MiB)\/s/.exec(copied.stderr) ?? [];
    const bytesPerSecond = Number(value) * { B: 1, KiB: 1024, MiB: 1024 ** 2 }[unit as 'B' | 'KiB' | 'MiB'];
    expect(bytesPerSecond).toBeGreaterThan(500_000);
    expect(bytesPerSecond).toBeLessThan(1_250_000);
  }
  expect(await sha256File(path.join(dir, 'back.bin'))).toBe(file.sha256);
  expect((await runCli(['rm', '-r', `s3://${bucket}/`])).code).toBe(0);
  expect((await runCli(['rb', `s3://${bucket}`])).code).toBe(0);
});
