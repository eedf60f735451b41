// What the command line prints cannot be forged by a key: control characters are shown escaped
// in every human-readable line (ls, errors, dry runs), --json keeps the exact key, and receipts
// neutralise fields a spreadsheet would run. Keys are stored on the real server.

import { mkdir, mkdtemp, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, inject, it } from 'vitest';
import { CreateMultipartUploadCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { setUpEngine } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';
import { rewritingProxy } from '../support/bad-input-kit.ts';

// An OSC 52 sequence (writes the clipboard), a colour, and a newline that would forge a listing row.
const EVIL = 'evil\x1b]52;c;cm0gLXJmIH4=\x07\x1b[31mred\nforged-row.txt';
// (MinIO refuses keys holding "//", so no scheme in the link.)
const FORMULA = '=HYPERLINK("attacker.example","open me")';

it('ls, errors and dry runs show keys with control characters escaped; --json keeps them exact; receipts neutralise formulas', async ({
  skip,
}) => {
  if (inject('s3').kind !== 'minio')
    skip('needs a store that holds keys with control characters as they are (versitygw replaces them)');
  const t = await setUpEngine();
  try {
    for (const key of [`k/${EVIL}`, 'k/plain.txt', FORMULA])
      await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: 'x' }));
    const listed = await runCli(['ls', `s3://${t.bucket}/k/`]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toMatch(/[\x1b\x07]/);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(listed.stdout).toContain('k/evil\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[31mred\\nforged-row.txt');
    const json = await runCli(['ls', '--json', `s3://${t.bucket}/k/`]);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).key)
        .sort(),
    ).toEqual([`k/${EVIL}`, 'k/plain.txt'].sort());

    // An error naming the key: a download into a file that cannot be written.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-output-'));
    const failed = await runCli(['cp', `s3://${t.bucket}/k/${EVIL}`, path.join(dir, 'missing-folder', 'x', 'y')], {
      env: {},
    });
    expect(failed.stderr).not.toMatch(/[\x1b\x07]/);

    const dry = await runCli(['rm', '-r', '--dry-run', `s3://${t.bucket}/k/`]);
    // Its matches first, each key escaped as every listing shows it, then the count.
    expect(dry.stdout.split('\n').at(-2)).toBe('Would delete 2 objects (2 B); nothing was deleted.');
    expect(dry.stdout).toContain(`would delete s3://${t.bucket}/k/plain.txt (1 B)`);
    expect(dry.stdout).not.toMatch(/[\x1b\x07]/);
    expect(dry.stderr).not.toMatch(/[\x1b\x07]/);

    const receipt = path.join(dir, 'receipt.csv');
    expect(
      (await runCli(['cp', `s3://${t.bucket}/${FORMULA}`, path.join(dir, 'formula.txt'), '--receipt', receipt])).code,
    ).toBe(0);
    const row = (await readFile(receipt, 'utf8')).split('\n')[1]!;
    // Quoted (it holds commas and quotes) and led by an apostrophe: a spreadsheet shows it as text.
    expect(row.startsWith(`"'=HYPERLINK(""attacker.example"",""open me"")",`)).toBe(true);
  } finally {
    await t.close();
  }
});

it('a dry run that fails prints only the failure, and counts are in words ("1 object")', async () => {
  const t = await setUpEngine();
  try {
    const missing = await runCli(['rm', '-r', '--dry-run', `s3://${t.bucket}-missing/x/`]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('The bucket does not exist');
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'one/only.txt', Body: 'x' }));
    const one = await runCli(['rm', '-r', '--dry-run', `s3://${t.bucket}/one/`]);
    expect(one.stdout).toBe(
      `would delete s3://${t.bucket}/one/only.txt (1 B)\nWould delete 1 object (1 B); nothing was deleted.\n`,
    );
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-output-'));
    const down = await runCli(['cp', `s3://${t.bucket}/one/only.txt`, path.join(dir, 'only.txt')]);
    expect(down.stderr).toMatch(/Downloaded 1 of 1 object, /);
  } finally {
    await t.close();
  }
});

