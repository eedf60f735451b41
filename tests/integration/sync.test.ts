// barge sync on a real store (MinIO, or versitygw with BARGE_TEST_SERVER=versitygw), through a
// proxy that counts what is sent: a second sync sends only what changed, in each direction.

import { DatabaseSync } from 'node:sqlite';
import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { inject } from 'vitest';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import { randomFile, serverConfig, setUpEngine, sha256File } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli, startCli } from '../support/run-cli.ts';

const MIB = 1024 * 1024;
const FILES = 30;

let t: TestContext;
let proxy: FaultProxy;
let dataDir: string;
beforeEach(async () => {
  t = await setUpEngine();
  proxy = await startFaultProxy(serverConfig().endpoint!);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'barge-sync-journal-'));
});
afterEach(async () => {
  await proxy.close();
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const cliEnv = () => ({ AWS_ENDPOINT_URL: proxy.endpoint, BARGE_DATA_DIR: dataDir });
const sync = (...args: string[]) => runCli(['sync', ...args], { env: cliEnv() });
/** Object PUTs (whole objects and parts) the store was sent. */
const puts = () => proxy.seen.filter((r) => r.method === 'PUT').map((r) => decodeURIComponent(r.url.split('?')[0]!));
/** Object GETs (not listings). */
const gets = () =>
  proxy.seen
    .filter((r) => r.method === 'GET' && !r.url.includes('list-type') && !r.url.includes('uploads'))
    .map((r) => decodeURIComponent(r.url.split('?')[0]!));

async function keysBelow(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listAllObjects(t.connection, { bucket: t.bucket, prefix })) keys.push(object.key);
  return keys.sort();
}

/** A folder of FILES small files, some in a subfolder, and one named so that key order is not name order. */
async function seedFolder(folder: string): Promise<void> {
  for (let i = 0; i < FILES; i++) {
    const name = i % 3 === 0 ? `sub/f${String(i).padStart(2, '0')}.txt` : `f${String(i).padStart(2, '0')}.txt`;
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), `file ${i}\n`);
  }
  // "sub.txt" lists before "sub/…" in S3 ("." is below "/"), after it in a plain walk.
  await writeFile(path.join(folder, 'sub.txt'), 'beside the folder\n');
}

it('local -> S3: the first sync sends every file, the next only what changed; --delete removes what is only in the bucket', async () => {
  const folder = path.join(t.dir, 'src');
  await seedFolder(folder);
  const first = await sync(folder, `s3://${t.bucket}/backup`);
  expect(first.code, first.stderr).toBe(0);
  expect(puts()).toHaveLength(FILES + 1);
  expect(await keysBelow('backup/')).toHaveLength(FILES + 1);

  // Nothing changed: nothing is sent.
  proxy.seen.length = 0;
  const again = await sync(folder, `s3://${t.bucket}/backup/`);
  expect(again.code, again.stderr).toBe(0);
  expect(puts()).toEqual([]);
  expect(again.stderr).toContain('Synced (sent or deleted) 0 of 0 objects');

  // Two files change size, one is new, one is gone (extra in the bucket).
  await writeFile(path.join(folder, 'f01.txt'), 'a longer body than before\n');
  await writeFile(path.join(folder, 'sub', 'f03.txt'), 'also longer than it was\n');
  await writeFile(path.join(folder, 'new.txt'), 'new\n');
  await rm(path.join(folder, 'f02.txt'));
  proxy.seen.length = 0;
  const changed = await sync(folder, `s3://${t.bucket}/backup/`);
  expect(changed.code, changed.stderr).toBe(0);
  expect(puts().sort()).toEqual(
    [`/${t.bucket}/backup/f01.txt`, `/${t.bucket}/backup/new.txt`, `/${t.bucket}/backup/sub/f03.txt`].sort(),
  );
  // Without --delete the extra stays.
  expect(await keysBelow('backup/f02')).toEqual(['backup/f02.txt']);

  proxy.seen.length = 0;
  const deleting = await sync('--delete', folder, `s3://${t.bucket}/backup/`);
  expect(deleting.code, deleting.stderr).toBe(0);
  expect(puts()).toEqual([]);
  // One DeleteObjects batch, no object sent.
  expect(proxy.seen.filter((r) => r.method === 'POST' && r.url.includes('delete'))).toHaveLength(1);
  expect(await keysBelow('backup/f02')).toEqual([]);
  expect(await keysBelow('backup/')).toHaveLength(FILES + 1);
  expect(await readFile(path.join(folder, 'f01.txt'), 'utf8')).toBe('a longer body than before\n');
});

