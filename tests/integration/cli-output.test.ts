// What the command line prints cannot be forged by a key: control characters are shown escaped
// in every human-readable line (ls, errors, dry runs), --json keeps the exact key, and receipts
// neutralise fields a spreadsheet would run. Keys are stored on the real server.

import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { setUpEngine } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

// An OSC 52 sequence (writes the clipboard), a colour, and a newline that would forge a listing row.
const EVIL = 'evil\x1b]52;c;cm0gLXJmIH4=\x07\x1b[31mred\nforged-row.txt';
// (MinIO refuses keys holding "//", so no scheme in the link.)
const FORMULA = '=HYPERLINK("attacker.example","open me")';

it('ls, errors and dry runs show keys with control characters escaped; --json keeps them exact; receipts neutralise formulas', async () => {
  const t = await setUpEngine();
  try {
    for (const key of [`k/${EVIL}`, 'k/plain.txt', FORMULA]) await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: 'x' }));
    const listed = await runCli(['ls', `s3://${t.bucket}/k/`]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toMatch(/[\x1b\x07]/);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(listed.stdout).toContain('k/evil\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[31mred\\nforged-row.txt');
    const json = await runCli(['ls', '--json', `s3://${t.bucket}/k/`]);
    expect(json.stdout.trim().split('\n').map((line) => JSON.parse(line).key).sort()).toEqual([`k/${EVIL}`, 'k/plain.txt'].sort());

    // An error naming the key: a download into a file that cannot be written.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-output-'));
    const failed = await runCli(['cp', `s3://${t.bucket}/k/${EVIL}`, path.join(dir, 'missing-folder', 'x', 'y')], { env: {} });
    expect(failed.stderr).not.toMatch(/[\x1b\x07]/);

    const dry = await runCli(['rm', '-r', '--dry-run', `s3://${t.bucket}/k/`]);
    expect(dry.stdout).toBe('Would delete 2 objects (2 B); nothing was deleted.\n');
    expect(dry.stderr).not.toMatch(/[\x1b\x07]/);

    const receipt = path.join(dir, 'receipt.csv');
    expect((await runCli(['cp', `s3://${t.bucket}/${FORMULA}`, path.join(dir, 'formula.txt'), '--receipt', receipt])).code).toBe(0);
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
    expect(one.stdout).toBe('Would delete 1 object (1 B); nothing was deleted.\n');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-cli-output-'));
    const down = await runCli(['cp', `s3://${t.bucket}/one/only.txt`, path.join(dir, 'only.txt')]);
    expect(down.stderr).toMatch(/Downloaded 1 of 1 object, /);
  } finally {
    await t.close();
  }
});