it('a dry run says what would happen, and rates no work it did not do (no "in 0.0s", no B/s)', async () => {
  const t = await setUpEngine();
  try {
    for (const key of ['d/a.txt', 'd/b.txt', 'd/c.txt'])
      await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: 'seven b' }));
    const rm = await runCli(['rm', '-r', '--dry-run', `s3://${t.bucket}/d/`]);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout.split('\n').at(-2)).toBe('Would delete 3 objects (21 B); nothing was deleted.');
    expect(rm.stderr).toBe('');
    const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-output-'));
    await writeFile(path.join(folder, 'new.txt'), 'two');
    const sync = await runCli(['sync', '--dry-run', '--delete', folder, `s3://${t.bucket}/d/`]);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout.split('\n').at(-2)).toBe(
      'Would sync: 1 new (3 B), 0 changed (0 B), 3 extra (21 B); extra ones would be deleted. Nothing was changed.',
    );
    expect(sync.stderr).toBe('');
  } finally {
    await t.close();
  }
});

it('sync to a bucket name outside the rule says the rule, not "the server refused the bucket name"', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-output-'));
  await writeFile(path.join(folder, 'a.txt'), 'a');
  // What no store takes is refused before any request; what an older bucket might hold is tried, and the
  // store's refusal says AWS's rule for a bucket's name.
  const never = await runCli(['sync', folder, 's3://x!y/p/']);
  expect(never.code).toBe(1);
  expect(never.stderr).toContain(
    'The bucket name "x!y" may contain only letters, digits, dots (.), hyphens (-) and underscores (_).',
  );
  for (const [name, rule] of [
    ['Bad_Bucket', 'may contain only lowercase letters, digits, dots (.) and hyphens (-)'],
    ['ab', 'must be 3 to 63 characters long (it has 2)'],
  ]) {
    const refused = await runCli(['sync', folder, `s3://${name}/p/`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The store refused the bucket name "${name}": a bucket's name ${rule}.`);
    const upload = await runCli(['cp', path.join(folder, 'a.txt'), `s3://${name}/p/a.txt`]);
    expect(upload.stderr).toContain(`The store refused the bucket name "${name}": a bucket's name ${rule}.`);
  }
});

it('a single-key download names the real cause: a missing bucket, a wrong secret, a missing key', async () => {
  const t = await setUpEngine();
  try {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'here.txt', Body: 'x' }));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-output-'));
    const noBucket = await runCli(['cp', `s3://${t.bucket}-gone/here.txt`, path.join(dir, 'a.txt')]);
    expect(noBucket.stderr).toContain(`Cannot download s3://${t.bucket}-gone/here.txt: The bucket does not exist`);
    const wrongSecret = await runCli(['cp', `s3://${t.bucket}/here.txt`, path.join(dir, 'b.txt')], {
      env: { AWS_SECRET_ACCESS_KEY: 'not-the-secret' },
    });
    expect(wrongSecret.stderr).toContain('The secret access key does not match the access key ID');
    const noKey = await runCli(['cp', `s3://${t.bucket}/nope.txt`, path.join(dir, 'c.txt')]);
    expect(noKey.stderr).toContain('The object does not exist.');
  } finally {
    await t.close();
  }
});

it('--receipt is written when objects fail too, with a status column; a receipt that cannot be written is refused before any work', async ({
  skip,
}) => {
  if (inject('s3').kind !== 'minio')
    skip('needs a store that holds keys with control characters as they are (versitygw replaces them)');
  const t = await setUpEngine();
  try {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'mixed/good.txt', Body: 'good' }));
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'mixed/bad\x1b.txt', Body: 'bad' }));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-output-'));
    const receipt = path.join(dir, 'r.csv');
    const run = await runCli(['cp', '-r', `s3://${t.bucket}/mixed/`, path.join(dir, 'out'), '--receipt', receipt]);
    expect(run.code).toBe(1);
    const rows = (await readFile(receipt, 'utf8')).trim().split('\n');
    expect(rows[0]).toBe('key,path,size,etag,versionId,checksumAlgorithm,checksum,finishedAt,verified,status,error');
    expect(rows.find((row) => row.startsWith('mixed/good.txt,'))).toMatch(/,done,$/);
    expect(rows.find((row) => row.startsWith('mixed/bad'))).toMatch(
      /,failed,"UnsafeKey: The key ""mixed\/bad\\x1b\.txt"" contains a control character/,
    );
    const nowhere = await runCli([
      'cp',
      '-r',
      `s3://${t.bucket}/mixed/`,
      path.join(dir, 'out2'),
      '--receipt',
      path.join(dir, 'no', 'such', 'r.csv'),
    ]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('is not a folder that can be written');
    await expect(readFile(path.join(dir, 'out2', 'mixed', 'good.txt'))).rejects.toThrow();
  } finally {
    await t.close();
  }
});