it('S3 -> local: the first sync saves every object, the next only what changed; --delete removes files only on disk', async () => {
  const source = path.join(t.dir, 'src');
  await seedFolder(source);
  expect((await runCli(['sync', source, `s3://${t.bucket}/data/`])).code).toBe(0);
  const target = path.join(t.dir, 'copy');
  const first = await sync(`s3://${t.bucket}/data/`, target);
  expect(first.code, first.stderr).toBe(0);
  expect(gets()).toHaveLength(FILES + 1);
  expect(await readFile(path.join(target, 'sub', 'f00.txt'), 'utf8')).toBe('file 0\n');
  expect(await readFile(path.join(target, 'sub.txt'), 'utf8')).toBe('beside the folder\n');

  proxy.seen.length = 0;
  expect((await sync(`s3://${t.bucket}/data`, target)).code).toBe(0);
  expect(gets()).toEqual([]);

  // One object replaced in the bucket, one file only on disk.
  await t.connection.client.send(
    new PutObjectCommand({ Bucket: t.bucket, Key: 'data/f04.txt', Body: 'replaced in the bucket\n' }),
  );
  await writeFile(path.join(target, 'local-only.txt'), 'only here\n');
  proxy.seen.length = 0;
  const changed = await sync('--delete', `s3://${t.bucket}/data/`, target);
  expect(changed.code, changed.stderr).toBe(0);
  expect(gets()).toEqual([`/${t.bucket}/data/f04.txt`]);
  expect(await readFile(path.join(target, 'f04.txt'), 'utf8')).toBe('replaced in the bucket\n');
  await expect(readFile(path.join(target, 'local-only.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
});

it('--dry-run prints one line per key with its reason, then the totals, and changes nothing', async () => {
  const folder = path.join(t.dir, 'src');
  await mkdir(folder);
  await writeFile(path.join(folder, 'same.txt'), 'same\n');
  await writeFile(path.join(folder, 'grows.txt'), 'short\n');
  expect((await sync(folder, `s3://${t.bucket}/p/`)).code).toBe(0);
  await writeFile(path.join(folder, 'grows.txt'), 'much longer now\n');
  await writeFile(path.join(folder, 'added.txt'), 'added\n');
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'p/stray.bin', Body: 'xyz' }));
  proxy.seen.length = 0;

  const dry = await sync('--dry-run', '--delete', folder, `s3://${t.bucket}/p/`);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toBe(
    [
      `new            6 B  ${path.join(folder, 'added.txt')} -> s3://${t.bucket}/p/added.txt`,
      `changed       16 B  ${path.join(folder, 'grows.txt')} -> s3://${t.bucket}/p/grows.txt (size differs (source 16 B, destination 6 B))`,
      `extra          3 B  s3://${t.bucket}/p/stray.bin (deleted with --delete)`,
      'Would sync: 1 new (6 B), 1 changed (16 B), 1 extra (3 B); extra ones would be deleted. Nothing was changed.',
      '',
    ].join('\n'),
  );
  expect(puts()).toEqual([]);
  expect(proxy.seen.filter((r) => r.method === 'POST' || r.method === 'DELETE')).toEqual([]);
  expect(await keysBelow('p/')).toEqual(['p/grows.txt', 'p/same.txt', 'p/stray.bin']);
});

it('--checksum sends a file whose time is newer only when its bytes differ from the ETag', async () => {
  const folder = path.join(t.dir, 'src');
  await mkdir(folder);
  await writeFile(path.join(folder, 'touched.txt'), 'same bytes\n');
  await writeFile(path.join(folder, 'edited.txt'), 'before....\n');
  expect((await sync(folder, `s3://${t.bucket}/c/`)).code).toBe(0);
  // Both newer than their objects; one has other bytes of the same size.
  await writeFile(path.join(folder, 'edited.txt'), 'after.....\n');
  const later = new Date(Date.now() + 60_000);
  for (const name of ['touched.txt', 'edited.txt']) await utimes(path.join(folder, name), later, later);

  const byTime = await sync('--dry-run', folder, `s3://${t.bucket}/c/`);
  expect(byTime.stdout).toMatch(/changed .*edited\.txt.*source is newer/);
  expect(byTime.stdout).toMatch(/changed .*touched\.txt.*source is newer/);

  proxy.seen.length = 0;
  const bySum = await sync('--checksum', folder, `s3://${t.bucket}/c/`);
  expect(bySum.code, bySum.stderr).toBe(0);
  expect(puts()).toEqual([`/${t.bucket}/c/edited.txt`]);
});

