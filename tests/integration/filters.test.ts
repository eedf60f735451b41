// Wildcards and filters on ls, cp and rm; rm --from; rb --force: through the real command line, on
// the store the run starts (MinIO, or versitygw with BARGE_TEST_SERVER=versitygw).

import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { uniqueBucket } from '../support/fixtures.ts';
import { runCli, startCli, keysListedByCli } from '../support/run-cli.ts';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';

/** Key -> size in bytes: spread over prefixes, so a wildcard has to span them. */
const SEED: Readonly<Record<string, number>> = {
  'logs/2024-01/a.gz': 2048,
  'logs/2024-01/b.txt': 10,
  'logs/2024-02/deep/c.gz': 4096,
  'logs/2023-12/d.gz': 100,
  'logs/2024-03.tmp': 5,
  'other/e.gz': 300,
};

/** A new bucket holding SEED, uploaded with the command line. */
async function seeded(): Promise<{ bucket: string; dir: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-filters-'));
  const bucket = uniqueBucket();
  for (const [key, size] of Object.entries(SEED)) {
    await mkdir(path.dirname(path.join(dir, 'seed', key)), { recursive: true });
    await writeFile(path.join(dir, 'seed', key), Buffer.alloc(size, 'x'));
  }
  expect((await runCli(['mb', `s3://${bucket}`])).code).toBe(0);
  for (const top of ['logs', 'other'])
    expect((await runCli(['cp', '-r', '-q', path.join(dir, 'seed', top), `s3://${bucket}/`])).code).toBe(0);
  return { bucket, dir };
}

const keysIn = keysListedByCli;

/** The keys an ls prints (its last column), sorted. */
function listedKeys(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('  ').at(-1)!)
    .sort();
}