it('abort-uploads --older-than leaves recent uploads alone; its dry run lists each with its key and age', async () => {
  const t = await setUpEngine();
  try {
    for (const key of ['old/a.bin', 'old/b.bin'])
      await t.connection.client.send(new CreateMultipartUploadCommand({ Bucket: t.bucket, Key: key }));
    const recent = await runCli(['abort-uploads', '--dry-run', '--older-than', '1h', `s3://${t.bucket}`]);
    // Left alone, and said: not "none".
    expect(recent).toMatchObject({
      code: 0,
      stdout: '2 younger uploads (begun less than --older-than ago, or at an unknown time) were left alone.\n',
    });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const dry = await runCli(['abort-uploads', '--dry-run', '--older-than', '1s', `s3://${t.bucket}`]);
    expect(dry.stdout).toMatch(
      /^Would abort old\/a\.bin \(upload .{16}…, begun \d+s ago\)\nWould abort old\/b\.bin \(upload .{16}…, begun \d+s ago\)\n$/,
    );
    expect((await runCli(['abort-uploads', '--older-than', '1s', `s3://${t.bucket}`])).code).toBe(0);
    expect((await runCli(['abort-uploads', '--dry-run', `s3://${t.bucket}`])).stdout).toBe(
      'No incomplete multipart uploads.\n',
    );
    expect((await runCli(['abort-uploads', '--older-than', 'soon', `s3://${t.bucket}`])).stderr).toContain(
      '--older-than takes a duration such as 2h or 7d, not "soon".',
    );
  } finally {
    await t.close();
  }
});

it('a download never writes through a symlinked folder that leads outside the target folder', async () => {
  const t = await setUpEngine();
  try {
    await t.connection.client.send(
      new PutObjectCommand({ Bucket: t.bucket, Key: 'tree/sub/planted.txt', Body: 'planted' }),
    );
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'tree/fine.txt', Body: 'fine' }));
    const target = await mkdtemp(path.join(os.tmpdir(), 'barge-target-'));
    const outside = await mkdtemp(path.join(os.tmpdir(), 'barge-outside-'));
    await mkdir(path.join(target, 'tree'));
    await symlink(outside, path.join(target, 'tree', 'sub'));
    const run = await runCli(['cp', '-r', `s3://${t.bucket}/tree`, target]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `would be written into ${path.join(target, 'tree', 'sub')}, which a symbolic link leads outside ${target}`,
    );
    expect(await readdir(outside)).toEqual([]);
    expect(await readFile(path.join(target, 'tree', 'fine.txt'), 'utf8')).toBe('fine');
  } finally {
    await t.close();
  }
});

