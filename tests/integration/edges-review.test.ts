// Edges found by trying the command line as an operator on other stores (Ceph RGW, versitygw):
// nothing copied in silence, nothing named twice done twice, advice that works.

import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

let t: TestContext;
let dir: string;
let dataDir: string;
beforeEach(async () => {
  t = await setUpEngine();
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-edges-review-'));
  dataDir = path.join(dir, 'data');
});
afterEach(async () => {
  await t.close();
});

const put = (key: string, body: string) =>
  t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: body }));
const cli = (args: string[]) => runCli(args, { env: { BARGE_DATA_DIR: dataDir } });

it('cp -r of a prefix with nothing below it fails by name, and says so when an object has that name', async () => {
  await put('k/c.txt', 'CCC');
  const object = await cli(['cp', '-r', `s3://${t.bucket}/k/c.txt`, path.join(dir, 'out1') + '/']);
  expect(object.code).toBe(1);
  expect(object.stderr).toContain(
    `Nothing was found below s3://${t.bucket}/k/c.txt/; s3://${t.bucket}/k/c.txt is an object: download it without --recursive`,
  );
  const typo = await cli(['cp', '-r', `s3://${t.bucket}/nothing-here`, path.join(dir, 'out2') + '/']);
  expect(typo.code).toBe(1);
  expect(typo.stderr).toContain(
    `Nothing was found below s3://${t.bucket}/nothing-here/: check the bucket and the prefix`,
  );
});

it('cp -r and mv -r between s3:// addresses of a prefix with nothing below it fail by name, and change nothing', async () => {
  await put('k/c.txt', 'CCC');
  const object = await cli(['mv', '-r', `s3://${t.bucket}/k/c.txt`, `s3://${t.bucket}/moved/`]);
  expect(object.code).toBe(1);
  expect(object.stderr).toContain(
    `Nothing was found below s3://${t.bucket}/k/c.txt/; s3://${t.bucket}/k/c.txt is an object: move it without ` +
      `--recursive (barge mv "s3://${t.bucket}/k/c.txt" DESTINATION)`,
  );
  const typo = await cli(['cp', '-r', `s3://${t.bucket}/nothing-here`, `s3://${t.bucket}/copied/`]);
  expect(typo.code).toBe(1);
  expect(typo.stderr).toContain(
    `Nothing was found below s3://${t.bucket}/nothing-here/: check the bucket and the prefix`,
  );
  const listed = await t.connection.client.send(new ListObjectsV2Command({ Bucket: t.bucket }));
  expect((listed.Contents ?? []).map((o) => o.Key)).toEqual(['k/c.txt']);
});

it('a folder marker that holds bytes is saved to a file when named with one, as its failure advises', async () => {
  await put('m/c/m/', 'seventeen bytes!!');
  const folder = await cli(['cp', '-r', `s3://${t.bucket}/m`, path.join(dir, 'tree') + '/']);
  expect(folder.code).toBe(1);
  expect(folder.stderr).toContain(`barge cp "s3://${t.bucket}/m/c/m/" FILE, without --recursive`);
  const file = path.join(dir, 'marker.txt');
  const saved = await cli(['cp', `s3://${t.bucket}/m/c/m/`, file]);
  expect(saved.stderr).toContain('Downloaded 1 of 1 object');
  expect(saved.code).toBe(0);
  expect(await readFile(file, 'utf8')).toBe('seventeen bytes!!');
  // Into a folder it stays refused: a folder marker's name is no file name.
  expect((await cli(['cp', `s3://${t.bucket}/m/c/m/`, path.join(dir, 'tree') + '/'])).code).toBe(2);
});

it('the same prefix or file named twice is one item: downloaded once, uploaded once', async () => {
  await put('dup/big.bin', 'x'.repeat(1000));
  const out = path.join(dir, 'dd');
  const twice = await cli(['cp', '-r', `s3://${t.bucket}/dup/`, `s3://${t.bucket}/dup`, out + '/']);
  expect(twice.stderr).toContain('Downloaded 1 of 1 object');
  expect(twice.code).toBe(0);
  expect(await readdir(path.join(out, 'dup'))).toEqual(['big.bin']);
  const file = path.join(dir, 'a.txt');
  await writeFile(file, 'a');
  const up = await cli(['cp', file, file, `s3://${t.bucket}/up/`]);
  expect(up.stderr).toContain('Uploaded 1 of 1 object');
  expect(up.code).toBe(0);
});

it('two sources refused for one key are refused before anything is recorded: a second run is no "retry of the failures"', async () => {
  for (const folder of ['a', 'b']) {
    await mkdir(path.join(dir, folder));
    await writeFile(path.join(dir, folder, 'r.txt'), folder);
  }
  const args = ['cp', path.join(dir, 'a', 'r.txt'), path.join(dir, 'b', 'r.txt'), `s3://${t.bucket}/r/`];
  for (const run of [await cli(args), await cli(args)]) {
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('would both be uploaded as "r/r.txt"');
    expect(run.stderr).not.toContain('Retrying');
    expect(run.stderr).not.toContain('Uploaded 0 of 0');
  }
});

it('a --receipt that names a folder, or lies below a file, is refused before any work', async () => {
  const file = path.join(dir, 'a.txt');
  await writeFile(file, 'a');
  await writeFile(path.join(dir, 'rfile'), '');
  await mkdir(path.join(dir, 'rdir.csv'));
  for (const receipt of [path.join(dir, 'rfile', 'r.csv'), path.join(dir, 'rdir.csv')]) {
    const run = await cli(['cp', file, `s3://${t.bucket}/receipt/a.txt`, '--receipt', receipt]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--receipt ${receipt}:`);
    expect(run.stderr).not.toContain('Uploaded');
  }
});

it('a receipt names the entries skipped, and the summary counts them beside the failures', async () => {
  const tree = path.join(dir, 'tree');
  await mkdir(tree);
  await writeFile(path.join(tree, 'ok.txt'), 'ok');
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [path.join(tree, 'pipe')]);
  // A name that is not UTF-8 fails by itself (S3 keys must be), whoever runs it.
  await writeFile(Buffer.concat([Buffer.from(`${tree}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'no');
  const receipt = path.join(dir, 'r.csv');
  const run = await cli(['cp', '-r', tree, `s3://${t.bucket}/t/`, '--receipt', receipt]);
  const rows = (await readFile(receipt, 'utf8')).split('\n');
  expect(rows.find((row) => row.includes(path.join(tree, 'pipe')))).toContain(',skipped,');
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/1 failed, 1 entry skipped \(named above\)\./);
});

it('a prefix named without --recursive, to a file name, is said to be a prefix (not "does not exist")', async () => {
  await put('pfx/a.txt', 'a');
  const run = await cli(['cp', `s3://${t.bucket}/pfx/`, path.join(dir, 'newname')]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    `s3://${t.bucket}/pfx/ is a prefix, not an object: add --recursive to download everything below it.`,
  );
});