async function filesBelow(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

const ALL_KEYS = Object.keys(SEED).sort();

describe('wildcards in S3 URLs', () => {
  it('ls, cp and rm take a wildcard that spans prefixes, and list only below its literal part', async () => {
    const { bucket, dir } = await seeded();
    const pattern = `s3://${bucket}/logs/2024-*/*.gz`;

    const listed = await runCli(['ls', pattern]);
    expect(listed.code).toBe(0);
    expect(listedKeys(listed.stdout)).toEqual(['logs/2024-01/a.gz', 'logs/2024-02/deep/c.gz']);
    const one = await runCli(['ls', `s3://${bucket}/logs/2024-0?/b.*`]);
    expect(listedKeys(one.stdout)).toEqual(['logs/2024-01/b.txt']);

    // Saved by their key below the pattern's folder (logs/), as s5cmd saves them.
    const target = path.join(dir, 'down');
    const down = await runCli(['cp', '-q', pattern, `${target}/`]);
    expect(down.code).toBe(0);
    expect(await filesBelow(target)).toEqual([path.join('2024-01', 'a.gz'), path.join('2024-02', 'deep', 'c.gz')]);

    const removed = await runCli(['rm', '-q', pattern]);
    expect(removed.code).toBe(0);
    expect(await keysIn(bucket)).toEqual(ALL_KEYS.filter((key) => !/^logs\/2024-.*\.gz$/.test(key)));
  });

  it('a wildcard matching nothing says so and changes nothing', async () => {
    const { bucket } = await seeded();
    const rm = await runCli(['rm', `s3://${bucket}/logs/*.zip`]);
    expect(rm.code).toBe(0);
    expect(rm.stdout).toBe(`No objects match s3://${bucket}/logs/*.zip: nothing was deleted.\n`);
    const ls = await runCli(['ls', `s3://${bucket}/logs/*.zip`]);
    expect(ls).toMatchObject({ code: 1, stdout: '', stderr: `No objects match s3://${bucket}/logs/*.zip.\n` });
    const cp = await runCli(['cp', `s3://${bucket}/logs/*.zip`, `${os.tmpdir()}/`]);
    expect(cp.code).toBe(1);
    expect(cp.stderr).toContain(`No object s3://${bucket}/logs/*.zip matches: nothing was downloaded.`);
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
  });

  it('--raw takes * and ? as themselves', async () => {
    const { bucket } = await seeded();
    const raw = await runCli(['rm', '--raw', `s3://${bucket}/logs/*`]);
    expect(raw.code).toBe(0);
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
  });
});

describe('filters', () => {
  it('ls -r keeps what --include, --exclude, sizes and storage class keep', async () => {
    const { bucket } = await seeded();
    const ls = async (...flags: string[]) => runCli(['ls', '-r', ...flags, `s3://${bucket}/logs/`]);
    expect(listedKeys((await ls('--include', '*.gz')).stdout)).toEqual([
      'logs/2023-12/d.gz',
      'logs/2024-01/a.gz',
      'logs/2024-02/deep/c.gz',
    ]);
    // --exclude wins over --include, in either order; globs see the key below logs/.
    expect(listedKeys((await ls('--exclude', '2024-02/*', '--include', '*.gz')).stdout)).toEqual([
      'logs/2023-12/d.gz',
      'logs/2024-01/a.gz',
    ]);
    expect(listedKeys((await ls('--larger-than', '1KiB')).stdout)).toEqual([
      'logs/2024-01/a.gz',
      'logs/2024-02/deep/c.gz',
    ]);
    expect(listedKeys((await ls('--smaller-than', '100')).stdout)).toEqual(['logs/2024-01/b.txt', 'logs/2024-03.tmp']);
    expect(listedKeys((await ls('--storage-class', 'standard')).stdout)).toHaveLength(5);
    expect(await ls('--storage-class', 'GLACIER')).toMatchObject({ code: 1, stdout: '' });
    expect(listedKeys((await ls('--newer-than', '1h')).stdout)).toHaveLength(5);
  });

  it('rm -r deletes only what the filter keeps; a filter matching nothing deletes nothing', async () => {
    const { bucket } = await seeded();
    const older = await runCli(['rm', '-r', '--older-than', '1h', `s3://${bucket}/logs/`]);
    expect(older.code).toBe(0);
    expect(older.stdout).toMatch(
      /^No objects match s3:\/\/[^ ]+\/logs\/ with --older-than \S+Z: nothing was deleted\.\n$/,
    );
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);

    const small = await runCli([
      'rm',
      '-r',
      '-q',
      '--smaller-than',
      '1KiB',
      '--exclude',
      '*.tmp',
      `s3://${bucket}/logs`,
    ]);
    expect(small.code).toBe(0);
    expect(await keysIn(bucket)).toEqual([
      'logs/2024-01/a.gz',
      'logs/2024-02/deep/c.gz',
      'logs/2024-03.tmp',
      'other/e.gz',
    ]);
  });

  it('refuses an --older-than in the future, and a filter on a key named alone, deleting nothing', async () => {
    const { bucket } = await seeded();
    const future = await runCli(['rm', '-r', '--older-than', '2999-01-01', `s3://${bucket}/`]);
    expect(future.code).toBe(2);
    expect(future.stderr).toContain(
      'barge: --older-than 2999-01-01 is in the future: every object is older than that. Give a past date or an age such as 90d.',
    );
    const bad = await runCli(['ls', '--larger-than', 'big', `s3://${bucket}/`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--larger-than takes a size such as 1GiB, 500MB, 10KiB or 4096 (bytes), not "big"');
    const oneKey = await runCli(['rm', '--larger-than', '1', `s3://${bucket}/other/e.gz`]);
    expect(oneKey.code).toBe(2);
    expect(oneKey.stderr).toContain('--larger-than filters what a listing finds');
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
  });

  it('a dry run prints the first matches, then the count and bytes; --json streams every match', async () => {
    const { bucket } = await seeded();
    const dry = await runCli(['rm', '--dry-run', `s3://${bucket}/logs/*.gz`]);
    expect(dry.code).toBe(0);
    const lines = dry.stdout.trim().split('\n');
    expect(lines.slice(0, -1).sort()).toEqual([
      `would delete s3://${bucket}/logs/2023-12/d.gz (100 B)`,
      `would delete s3://${bucket}/logs/2024-01/a.gz (2.00 KiB)`,
      `would delete s3://${bucket}/logs/2024-02/deep/c.gz (4.00 KiB)`,
    ]);
    expect(lines.at(-1)).toBe('Would delete 3 objects (6.10 KiB); nothing was deleted.');
    const json = await runCli(['rm', '--dry-run', '--json', '-r', '--include', '*.gz', `s3://${bucket}/`]);
    expect(json.code).toBe(0);
    const parsed = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { match?: { key: string }; size?: number });
    expect(
      parsed
        .filter((line) => line.match)
        .map((line) => [line.match!.key, line.size])
        .sort(),
    ).toEqual([
      ['logs/2023-12/d.gz', 100],
      ['logs/2024-01/a.gz', 2048],
      ['logs/2024-02/deep/c.gz', 4096],
      ['other/e.gz', 300],
    ]);
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
  });

  it('a dry run shows 20 matches of many, then the total', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-filters-many-'));
    const bucket = uniqueBucket();
    await mkdir(path.join(dir, 'many'));
    for (let i = 0; i < 25; i += 1) await writeFile(path.join(dir, 'many', `f${String(i).padStart(2, '0')}.log`), 'x');
    expect((await runCli(['mb', `s3://${bucket}`])).code).toBe(0);
    expect((await runCli(['cp', '-r', '-q', path.join(dir, 'many'), `s3://${bucket}/`])).code).toBe(0);
    const dry = await runCli(['rm', '--dry-run', `s3://${bucket}/many/*.log`]);
    const lines = dry.stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('would delete '))).toHaveLength(20);
    expect(lines.at(-1)).toBe('Would delete 25 objects (25 B); nothing was deleted.');
  });

  it('cp uploads only the local files the filter keeps', async () => {
    const { dir } = await seeded();
    const bucket = uniqueBucket();
    expect((await runCli(['mb', `s3://${bucket}`])).code).toBe(0);
    const up = await runCli([
      'cp',
      '-r',
      '-q',
      '--exclude',
      '2024-02/*',
      '--larger-than',
      '50',
      path.join(dir, 'seed', 'logs'),
      `s3://${bucket}/up/`,
    ]);
    expect(up.code).toBe(0);
    expect(await keysIn(bucket)).toEqual(['up/logs/2023-12/d.gz', 'up/logs/2024-01/a.gz']);
    const glacier = await runCli(['cp', '--storage-class', 'GLACIER', path.join(dir, 'seed'), `s3://${bucket}/`]);
    expect(glacier.code).toBe(2);
  });

  it('cp -r downloads only what the filter keeps', async () => {
    const { bucket, dir } = await seeded();
    const target = path.join(dir, 'filtered');
    const down = await runCli([
      'cp',
      '-r',
      '-q',
      '--include',
      '*.gz',
      '--smaller-than',
      '3KiB',
      `s3://${bucket}/logs/`,
      target,
    ]);
    expect(down.code).toBe(0);
    expect(await filesBelow(target)).toEqual([
      path.join('logs', '2023-12', 'd.gz'),
      path.join('logs', '2024-01', 'a.gz'),
    ]);
  });
});