it('--if-exists: overwrite (the default), fail, skip, rename and newer, each doing what it says to a file already there', async () => {
  const t = await setUpEngine();
  try {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'doc.txt', Body: 'from the store' }));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-if-exists-'));
    const file = path.join(dir, 'doc.txt');
    const mine = async () => writeFile(file, 'mine');
    const get = (...flags: string[]) => runCli(['cp', `s3://${t.bucket}/doc.txt`, `${dir}/`, ...flags]);

    await mine();
    expect((await get()).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('from the store');

    await mine();
    const failed = await get('--if-exists', 'fail');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${file} is already there; it was not replaced.`);
    expect(await readFile(file, 'utf8')).toBe('mine');

    const skipped = await get('--if-exists', 'skip');
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain(`warning: ${file} is already there: skipped, as asked; it was not downloaded.`);
    // Kept is not downloaded: the summary says which.
    // Nothing moved: no bytes, no rate (it said "14 B in 0.0s (1.2 KiB/s, …)" of a file kept).
    expect(skipped.stderr).toMatch(/Downloaded 0 of 1 object in [\d.]+s; 1 file already there was kept/);
    expect(await readFile(file, 'utf8')).toBe('mine');
    // Its receipt names the file kept, and why: a job that kept everything has more than a header.
    const keptReceipt = path.join(dir, 'kept.csv');
    expect((await get('--if-exists', 'skip', '--receipt', keptReceipt)).code).toBe(0);
    const keptRows = (await readFile(keptReceipt, 'utf8')).trim().split('\n');
    expect(keptRows).toHaveLength(2);
    expect(keptRows[1]).toMatch(new RegExp(`^doc\\.txt,${file.replaceAll('/', '\\/')},14,.*,kept,.*already there`));

    const receipt = path.join(dir, 'renamed.csv');
    expect((await get('--if-exists', 'rename', '--receipt', receipt)).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('mine');
    expect(await readFile(path.join(dir, 'doc (1).txt'), 'utf8')).toBe('from the store');
    // The receipt names the file the object was saved as, not the one kept.
    expect((await readFile(receipt, 'utf8')).split('\n')[1]).toContain(path.join(dir, 'doc (1).txt'));

    // newer: a local file changed after the object was stored is kept; an older one is replaced.
    const future = new Date(Date.now() + 3600_000);
    await utimes(file, future, future);
    expect((await get('--if-exists', 'newer')).stderr).toContain('the local file is as new as the object, or newer');
    expect(await readFile(file, 'utf8')).toBe('mine');
    const past = new Date(Date.now() - 3600_000);
    await utimes(file, past, past);
    expect((await get('--if-exists', 'newer')).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('from the store');

    expect((await get('--if-exists', 'sometimes')).stderr).toContain(
      '--if-exists takes overwrite, skip, rename, newer or fail, not "sometimes".',
    );

    // A key deleted by name has no size the delete knows: none is said, rather than "0 B".
    const removed = await runCli(['rm', `s3://${t.bucket}/doc.txt`]);
    expect(removed.code).toBe(0);
    expect(removed.stderr).toMatch(/Deleted 1 of 1 object in [\d.]+s/);
  } finally {
    await t.close();
  }
});

it('a region that is no region, and a profile that is not there, are said by where they came from; nothing is dialled', async () => {
  const t = await setUpEngine();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-sources-'));
  let dialled = 0;
  const trap = net.createServer((socket) => {
    dialled += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  const bad = `x@127.0.0.1:${(trap.address() as net.AddressInfo).port}/#`;
  try {
    await writeFile(path.join(dir, 'config'), '[profile work]\nregion = eu-west-1\n');
    const files = {
      AWS_CONFIG_FILE: path.join(dir, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'credentials'),
    };
    // With no endpoint the region names the host: AWS's, or the one it smuggles in.
    const flag = await runCli(['ls', `s3://${t.bucket}/`, '--region', bad], {
      env: { ...files, AWS_ENDPOINT_URL: '' },
    });
    expect(flag).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        `--region takes a region, not "${bad}": a region is one name of letters, digits and hyphens`,
      ),
    });
    const env = await runCli(['ls', `s3://${t.bucket}/`], { env: { ...files, AWS_ENDPOINT_URL: '', AWS_REGION: bad } });
    expect(env).toMatchObject({ code: 1, stderr: expect.stringContaining(`AWS_REGION is not a region ("${bad}")`) });
    const missing = await runCli(['ls', `s3://${t.bucket}/`, '--profile', 'nope'], { env: files });
    expect(missing).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `No profile nope in ${files.AWS_CONFIG_FILE} or ${files.AWS_SHARED_CREDENTIALS_FILE}`,
      ),
    });
    const fromEnv = await runCli(['ls', `s3://${t.bucket}/`], { env: { ...files, AWS_PROFILE: 'nope' } });
    expect(fromEnv).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('The config profile (nope) could not be found'),
    });
    expect(dialled).toBe(0);
  } finally {
    await new Promise((resolve) => trap.close(resolve));
    await t.close();
  }
});

