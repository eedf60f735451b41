import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { WALK_BATCH, walkInKeyOrder } from '../../../../../main/engine/disk/ordered-walk.ts';
import { walkSources } from '../../../../../main/engine/disk/local-files.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-ordered-walk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function keys(walk: AsyncIterable<{ key: string; ok: boolean }>): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of walk) found.push(entry.ok ? entry.key : `!${entry.key}`);
  return found;
}

/** The walk's batches, one entry at a time. */
async function* entries<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

it('walks a folder in the order S3 lists its keys, which the upload walk does not', async () => {
  for (const name of ['b/x', 'a/z', 'a.txt', 'a-b', 'a/y/q', 'Z', '\u{1F600}', '\uFFFD'])
    await mkdir(path.dirname(path.join(dir, 'f', name)), { recursive: true }).then(() =>
      writeFile(path.join(dir, 'f', name), name),
    );
  const ordered = await keys(entries(walkInKeyOrder(path.join(dir, 'f'), 'p/')));
  expect(ordered).toEqual(['p/Z', 'p/a-b', 'p/a.txt', 'p/a/y/q', 'p/a/z', 'p/b/x', 'p/\uFFFD', 'p/\u{1F600}']);
  // The upload's walk puts a folder's files before its subfolders: not the listing's order.
  expect(await keys(walkSources([path.join(dir, 'f')], 'p/'))).not.toEqual(ordered.map((k) => k.replace('p/', 'p/f/')));
});

it('a missing folder holds nothing only where asked (a destination); a broken link is an entry that could not be read, in its place', async () => {
  expect(await keys(entries(walkInKeyOrder(path.join(dir, 'missing'), '', { missingIsEmpty: true })))).toEqual([]);
  // A source gone (an unmounted disk) is no empty source: with --delete, everything would look extra.
  await expect(keys(entries(walkInKeyOrder(path.join(dir, 'missing'), '')))).rejects.toMatchObject({
    code: 'NotAFolder',
  });
  await mkdir(path.join(dir, 'g'));
  await writeFile(path.join(dir, 'g', 'a'), 'a');
  await symlink(path.join(dir, 'nowhere'), path.join(dir, 'g', 'b'));
  await writeFile(path.join(dir, 'g', 'c'), 'c');
  expect(await keys(entries(walkInKeyOrder(path.join(dir, 'g'), '')))).toEqual(['a', '!b', 'c']);
});

it('hands its entries on in batches of at most WALK_BATCH, across subfolders, every file once in order', async () => {
  const count = WALK_BATCH * 2 + 10;
  await mkdir(path.join(dir, 'f', 'sub'), { recursive: true });
  for (let i = 0; i < count; i++)
    await writeFile(path.join(dir, 'f', i % 2 ? 'sub' : '', `n${String(i).padStart(4, '0')}`), '');
  const sizes: number[] = [];
  const seen: string[] = [];
  for await (const batch of walkInKeyOrder(path.join(dir, 'f'), '')) {
    sizes.push(batch.length);
    seen.push(...batch.map((entry) => entry.key));
  }
  expect(Math.max(...sizes)).toBe(WALK_BATCH);
  expect(seen).toHaveLength(count);
  expect(seen).toEqual([...seen].sort());
});

it('orders names below U+D800 (accents, Greek, CJK) as their UTF-8 bytes, as with any name above', async () => {
  const names = ['é', 'e', 'ä', 'z', 'Ω', '~', '中', 'Z', 'a b'];
  await mkdir(path.join(dir, 'h'));
  for (const name of names) await writeFile(path.join(dir, 'h', name), '');
  const byBytes = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  expect(await keys(entries(walkInKeyOrder(path.join(dir, 'h'), '')))).toEqual(byBytes);
});

it('keeps a name that begins with U+FEFF whole, in the upload walk as in the sync walk', async () => {
  // A decoder that takes U+FEFF for a byte-order mark drops it: "\uFEFFa.txt" would be read as "a.txt",
  // another file (uploaded twice, the first never) or none (its read failing).
  await mkdir(path.join(dir, 'f'));
  await writeFile(path.join(dir, 'f', '\uFEFFa.txt'), 'marked');
  await writeFile(path.join(dir, 'f', 'a.txt'), 'plain');
  await writeFile(path.join(dir, 'f', '\uFEFFonly.txt'), 'only');
  const uploaded = (await keys(walkSources([path.join(dir, 'f')], ''))).sort();
  expect(uploaded).toEqual(['f/a.txt', 'f/\uFEFFa.txt', 'f/\uFEFFonly.txt']);
  const synced = await keys(entries(walkInKeyOrder(path.join(dir, 'f'), 'f/')));
  expect(synced).toEqual(['f/a.txt', 'f/\uFEFFa.txt', 'f/\uFEFFonly.txt']);
});
