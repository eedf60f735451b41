// barge sync between two prefixes (the store copies), filtered syncs, upload options on a sync, and du
// with filters and wildcards, on a real store (MinIO, or versitygw with BARGE_TEST_SERVER=versitygw),
// through a proxy that counts what is sent.

import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GetObjectTaggingCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { serverConfig, setUpEngine, uniqueBucket } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

let t: TestContext;
let proxy: FaultProxy;
let dataDir: string;
let other: string;
beforeEach(async () => {
  t = await setUpEngine();
  other = uniqueBucket();
  await createBucket(t.connection, other);
  proxy = await startFaultProxy(serverConfig().endpoint!);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'barge-sync-filters-'));
});
afterEach(async () => {
  await proxy.close();
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args, { env: { AWS_ENDPOINT_URL: proxy.endpoint, BARGE_DATA_DIR: dataDir } });
/** Object PUTs the store was sent (whole objects, parts and copies), by path. */
const puts = () => proxy.seen.filter((r) => r.method === 'PUT').map((r) => decodeURIComponent(r.url.split('?')[0]!));

async function put(bucket: string, key: string, body: string): Promise<void> {
  await t.connection.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

async function keysBelow(bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listAllObjects(t.connection, { bucket, prefix })) keys.push(object.key);
  return keys.sort();
}

async function body(bucket: string, key: string): Promise<string> {
  const got = await t.connection.client.send(
    new (await import('@aws-sdk/client-s3')).GetObjectCommand({ Bucket: bucket, Key: key }),
  );
  return got.Body!.transformToString();
}

describe('sync s3:// -> s3://', () => {
  it('copies every object first, then only the new and changed; --dry-run prints the plan; --delete removes extras', async () => {
    for (const name of ['a.txt', 'b.txt', 'sub/c.txt']) await put(t.bucket, `src/${name}`, `${name}\n`);
    const first = await cli('sync', `s3://${t.bucket}/src/`, `s3://${other}/dst`);
    expect(first.code, first.stderr).toBe(0);
    expect(await keysBelow(other, 'dst/')).toEqual(['dst/a.txt', 'dst/b.txt', 'dst/sub/c.txt']);
    expect(await body(other, 'dst/sub/c.txt')).toBe('sub/c.txt\n');

    // Nothing changed: nothing is copied.
    proxy.seen.length = 0;
    const again = await cli('sync', `s3://${t.bucket}/src`, `s3://${other}/dst/`);
    expect(again.code, again.stderr).toBe(0);
    expect(puts()).toEqual([]);

    // One changes size, one is new at the source, one is only at the destination.
    await put(t.bucket, 'src/b.txt', 'b, longer now\n');
    await put(t.bucket, 'src/new.txt', 'new\n');
    await put(other, 'dst/stray.bin', 'xyz');
    proxy.seen.length = 0;
    const dry = await cli('sync', '--dry-run', '--delete', `s3://${t.bucket}/src/`, `s3://${other}/dst/`);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      [
        `changed       14 B  s3://${t.bucket}/src/b.txt -> s3://${other}/dst/b.txt (size differs (source 14 B, destination 6 B))`,
        `new            4 B  s3://${t.bucket}/src/new.txt -> s3://${other}/dst/new.txt`,
        `extra          3 B  s3://${other}/dst/stray.bin (deleted with --delete)`,
        'Would sync: 1 new (4 B), 1 changed (14 B), 1 extra (3 B); extra ones would be deleted. Nothing was changed.',
        '',
      ].join('\n'),
    );
    expect(puts()).toEqual([]);
    expect(proxy.seen.filter((r) => r.method === 'POST' || r.method === 'DELETE')).toEqual([]);

    proxy.seen.length = 0;
    const deleting = await cli('sync', '--delete', `s3://${t.bucket}/src/`, `s3://${other}/dst/`);
    expect(deleting.code, deleting.stderr).toBe(0);
    // Only the two that differ are copied (by the store: no object's body was sent), the extra deleted.
    expect(puts().sort()).toEqual([`/${other}/dst/b.txt`, `/${other}/dst/new.txt`]);
    expect(await keysBelow(other, 'dst/')).toEqual(['dst/a.txt', 'dst/b.txt', 'dst/new.txt', 'dst/sub/c.txt']);
    expect(await body(other, 'dst/b.txt')).toBe('b, longer now\n');
  });

  it('--delete to the top of a bucket is refused without --yes', async () => {
    await put(t.bucket, 'src/a.txt', 'a');
    await put(other, 'keep.txt', 'k');
    const refused = await cli('sync', '--delete', `s3://${t.bucket}/src/`, `s3://${other}/`);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`sync --delete to the top of bucket ${other} deletes every object`);
    expect(await keysBelow(other, '')).toEqual(['keep.txt']);
  });

  it('a sync between overlapping prefixes of one bucket is refused, with the rule, and changes nothing', async () => {
    await put(t.bucket, 'a/sub/x.txt', 'x');
    await put(t.bucket, 'a/y.txt', 'y');
    const up = await cli('sync', '--delete', `s3://${t.bucket}/a/sub/`, `s3://${t.bucket}/a/`);
    expect(up.code, up.stderr).toBe(1);
    expect(up.stderr).toContain(
      `Cannot sync s3://${t.bucket}/a/sub/ to s3://${t.bucket}/a/: the destination holds the source, so --delete ` +
        `would take the source for extra and delete it.`,
    );
    expect(up.stderr).toContain('choose a destination outside the source, and not above it');
    const down = await cli('sync', `s3://${t.bucket}/a`, `s3://${t.bucket}/a/sub/`);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('the destination lies inside the source');
    const same = await cli('sync', `s3://${t.bucket}/a/`, `s3://${t.bucket}/a`);
    expect(same.code).toBe(1);
    expect(same.stderr).toContain('they are the same prefix');
    const top = await cli('sync', '--dry-run', `s3://${t.bucket}/`, `s3://${t.bucket}/b/`);
    expect(top.code).toBe(1);
    expect(puts()).toEqual([]);
    expect(await keysBelow(t.bucket, '')).toEqual(['a/sub/x.txt', 'a/y.txt']);
    // Beside each other, or in two buckets, they do not overlap.
    expect((await cli('sync', `s3://${t.bucket}/a/sub/`, `s3://${t.bucket}/a/subway/`)).code).toBe(0);
    expect((await cli('sync', `s3://${t.bucket}/a/`, `s3://${other}/a/`)).code).toBe(0);
  });

  it('a restored sync job between overlapping prefixes does not run', async () => {
    await put(t.bucket, 'r/sub/x.txt', 'x');
    const start = () =>
      t.engine.sync(t.connection, {
        direction: 'copy',
        sourceBucket: t.bucket,
        sourcePrefix: 'r/sub/',
        bucket: t.bucket,
        prefix: 'r/',
        delete: true,
      });
    expect(start).toThrow(/not valid \(Cannot sync .* the destination holds the source/);
    expect(await keysBelow(t.bucket, 'r/')).toEqual(['r/sub/x.txt']);
  });

  it('--delete from an empty source: the dry run and the run agree that nothing is deleted, said once', async () => {
    for (let i = 0; i < 11; i++) await put(other, `e/k${String(i).padStart(2, '0')}.txt`, 'k');
    const dry = await cli('sync', '--delete', '--dry-run', `s3://${t.bucket}/dd/`, `s3://${other}/e/`);
    expect(dry.code, dry.stderr).toBe(0);
    const lines = dry.stdout.trim().split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe(
      `extra          1 B  s3://${other}/e/k00.txt (not deleted (s3://${t.bucket}/dd/ holds nothing))`,
    );
    expect(lines[11]).toBe(
      `Would sync: 0 new (0 B), 0 changed (0 B), 11 extra (11 B); nothing would be deleted: s3://${t.bucket}/dd/ ` +
        `holds nothing, so everything at the destination looks extra (a mistyped name?), and the sync refuses ` +
        `to delete (to empty the destination, delete it instead). Nothing was changed.`,
    );
    expect(dry.stdout).not.toContain('deleted with --delete');
    const run = await cli('sync', '--delete', `s3://${t.bucket}/dd/`, `s3://${other}/e/`);
    expect(run.code).toBe(1);
    expect(run.stderr.split('Not deleted').length - 1, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `Not deleted: s3://${t.bucket}/dd/ holds nothing, so all 11 objects at the destination look extra`,
    );
    expect(await keysBelow(other, 'e/')).toHaveLength(11);
  });

  it('a wildcard source copies and deletes only the keys it matches', async () => {
    for (const name of ['x.gz', 'y.gz', 'z.txt']) await put(t.bucket, `logs/${name}`, name);
    await put(other, 'arch/old.gz', 'old');
    await put(other, 'arch/notes.txt', 'notes');
    const run = await cli('sync', '--delete', `s3://${t.bucket}/logs/*.gz`, `s3://${other}/arch/`);
    expect(run.code, run.stderr).toBe(0);
    expect(await keysBelow(other, 'arch/')).toEqual(['arch/notes.txt', 'arch/x.gz', 'arch/y.gz']);
  });
});

