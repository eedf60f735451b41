// Wildcards and filters on cp and mv between s3:// addresses, through the real command line on the
// store the run starts: each match lands below the destination folder by its key below the
// pattern's folder (as s5cmd puts it), a filter keeps what it keeps, and a pattern that matches
// nothing, or whose matches would land on themselves, changes nothing.

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { uniqueBucket } from '../support/fixtures.ts';
import { runCli, keysListedByCli } from '../support/run-cli.ts';

/** Key -> size in bytes: spread over prefixes, so a wildcard has to span them. */
const SEED: Readonly<Record<string, number>> = {
  'logs/2024-01/a.gz': 2048,
  'logs/2024-01/b.txt': 10,
  'logs/2024-02/deep/c.gz': 4096,
  'logs/2023-12/d.gz': 100,
  'other/e.gz': 300,
};
const ALL_KEYS = Object.keys(SEED).sort();

/** A new bucket holding SEED (uploaded with the command line), and a second, empty one. */
async function seeded(): Promise<{ bucket: string; other: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-copy-wildcards-'));
  const bucket = uniqueBucket();
  const other = uniqueBucket();
  for (const [key, size] of Object.entries(SEED)) {
    await mkdir(path.dirname(path.join(dir, key)), { recursive: true });
    await writeFile(path.join(dir, key), Buffer.alloc(size, 'x'));
  }
  expect((await runCli(['mb', `s3://${bucket}`])).code).toBe(0);
  expect((await runCli(['mb', `s3://${other}`])).code).toBe(0);
  for (const top of ['logs', 'other'])
    expect((await runCli(['cp', '-r', '-q', path.join(dir, top), `s3://${bucket}/`])).code).toBe(0);
  return { bucket, other };
}

const keysIn = keysListedByCli;