it('--checksum says why it fell back to size and time for a multipart object', async () => {
  const folder = path.join(t.dir, 'src');
  await randomFile(folder, 'big.bin', 6 * MIB);
  expect((await sync('--part-size', '5MiB', folder, `s3://${t.bucket}/m/`)).code).toBe(0);
  const later = new Date(Date.now() + 60_000);
  await utimes(path.join(folder, 'big.bin'), later, later);
  const dry = await sync('--dry-run', '--checksum', folder, `s3://${t.bucket}/m/`);
  expect(dry.stdout).toMatch(
    /changed .*big\.bin \(source is newer \(checksum not compared: its ETag is a multipart upload's \([0-9a-f]+-2\), not an MD5 of its bytes\)\)/,
  );
});

it('sync --delete to the top of a bucket is refused without --yes, with the rule; a dry run needs none', async () => {
  const folder = path.join(t.dir, 'src');
  await mkdir(folder);
  await writeFile(path.join(folder, 'a.txt'), 'a\n');
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'other/keep.txt', Body: 'k' }));
  const refused = await sync('--delete', folder, `s3://${t.bucket}`);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(
    `sync --delete to the top of bucket ${t.bucket} deletes every object in the bucket that ${folder} does not hold: add --yes to confirm (or look first with --dry-run).`,
  );
  expect(puts()).toEqual([]);
  const dry = await sync('--delete', '--dry-run', folder, `s3://${t.bucket}/`);
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain(`extra          1 B  s3://${t.bucket}/other/keep.txt (deleted with --delete)`);
  const confirmed = await sync('--delete', '--yes', folder, `s3://${t.bucket}/`);
  expect(confirmed.code, confirmed.stderr).toBe(0);
  expect(await keysBelow('')).toEqual(['a.txt']);
});

it('a file that cannot be read stops --delete: nothing is deleted, and each extra says why', async () => {
  const folder = path.join(t.dir, 'src');
  await mkdir(path.join(folder, 'locked'), { recursive: true });
  await writeFile(path.join(folder, 'locked', 'in.txt'), 'in\n');
  expect((await sync(folder, `s3://${t.bucket}/u/`)).code).toBe(0);
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'u/stray.txt', Body: 's' }));
  // A broken link: an entry the walk cannot read, whose object would otherwise look extra.
  await rm(path.join(folder, 'locked'), { recursive: true });
  await symlink(path.join(t.dir, 'nowhere'), path.join(folder, 'locked'));
  const run = await sync('--delete', folder, `s3://${t.bucket}/u/`);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('Not deleted: 1 source entry could not be read');
  expect(await keysBelow('u/')).toEqual(['u/locked/in.txt', 'u/stray.txt']);
});

it('--delete from a source that holds nothing (a mistyped prefix) deletes nothing, and says why', async () => {
  const target = path.join(t.dir, 'mine');
  await mkdir(path.join(target, 'deep'), { recursive: true });
  await writeFile(path.join(target, 'a.txt'), 'a\n');
  await writeFile(path.join(target, 'deep', 'b.txt'), 'b\n');
  const run = await sync('--delete', `s3://${t.bucket}/lgos/`, target);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`Not deleted: s3://${t.bucket}/lgos/ holds nothing`);
  expect(await readFile(path.join(target, 'a.txt'), 'utf8')).toBe('a\n');
  expect(await readFile(path.join(target, 'deep', 'b.txt'), 'utf8')).toBe('b\n');
});

it('an upload sync whose folder is gone fails, and deletes no object as extra', async () => {
  const folder = path.join(t.dir, 'src');
  await seedFolder(folder);
  expect((await sync(folder, `s3://${t.bucket}/gone/`)).code).toBe(0);
  await rm(folder, { recursive: true });
  // Through the engine: the command line refuses a missing folder before the job; a restored job
  // or another host does not.
  const job = t.engine.sync(t.connection, {
    direction: 'upload',
    folder,
    bucket: t.bucket,
    prefix: 'gone/',
    delete: true,
  });
  const end = await job.finished();
  expect(end.state.status).toBe('failed');
  expect(await keysBelow('gone/')).toHaveLength(FILES + 1);
});