describe('filtered sync', () => {
  it('an upload sync with --exclude sends and deletes only what the filter selects', async () => {
    const folder = path.join(t.dir, 'src');
    await mkdir(folder);
    await writeFile(path.join(folder, 'keep.txt'), 'keep\n');
    await writeFile(path.join(folder, 'debug.log'), 'not sent\n');
    await put(t.bucket, 'p/stray.txt', 'extra, selected');
    await put(t.bucket, 'p/old.log', 'extra, excluded');
    const run = await cli('sync', '--delete', '--exclude', '*.log', folder, `s3://${t.bucket}/p/`);
    expect(run.code, run.stderr).toBe(0);
    // The excluded file is not sent; the excluded extra is not deleted (rclone's rule).
    expect(await keysBelow(t.bucket, 'p/')).toEqual(['p/keep.txt', 'p/old.log']);
  });

  it('a download sync from a wildcard, with --larger-than, saves only what is selected, deletes only names it selects', async () => {
    await put(t.bucket, 'd/big.dat', 'x'.repeat(100));
    await put(t.bucket, 'd/small.dat', 'x');
    await put(t.bucket, 'd/big.txt', 'y'.repeat(100));
    const target = path.join(t.dir, 'out');
    await mkdir(target);
    await writeFile(path.join(target, 'extra-big.dat'), 'z'.repeat(100));
    await writeFile(path.join(target, 'extra-small.dat'), 'z');
    await writeFile(path.join(target, 'other.bin'), 'z'.repeat(100));
    const run = await cli('sync', '--delete', '--larger-than', '10', `s3://${t.bucket}/d/*.dat`, target);
    expect(run.code, run.stderr).toBe(0);
    // small.dat is too small to send; the extras the wildcard names go, whatever their size (a size
    // selects what is sent, a name what is compared); other.bin is not the wildcard's.
    expect((await readdir(target)).sort()).toEqual(['big.dat', 'other.bin']);
  });

  it('an upload sync --delete with --newer-than keeps the copies of older files: only names gone from the folder are extra', async () => {
    const folder = path.join(t.dir, 'up');
    await mkdir(folder);
    const longAgo = new Date('2024-01-01T00:00:00Z');
    for (const name of ['f1', 'f2']) {
      await writeFile(path.join(folder, name), `${name}\n`);
      await utimes(path.join(folder, name), longAgo, longAgo);
    }
    expect((await cli('sync', folder, `s3://${t.bucket}/up/`)).code).toBe(0);
    await writeFile(path.join(folder, 'fresh'), 'fresh\n');
    await writeFile(path.join(folder, 'old-new'), 'old, never sent\n');
    await utimes(path.join(folder, 'old-new'), longAgo, longAgo);
    await put(t.bucket, 'up/gone', 'only in the bucket');
    const dry = await cli('sync', '--delete', '--dry-run', '--newer-than', '7d', folder, `s3://${t.bucket}/up/`);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      [
        `new            6 B  ${path.join(folder, 'fresh')} -> s3://${t.bucket}/up/fresh`,
        `extra         18 B  s3://${t.bucket}/up/gone (deleted with --delete)`,
        'Would sync: 1 new (6 B), 0 changed (0 B), 1 extra (18 B); extra ones would be deleted. Nothing was changed.',
        '',
      ].join('\n'),
    );
    const run = await cli('sync', '--delete', '--newer-than', '7d', folder, `s3://${t.bucket}/up/`);
    expect(run.code, run.stderr).toBe(0);
    expect(await keysBelow(t.bucket, 'up/')).toEqual(['up/f1', 'up/f2', 'up/fresh']);
  });

  it('a download sync --delete with --older-than or --larger-than keeps the files whose objects are still there', async () => {
    await put(t.bucket, 'dl/a.txt', 'a, just written');
    await put(t.bucket, 'dl/tiny.txt', 't');
    const target = path.join(t.dir, 'dl');
    expect((await cli('sync', `s3://${t.bucket}/dl/`, target)).code).toBe(0);
    // The local copies dated long ago and one grown: judged by their own date and size, they look extra.
    const longAgo = new Date('2024-01-01T00:00:00Z');
    await writeFile(path.join(target, 'tiny.txt'), 'grown locally past ten bytes');
    await writeFile(path.join(target, 'stray.txt'), 'only on disk, long ago');
    for (const name of ['a.txt', 'tiny.txt', 'stray.txt']) await utimes(path.join(target, name), longAgo, longAgo);
    const byAge = await cli('sync', '--delete', '--older-than', '30d', `s3://${t.bucket}/dl/`, target);
    expect(byAge.code, byAge.stderr).toBe(0);
    expect((await readdir(target)).sort()).toEqual(['a.txt', 'tiny.txt']);
    const bySize = await cli('sync', '--delete', '--larger-than', '10', `s3://${t.bucket}/dl/`, target);
    expect(bySize.code, bySize.stderr).toBe(0);
    expect((await readdir(target)).sort()).toEqual(['a.txt', 'tiny.txt']);
  });

  it('an S3 -> S3 sync --delete with --newer-than keeps the copies (dated when copied) of older sources', async () => {
    await put(t.bucket, 'src/old1.txt', 'old one');
    await put(t.bucket, 'src/old2.txt', 'old two');
    // A whole second after the sources were written, and before their copies are made.
    const between = Math.ceil((Date.now() + 1) / 1000) * 1000;
    while (Date.now() < between + 1100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await cli('sync', `s3://${t.bucket}/src/`, `s3://${other}/dst/`)).code).toBe(0);
    await put(other, 'dst/stray.txt', 'only at the destination');
    const since = new Date(between).toISOString().replace('.000Z', 'Z');
    const dry = await cli(
      'sync',
      '--delete',
      '--dry-run',
      '--newer-than',
      since,
      `s3://${t.bucket}/src/`,
      `s3://${other}/dst/`,
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).not.toContain('old');
    expect(dry.stdout).toContain(`extra         23 B  s3://${other}/dst/stray.txt (deleted with --delete)`);
    const run = await cli('sync', '--delete', '--newer-than', since, `s3://${t.bucket}/src/`, `s3://${other}/dst/`);
    expect(run.code, run.stderr).toBe(0);
    expect(await keysBelow(other, 'dst/')).toEqual(['dst/old1.txt', 'dst/old2.txt']);
  });

  it('upload options land on the objects a sync sends', async () => {
    const folder = path.join(t.dir, 'src');
    await mkdir(folder);
    await writeFile(path.join(folder, 'page.html'), '<p>hi</p>\n');
    const run = await cli(
      'sync',
      '--content-type',
      'text/x-barge',
      '--cache-control',
      'max-age=60',
      '--metadata',
      'team=ops',
      '--tags',
      'stage=test',
      folder,
      `s3://${t.bucket}/site/`,
    );
    expect(run.code, run.stderr).toBe(0);
    const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'site/page.html' }));
    expect(head).toMatchObject({ ContentType: 'text/x-barge', CacheControl: 'max-age=60' });
    expect(head.Metadata).toMatchObject({ team: 'ops' });
    const tags = await t.connection.client.send(
      new GetObjectTaggingCommand({ Bucket: t.bucket, Key: 'site/page.html' }),
    );
    expect(tags.TagSet).toEqual([{ Key: 'stage', Value: 'test' }]);
  });

  it('upload options on a sync that downloads or copies are refused, and a wildcard destination too', async () => {
    const target = path.join(t.dir, 'out');
    const download = await cli('sync', '--metadata', 'a=b', `s3://${t.bucket}/d/`, target);
    expect(download.code).toBe(2);
    expect(download.stderr).toContain('are for a sync that uploads');
    const wildcard = await cli('sync', `s3://${t.bucket}/d/`, `s3://${other}/x/*.gz`);
    expect(wildcard.code).toBe(2);
    expect(wildcard.stderr).toContain("a sync's destination is one prefix");
  });
});

describe('du with filters and wildcards', () => {
  it('counts only the objects a wildcard or a filter selects', async () => {
    await put(t.bucket, 'logs/2024-01/a.gz', 'x'.repeat(100));
    await put(t.bucket, 'logs/2024-02/b.gz', 'x'.repeat(50));
    await put(t.bucket, 'logs/2024-02/c.txt', 'x'.repeat(7));
    await put(t.bucket, 'logs/2025-01/d.gz', 'x'.repeat(9));
    const wildcard = await cli('du', '--json', `s3://${t.bucket}/logs/2024-*/*.gz`);
    expect(wildcard.code, wildcard.stderr).toBe(0);
    expect(JSON.parse(wildcard.stdout.trim()).totals).toMatchObject({ objects: 2, bytes: 150 });
    const filtered = await cli('du', '--json', '--larger-than', '8', '--exclude', '*.txt', `s3://${t.bucket}/logs/`);
    expect(filtered.code, filtered.stderr).toBe(0);
    expect(JSON.parse(filtered.stdout.trim()).totals).toMatchObject({ objects: 3, bytes: 159 });
    const none = await cli('du', `s3://${t.bucket}/logs/*.zip`);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain(`No object matches s3://${t.bucket}/logs/*.zip`);
  });
});