it('a listing that gives Size -1 for an 88-byte object: cp -r --require-verified fails by name, exits 1, and saves nothing', async () => {
  const t = await setUpEngine();
  const store = await rewritingProxy((request, answer) =>
    request.url?.includes('list-type=2')
      ? { ...answer, body: Buffer.from(answer.body.toString().replace(/<Size>\d+<\/Size>/g, '<Size>-1</Size>')) }
      : answer,
  );
  try {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'p/doc.txt', Body: 'x'.repeat(88) }));
    const out = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-sizes-'));
    const run = await runCli(['cp', '-r', '--require-verified', `s3://${t.bucket}/p/`, out], {
      env: { AWS_ENDPOINT_URL: store.endpoint },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error: The store's listing gives s3://${t.bucket}/p/doc.txt "-1" as its size, which no object can have`,
    );
    expect(run.stderr).not.toContain('size only');
    expect(await readdir(out, { recursive: true })).toEqual([]);
  } finally {
    await store.close();
    await t.close();
  }
});

it('a listing with one key whose URL encoding is broken: ls lists the others, warns of that one escaped, and exits 0', async () => {
  const t = await setUpEngine();
  // The key as a faulty store sends it: a broken escape, and a bidi override that must not reach the screen raw.
  const store = await rewritingProxy((request, answer) =>
    request.url?.includes('list-type=2')
      ? {
          ...answer,
          body: Buffer.from(answer.body.toString().replace('<Key>bad-key.txt</Key>', '<Key>bad%zz\u202e.txt</Key>')),
        }
      : answer,
  );
  try {
    for (const key of ['good.txt', 'bad-key.txt'])
      await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: 'x' }));
    const run = await runCli(['ls', `s3://${t.bucket}/`], { env: { AWS_ENDPOINT_URL: store.endpoint } });
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/).at(-1)),
    ).toEqual(['good.txt']);
    expect(run.stderr).toBe(
      'warning: the store listed a key whose URL encoding is broken ("bad%zz\\u202e.txt", as it sent it): it is left out, as no request can name it. The store is faulty: tell its operator.\n',
    );
  } finally {
    await store.close();
    await t.close();
  }
});

it('C1 controls, bidi overrides and line separators: refused as file names, escaped in ls (text and --json), errors and receipts', async ({
  skip,
}) => {
  if (inject('s3').kind !== 'minio')
    skip('needs a store that holds keys with control characters as they are (versitygw replaces them)');
  const t = await setUpEngine();
  // Reads "invoice-exe.pdf"; a CSI; a NEL; a line separator; a right-to-left mark.
  const names = ['invoice-\u202efdp.exe', 'csi\u009b2J', 'nel\u0085x', 'line\u2028sep', 'mark\u200f.txt'];
  const unsafe = /[\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/;
  try {
    for (const name of [...names, 'plain.txt'])
      await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: `n/${name}`, Body: 'x' }));
    const listed = await runCli(['ls', `s3://${t.bucket}/n/`]);
    expect(listed.stdout).not.toMatch(unsafe);
    for (const shown of [
      'n/invoice-\\u202efdp.exe',
      'n/csi\\x9b2J',
      'n/nel\\x85x',
      'n/line\\u2028sep',
      'n/mark\\u200f.txt',
    ])
      expect(listed.stdout).toContain(shown);
    const json = await runCli(['ls', '--json', `s3://${t.bucket}/n/`]);
    expect(json.stdout).not.toMatch(unsafe);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).key)
        .sort(),
    ).toEqual([...names, 'plain.txt'].map((name) => `n/${name}`).sort());

    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-names-'));
    const receipt = path.join(dir, 'r.csv');
    const run = await runCli(['cp', '-r', `s3://${t.bucket}/n/`, path.join(dir, 'out'), '--receipt', receipt]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(unsafe);
    expect(run.stderr).toContain(
      'error: The key "n/invoice-\\u202efdp.exe" contains a bidirectional formatting character (\\u202e), which is not safe in a file name; it was not downloaded.',
    );
    expect(run.stderr).toContain('contains a line or paragraph separator (\\u2028)');
    expect(await readdir(path.join(dir, 'out'), { recursive: true })).toEqual(['n', path.join('n', 'plain.txt')]);
    const csv = await readFile(receipt, 'utf8');
    expect(csv).not.toMatch(unsafe);
    expect(csv).toContain('n/invoice-\\u202efdp.exe,');
    const jsonReceipt = path.join(dir, 'r.json');
    await runCli(['cp', '-r', `s3://${t.bucket}/n/`, path.join(dir, 'out2'), '--receipt', jsonReceipt]);
    expect(await readFile(jsonReceipt, 'utf8')).not.toMatch(unsafe);
  } finally {
    await t.close();
  }
});
