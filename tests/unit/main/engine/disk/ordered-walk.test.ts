import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { walkInKeyOrder } from '../../../../../main/engine/disk/ordered-walk.ts';
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

it('walks a folder in the order S3 lists its keys, which the upload walk does not', async () => {
  for (const name of ['b/x', 'a/z', 'a.txt', 'a-b', 'a/y/q', 'Z', '\u{1F600}', '\uFFFD'])
    await mkdir(path.dirname(path.join(dir, 'f', name)), { recursive: true }).then(() =>
      writeFile(path.join(dir, 'f', name), name),
    );
  const ordered = await keys(walkInKeyOrder(path.join(dir, 'f'), 'p/'));
  expect(ordered).toEqual(['p/Z', 'p/a-b', 'p/a.txt', 'p/a/y/q', 'p/a/z', 'p/b/x', 'p/\uFFFD', 'p/\u{1F600}']);
  // The upload's walk puts a folder's files before its subfolders: not the listing's order.
  expect(await keys(walkSources([path.join(dir, 'f')], 'p/'))).not.toEqual(ordered.map((k) => k.replace('p/', 'p/f/')));
});

it('a missing folder holds nothing only where asked (a destination); a broken link is an entry that could not be read, in its place', async () => {
  expect(await keys(walkInKeyOrder(path.join(dir, 'missing'), '', { missingIsEmpty: true }))).toEqual([]);
  // A source gone (an unmounted disk) is no empty source: with --delete, everything would look extra.
  await expect(keys(walkInKeyOrder(path.join(dir, 'missing'), ''))).rejects.toMatchObject({ code: 'NotAFolder' });
  await mkdir(path.join(dir, 'g'));
  await writeFile(path.join(dir, 'g', 'a'), 'a');
  await symlink(path.join(dir, 'nowhere'), path.join(dir, 'g', 'b'));
  await writeFile(path.join(dir, 'g', 'c'), 'c');
  expect(await keys(walkInKeyOrder(path.join(dir, 'g'), ''))).toEqual(['a', '!b', 'c']);
});
