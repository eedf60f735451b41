// The command line advises running the same command again only where that can help: not after a
// file already there that --if-exists fail failed (it says which --if-exists decides), a key that
// does not exist, or a name refused; still after a failure that may pass.

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

const SAME_COMMAND = 'run the same command again: what was done is skipped';
const bucket = uniqueBucket();
let engine: Engine;
let s3: S3Connection;
let dir: string;

beforeAll(async () => {
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  for (const key of ['here/a.txt', 'here/b.txt'])
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key }));
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-rerun-'));
});

afterAll(async () => {
  await engine?.close();
});

it('after --if-exists fail, says which --if-exists decides for the files already there, not to run the same command', async () => {
  const target = path.join(dir, 'exists');
  await mkdir(path.join(target, 'here'), { recursive: true });
  await writeFile(path.join(target, 'here', 'a.txt'), 'mine');
  const run = await runCli(['cp', '-r', '--if-exists', 'fail', `s3://${bucket}/here`, target]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    '1 file was already there and not replaced: to decide for it, run the same command again with --if-exists overwrite, skip, rename or newer.\n',
  );
  expect(run.stderr).not.toContain(SAME_COMMAND);
});

it('after a key that does not exist, gives no advice to run it again', async () => {
  const run = await runCli([
    'cp',
    `s3://${bucket}/here/a.txt`,
    `s3://${bucket}/here/not-there.txt`,
    path.join(dir, 'missing') + path.sep,
  ]);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/not-there\.txt/);
  expect(run.stderr).not.toContain('run the same command again');
});

it('after a name refused, gives no advice to run it again', async () => {
  const folder = path.join(dir, 'names');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'fine.txt'), 'fine');
  await writeFile(path.join(folder, 'bell\u0007.txt'), 'a name S3 tools cannot show');
  const run = await runCli(['cp', '-r', folder, `s3://${bucket}/names/`]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('\\x07');
  expect(run.stderr).not.toContain('run the same command again');
});

it('after a failure that may pass, still says to run the same command again; with both, says which', async () => {
  const later = path.join(dir, 'later.txt');
  const fine = path.join(dir, 'fine.txt');
  await writeFile(fine, 'fine');
  const missing = await runCli(['cp', fine, later, `s3://${bucket}/up/`]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain(`To retry the 1 item that failed, ${SAME_COMMAND}.\n`);

  const mixed = path.join(dir, 'mixed');
  await mkdir(mixed, { recursive: true });
  await writeFile(path.join(mixed, 'tab\t.txt'), 'refused');
  const both = await runCli(['cp', '-r', mixed, path.join(dir, 'not-yet.txt'), `s3://${bucket}/mixed/`]);
  expect(both.code).toBe(1);
  expect(both.stderr).toContain(
    `To retry the 1 item that may pass now, ${SAME_COMMAND} (the other 1 item would fail the same way, as said above).\n`,
  );
});