it('an upload sync keeps the objects of links it does not follow: they are not extra', async () => {
  const folder = path.join(t.dir, 'src');
  await mkdir(path.join(folder, 'real'), { recursive: true });
  await writeFile(path.join(folder, 'real', 'r.txt'), 'r\n');
  await symlink(path.join(folder, 'real'), path.join(folder, 'linked'));
  expect((await sync(folder, `s3://${t.bucket}/links/`)).code).toBe(0);
  expect(await keysBelow('links/')).toEqual(['links/linked/r.txt', 'links/real/r.txt']);
  const job = t.engine.sync(t.connection, {
    direction: 'upload',
    folder,
    bucket: t.bucket,
    prefix: 'links/',
    delete: true,
    followSymlinks: false,
  });
  await job.finished();
  expect(await keysBelow('links/')).toEqual(['links/linked/r.txt', 'links/real/r.txt']);
});

it('an upload sync through a store that ignores flexible checksums sends only what changed, checked by the store all the same', async () => {
  const s3 = inject('s3');
  const legacy = await startLegacyStoreProxy(
    s3.endpoint,
    { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    s3.region,
  );
  try {
    const folder = path.join(t.dir, 'src');
    await seedFolder(folder);
    const env = { AWS_ENDPOINT_URL: legacy.endpoint, BARGE_DATA_DIR: dataDir };
    expect((await runCli(['sync', folder, `s3://${t.bucket}/legacy/`], { env })).code).toBe(0);
    await writeFile(path.join(folder, 'f05.txt'), 'changed through the legacy store\n');
    legacy.seen.length = 0;
    const again = await runCli(['sync', folder, `s3://${t.bucket}/legacy/`], { env });
    expect(again.code, again.stderr).toBe(0);
    const sent = legacy.seen.filter((r) => r.method === 'PUT');
    expect(sent.map((r) => r.url.split('?')[0])).toEqual([`/${t.bucket}/legacy/f05.txt`]);
    // A store that checks no CRC still checks it: by Content-MD5 or its signed SHA-256.
    expect(sent[0]!.contentMd5 || sent[0]!.sha256Signed).toBe(true);
    const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'legacy/f05.txt' }));
    expect(head.ContentLength).toBe('changed through the legacy store\n'.length);
  } finally {
    await legacy.close();
  }
});

/** The jobs a run would resume (ended ones stay, for the history). */
const UNFINISHED = "jobs WHERE dismissed = 0 AND status IN ('active', 'failed')";
const rowsOf = (table: string) => (table === 'unfinished' ? UNFINISHED : table);

/** Rows in one of the journal's tables (read-only: it is another process's), 0 while it has none. */
function journalRows(table: 'parts' | 'jobs' | 'unfinished'): number {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path.join(dataDir, 'journal.sqlite'), { readOnly: true });
    return Number((db.prepare(`SELECT count(*) AS n FROM ${rowsOf(table)}`).get() as { n: number }).n);
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}

it('a sync killed mid-way goes on when run again: what was sent is unchanged, and a big file sends only its missing parts', async () => {
  const folder = path.join(t.dir, 'src');
  const big = await randomFile(folder, 'big.bin', 6 * 5 * MIB);
  await seedFolder(folder);
  const args = ['sync', folder, `s3://${t.bucket}/r/`, '--part-size', '5MiB', '--threads', '2', '--quiet'];
  proxy.setRule(() => ({ kind: 'delay', ms: 300 }));
  const run = startCli(args, { env: cliEnv() });
  const deadline = Date.now() + 60_000;
  while (journalRows('parts') < 2) {
    if (run.child.exitCode !== null) throw new Error(`barge ended before it was killed: ${run.output.stderr}`);
    if (Date.now() > deadline) throw new Error('the journal recorded no part in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  run.child.kill('SIGKILL');
  await run.done;
  proxy.setRule(() => undefined);
  const recorded = journalRows('parts');
  expect(recorded).toBeLessThan(6);

  proxy.seen.length = 0;
  const again = await runCli(
    args.filter((arg) => arg !== '--quiet'),
    { env: cliEnv() },
  );
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toContain('Resuming the interrupted run');
  const parts = proxy.seen.filter((r) => r.method === 'PUT' && r.url.includes('partNumber='));
  expect(parts.length).toBeGreaterThan(0);
  expect(parts.length).toBeLessThanOrEqual(6 - recorded);
  const out = path.join(t.dir, 'check.bin');
  expect((await runCli(['cp', `s3://${t.bucket}/r/big.bin`, out, '--quiet'])).code).toBe(0);
  expect(await sha256File(out)).toBe(big.sha256);
  expect(await keysBelow('r/')).toHaveLength(FILES + 2);
  // Done: the journal forgets it, and a third run sends nothing.
  expect(journalRows('unfinished')).toBe(0);
  proxy.seen.length = 0;
  expect((await runCli(args, { env: cliEnv() })).code).toBe(0);
  expect(puts()).toEqual([]);
});