describe('cp and mv between s3:// addresses with a wildcard', () => {
  it('cp, with or without -r, puts each match by its key below the pattern folder, as s5cmd does', async () => {
    const { bucket, other } = await seeded();
    const copied = await runCli(['cp', '-r', `s3://${bucket}/logs/2024-*/*.gz`, `s3://${other}/old/`]);
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stderr).toMatch(/^Copied 2 of 2 objects/m);
    expect(await keysIn(other)).toEqual(['old/2024-01/a.gz', 'old/2024-02/deep/c.gz']);
    const plain = await runCli(['cp', `s3://${bucket}/logs/2024-0?/b.*`, `s3://${other}/`]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(await keysIn(other)).toEqual(['2024-01/b.txt', 'old/2024-01/a.gz', 'old/2024-02/deep/c.gz']);
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
  });

  it('mv moves each match below the destination and deletes only the matches', async () => {
    const { bucket } = await seeded();
    const moved = await runCli(['mv', `s3://${bucket}/logs/*.gz`, `s3://${bucket}/archive/`]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(/^Moved 3 of 3 objects/m);
    expect(await keysIn(bucket)).toEqual([
      'archive/2023-12/d.gz',
      'archive/2024-01/a.gz',
      'archive/2024-02/deep/c.gz',
      'logs/2024-01/b.txt',
      'other/e.gz',
    ]);
  });

  it('two sources landing on one key: the first is moved, the second kept and named; one match of two patterns moves once', async () => {
    const { bucket, other } = await seeded();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-copy-collide-'));
    await writeFile(path.join(dir, 'a.gz'), 'another a.gz');
    expect((await runCli(['cp', '-q', path.join(dir, 'a.gz'), `s3://${bucket}/other/`])).code).toBe(0);
    const moved = await runCli([
      'mv',
      `s3://${bucket}/logs/2024-01/*.gz`,
      `s3://${bucket}/logs/2024-01/a*`,
      `s3://${bucket}/other/a*`,
      `s3://${other}/all/`,
    ]);
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain(
      `s3://${bucket}/other/a.gz would land on s3://${other}/all/a.gz, where s3://${bucket}/logs/2024-01/a.gz goes: ` +
        'it was not moved. Move them into separate folders.',
    );
    expect(moved.stderr).toMatch(/Moved 1 of 2 objects/);
    expect(await keysIn(other)).toEqual(['all/a.gz']);
    const sizes = await runCli(['ls', '--json', `s3://${other}/all/a.gz`]);
    expect(JSON.parse(sizes.stdout.trim())).toMatchObject({ key: 'all/a.gz', size: 2048 });
    expect(await keysIn(bucket)).toEqual(
      [...ALL_KEYS.filter((key) => key !== 'logs/2024-01/a.gz'), 'other/a.gz'].sort(),
    );
  });

  it('a wildcard matching nothing is refused by name, exits 1 and changes nothing', async () => {
    const { bucket, other } = await seeded();
    for (const recursive of [[], ['-r']]) {
      const moved = await runCli(['mv', ...recursive, `s3://${bucket}/logs/*.zip`, `s3://${other}/x/`]);
      expect(moved.code).toBe(1);
      expect(moved.stderr).toContain(`No object s3://${bucket}/logs/*.zip matches: nothing was moved.`);
    }
    const copied = await runCli(['cp', `s3://${bucket}/logs/*.zip`, `s3://${other}/x/`]);
    expect(copied.code).toBe(1);
    expect(copied.stderr).toContain(`No object s3://${bucket}/logs/*.zip matches: nothing was copied.`);
    // The same command again would match nothing again: it is not advised.
    expect(copied.stderr).not.toContain('run the same command again');
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
    expect(await keysIn(other)).toEqual([]);
  });

  it("refuses a move of a pattern onto itself, or into a folder its matches' copies would match again", async () => {
    const { bucket } = await seeded();
    const onto = await runCli(['mv', `s3://${bucket}/logs/*.gz`, `s3://${bucket}/logs/`]);
    expect(onto.code).toBe(2);
    expect(onto.stderr).toContain(`Cannot move what s3://${bucket}/logs/*.gz matches onto itself`);
    const into = await runCli(['mv', `s3://${bucket}/*.gz`, `s3://${bucket}/old/`]);
    expect(into.code).toBe(2);
    expect(into.stderr).toContain(`Cannot move what s3://${bucket}/*.gz matches into s3://${bucket}/old/`);
    const named = await runCli(['cp', `s3://${bucket}/logs/*.gz`, `s3://${bucket}/gz`]);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('the destination must be a folder: end it with "/"');
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
  });
});

describe('cp and mv between s3:// addresses with filters', () => {
  it('cp -r --exclude leaves out what it matches', async () => {
    const { bucket, other } = await seeded();
    const copied = await runCli(['cp', '-r', '--exclude', '*.txt', `s3://${bucket}/logs/`, `s3://${other}/x/`]);
    expect(copied.code, copied.stderr).toBe(0);
    expect(await keysIn(other)).toEqual(['x/logs/2023-12/d.gz', 'x/logs/2024-01/a.gz', 'x/logs/2024-02/deep/c.gz']);
  });

  it('cp with --larger-than keeps the larger matches, and a filter matching nothing says so', async () => {
    const { bucket, other } = await seeded();
    const copied = await runCli(['cp', '--larger-than', '1KiB', `s3://${bucket}/logs/*.gz`, `s3://${other}/big/`]);
    expect(copied.code, copied.stderr).toBe(0);
    expect(await keysIn(other)).toEqual(['big/2024-01/a.gz', 'big/2024-02/deep/c.gz']);
    const none = await runCli(['mv', '-r', '--larger-than', '1GiB', `s3://${bucket}/logs/`, `s3://${other}/huge/`]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      `No object below s3://${bucket}/logs/ matches --larger-than 1073741824 bytes: nothing was moved.`,
    );
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
  });

  it('cp -r with --older-than copies only what was there before that instant', async () => {
    const { bucket, other } = await seeded();
    // A whole second after the seed was written, and before the newer object is.
    const between = Math.ceil((Date.now() + 1) / 1000) * 1000;
    while (Date.now() < between + 1100) await new Promise((resolve) => setTimeout(resolve, 100));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-copy-newer-'));
    await writeFile(path.join(dir, 'new.gz'), 'new');
    expect((await runCli(['cp', '-q', path.join(dir, 'new.gz'), `s3://${bucket}/logs/`])).code).toBe(0);
    const before = new Date(between).toISOString().replace('.000Z', 'Z');
    const copied = await runCli(['cp', '-r', '--older-than', before, `s3://${bucket}/logs/`, `s3://${other}/`]);
    expect(copied.code, copied.stderr).toBe(0);
    expect(await keysIn(other)).toEqual(ALL_KEYS.filter((key) => key.startsWith('logs/')));
    const newer = await runCli(['mv', '--newer-than', before, `s3://${bucket}/logs/*`, `s3://${other}/n/`]);
    expect(newer.code, newer.stderr).toBe(0);
    expect(await keysIn(other)).toContain('n/new.gz');
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
  });
});