describe('rm --from', () => {
  it('deletes the keys and s3:// URLs a file lists, in batches of 1,000, with the same dry run', async () => {
    const { bucket, dir } = await seeded();
    const list = path.join(dir, 'keys.txt');
    // 1,001 keys (most never existed: deleting a missing key succeeds), so two batches go.
    const missing = Array.from({ length: 998 }, (_, i) => `gone/${i}`);
    await writeFile(
      list,
      [`s3://${bucket}/logs/2024-01/a.gz`, 'other/e.gz\r', '', 'logs/2024-03.tmp', ...missing].join('\n'),
    );
    // Every match, as JSON: the text shows the first few, in the order the lookups answered, which a loaded
    // machine changes (a.gz was not among them once).
    const dry = await runCli(['rm', '--dry-run', '--json', '--from', list, `s3://${bucket}`]);
    const lines = dry.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { match?: { key: string } });
    const matches = lines.filter((line) => line.match !== undefined);
    expect(matches).toHaveLength(1_001);
    expect(matches).toContainEqual({ match: { key: 'logs/2024-01/a.gz' }, size: 2048 });
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
    const removed = await runCli(['rm', '--from', list, `s3://${bucket}`]);
    expect(removed.code).toBe(0);
    expect(removed.stderr).toMatch(/Deleted 1,001 of 1,001 objects/);
    expect(await keysIn(bucket)).toEqual(['logs/2023-12/d.gz', 'logs/2024-01/b.txt', 'logs/2024-02/deep/c.gz']);
  });

  it('reads the list from standard input with -', async () => {
    const { bucket } = await seeded();
    const run = startCli(['rm', '-q', '--from', '-']);
    run.child.stdin!.end(`s3://${bucket}/other/e.gz\ns3://${bucket}/logs/2023-12/d.gz\n`);
    expect((await run.done).code).toBe(0);
    expect(await keysIn(bucket)).toEqual(ALL_KEYS.filter((key) => key !== 'other/e.gz' && key !== 'logs/2023-12/d.gz'));
  });

  it("a dry run from standard input tells the real run's story: a key not there would be deleted (not found)", async () => {
    const { bucket } = await seeded();
    const keys = `s3://${bucket}/other/e.gz\ns3://${bucket}/not/there.gz\n`;
    const dry = startCli(['rm', '--dry-run', '--from', '-']);
    dry.child.stdin!.end(keys);
    const dryEnd = await dry.done;
    expect(dryEnd.code, dryEnd.stderr).toBe(0);
    expect(dryEnd.stdout).toContain(`would delete s3://${bucket}/not/there.gz (not found: its delete succeeds`);
    expect(dryEnd.stdout).toMatch(new RegExp(`would delete s3://${bucket}/other/e\\.gz \\(\\d`));
    expect(dryEnd.stdout).toMatch(/^Would delete 2 objects \(.+\); nothing was deleted\.$/m);
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
    const real = startCli(['rm', '--from', '-']);
    real.child.stdin!.end(keys);
    const realEnd = await real.done;
    expect(realEnd.code).toBe(0);
    expect(realEnd.stderr).toMatch(/Deleted 2 of 2 objects/);
  });

  it('a dry run on a bucket that does not exist fails naming it, and promises no delete', async () => {
    const missing = `nosuchbkt-${Date.now()}`;
    const dry = startCli(['rm', '--from', '-', `s3://${missing}`, '--dry-run']);
    dry.child.stdin!.end('k1\nk2\n');
    const end = await dry.done;
    expect(end.code).not.toBe(0);
    expect(end.stderr).toContain(`The bucket ${missing} does not exist`);
    expect(end.stdout).not.toContain('would delete');
  });

  it('refuses a list naming another bucket, or bare keys with no bucket, by line, deleting nothing', async () => {
    const { bucket, dir } = await seeded();
    const list = path.join(dir, 'mixed.txt');
    await writeFile(list, `s3://${bucket}/other/e.gz\ns3://elsewhere/x\n`);
    const mixed = await runCli(['rm', '--from', list]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(`line 2: s3://elsewhere/ is another bucket than s3://${bucket}/`);
    await writeFile(list, 'other/e.gz\n');
    const bare = await runCli(['rm', '--from', list]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('line 1: "other/e.gz" is a bare key, and no bucket was given');
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
  });
});

describe('rb --force', () => {
  it('refuses without a terminal and without --yes, and empties and deletes the bucket with --yes', async () => {
    const { bucket } = await seeded();
    const refused = await runCli(['rb', '--force', `s3://${bucket}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `rb --force empties s3://${bucket} (every object, every version and every unfinished upload) and then deletes it: run it in a terminal to confirm by typing the bucket's name, or add --yes to confirm it here.`,
    );
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
    const forced = await runCli(['rb', '--force', '--yes', `s3://${bucket}`]);
    expect(forced).toMatchObject({ code: 0, stdout: `Deleted s3://${bucket}\n` });
    const buckets = await runCli(['ls']);
    expect(buckets.stdout).not.toContain(bucket);
  });
});

describe('rb --force at a terminal', () => {
  const typedAt = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pty-typed.py');

  it("deletes nothing when the name typed is not the bucket's, and empties and deletes it when it is", async () => {
    const { bucket } = await seeded();
    const wrong = startCli(['rb', '--force', `s3://${bucket}`], { wrap: ['python3', typedAt] });
    wrong.child.stdin!.end('not-the-name\n');
    const refused = await wrong.done;
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("Type the bucket's name to confirm:");
    expect(refused.stdout).toContain('"not-the-name" is not the bucket\'s name: nothing was deleted.');
    expect(await keysIn(bucket)).toEqual(ALL_KEYS);
    const right = startCli(['rb', '--force', `s3://${bucket}`], { wrap: ['python3', typedAt] });
    right.child.stdin!.end(`${bucket}\n`);
    const done = await right.done;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`Deleted s3://${bucket}`);
    expect((await runCli(['ls'])).stdout).not.toContain(bucket);
  });
});

describe('through a store that predates flexible checksums', () => {
  it('rm with a wildcard and a filter deletes what they match', async () => {
    const { bucket } = await seeded();
    const s3 = inject('s3');
    const proxy = await startLegacyStoreProxy(
      s3.endpoint,
      { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      s3.region,
    );
    try {
      const env = { AWS_ENDPOINT_URL: proxy.endpoint };
      const removed = await runCli(['rm', '-q', '--larger-than', '1KiB', `s3://${bucket}/logs/*`], { env });
      expect(removed.code).toBe(0);
      expect(await keysIn(bucket, env)).toEqual(
        ALL_KEYS.filter((key) => (SEED[key] ?? 0) <= 1024 || !key.startsWith('logs/')),
      );
    } finally {
      await proxy.close();
    }
  });
});
