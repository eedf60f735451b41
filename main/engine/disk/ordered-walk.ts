// A folder's files in the order S3 lists keys: for a sync, which reads a folder beside a listing.
//
// A sync compares a folder and a prefix side by side, each in key order, so neither is held whole:
// a million files cost one folder's names at a time, not a map of all of them. Keys are UTF-8 byte
// order, where "a.txt" comes before "a/b" ("." is below "/"): so a folder's entries are sorted by
// their names as keys, a subfolder as "name/", and a subfolder is walked where its name falls.
// Entries are what `walkPath` gives (local-files.ts): files, what could not be read, what is skipped.

import { readdir, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { compareUtf8 } from '../../../src/key-order.ts';
import { BargeError } from '../errors.ts';
import { brokenLinkOr, entryKind, escapedBytes, fileEntry, folderIdentity } from './local-files.ts';
import type { WalkEntry } from './local-files.ts';

/** One name in a folder, placed by its key ("name", or "name/" for a folder). */
interface Named {
  readonly sortKey: string;
  readonly name: string;
  readonly full: string;
  /** A folder to walk where its name falls (its identity, to refuse a link back into itself). */
  readonly folder?: string;
  /** Not a file: said where it falls, as `walkPath` says it. */
  readonly entry?: WalkEntry;
}

/**
 * Every file below `folder`, keyed `keyPrefix` + its path with "/", in S3's key order, in batches
 * of up to WALK_BATCH entries (a sync reads them a batch at a time: sync-plan.ts). Symbolic links
 * are followed (to files, and to folders with loops refused) unless `followSymlinks` is false. A
 * folder that does not exist yet gives nothing where `missingIsEmpty` (a sync into a new folder);
 * else it fails: a source gone is no empty source.
 */
export async function* walkInKeyOrder(
  folder: string,
  keyPrefix: string,
  options: { readonly followSymlinks?: boolean; readonly missingIsEmpty?: boolean } = {},
): AsyncGenerator<WalkEntry[]> {
  const info = await stat(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' && options.missingIsEmpty) return undefined;
    if (error.code === 'ENOENT')
      throw new BargeError('NotAFolder', `${folder} does not exist: a sync compares a folder with a prefix.`);
    throw error;
  });
  if (!info) return;
  if (!info.isDirectory())
    throw new BargeError('NotAFolder', `${folder} is not a folder: a sync compares a folder with a prefix.`);
  const batch: WalkEntry[] = [];
  // Normalized once, as path.join would each name: a file's path is then its folder's and its name.
  const root = path.normalize(folder);
  yield* walkFolder(root, keyPrefix, options.followSymlinks ?? true, [folderIdentity(info)], batch);
  if (batch.length > 0) yield batch.splice(0);
}

/**
 * Entries a batch holds at most. Files are stat-ed on the loop (a stat through the thread pool cost
 * it about 60 µs each on two busy cores, its queueing, wake-up and promise; made here, a few µs),
 * a batch of them at a time; then the loop is let go, so the listing's answers wait for no more.
 */
export const WALK_BATCH = 256;

async function* walkFolder(
  folder: string,
  keyPrefix: string,
  followSymlinks: boolean,
  ancestors: readonly string[],
  batch: WalkEntry[],
): AsyncGenerator<WalkEntry[]> {
  let names: Named[];
  try {
    names = await readNames(folder, keyPrefix, followSymlinks, ancestors);
  } catch (error) {
    batch.push({ ok: false, path: folder, key: keyPrefix, error });
    return;
  }
  sortByKey(names);
  for (const named of names) {
    if (batch.length >= WALK_BATCH) {
      yield batch.splice(0);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (named.entry) {
      batch.push(named.entry);
    } else if (named.folder !== undefined) {
      yield* walkFolder(named.full, keyPrefix + named.sortKey, followSymlinks, [...ancestors, named.folder], batch);
    } else {
      let info: Stats;
      try {
        info = statSync(named.full);
      } catch (caught) {
        const error = await brokenLinkOr(named.full, caught);
        batch.push({ ok: false, path: named.full, key: keyPrefix + named.name, error });
        continue;
      }
      if (info.isDirectory()) {
        // Replaced by a folder since it was read: walked at the file's place, still in order below it.
        yield* walkFolder(named.full, `${keyPrefix}${named.name}/`, followSymlinks, ancestors, batch);
      } else {
        batch.push(fileEntry(named.full, keyPrefix + named.name, info));
      }
    }
  }
}

/** A folder's names, each as a file, a folder to walk, or an entry said at once. */
async function readNames(
  folder: string,
  keyPrefix: string,
  followSymlinks: boolean,
  ancestors: readonly string[],
): Promise<Named[]> {
  const names: Named[] = [];
  // One read of the whole folder (not a Dir's 32 entries a round trip to the thread pool), names as
  // bytes: one that is not UTF-8 is named, never decoded lossily into a name that does not exist.
  const dirents = (await readdir(folder, { withFileTypes: true, encoding: 'buffer' })) as unknown as Dirent[];
  const base = folder.endsWith(path.sep) ? folder : folder + path.sep;
  for (const dirent of dirents) {
    const raw = dirent.name as unknown as Buffer;
    if (!isUtf8(raw)) {
      const shown = path.join(folder, escapedBytes(raw));
      const key = keyPrefix + escapedBytes(raw);
      const error = new BargeError(
        'InvalidFileName',
        `${shown}: its name is not valid UTF-8, and S3 keys must be; it was not synced. Rename it (the bytes ` +
          `that are not UTF-8 are shown as \\xNN).`,
      );
      names.push({
        sortKey: escapedBytes(raw),
        name: shown,
        full: shown,
        entry: { ok: false, path: shown, key, error },
      });
      continue;
    }
    const name = raw.toString('utf8');
    const full = base + name;
    // A plain file needs no more looking at here (most of a folder): no promise for each.
    if (dirent.isFile()) {
      names.push({ sortKey: name, name, full });
      continue;
    }
    const found = await entryKind(dirent, full, keyPrefix + name, followSymlinks, ancestors);
    if (found.kind === 'file') names.push({ sortKey: name, name, full });
    else if (found.kind === 'folder') names.push({ sortKey: `${name}/`, name, full, folder: found.identity });
    // A folder's entry sorts as the folder would ("name/"), a file's or anything else's as its name.
    else names.push({ sortKey: found.entry.key.endsWith('/') ? `${name}/` : name, name, full, entry: found.entry });
  }
  return names;
}

/**
 * Names in S3's key order. Below U+D800 a string's own order (UTF-16 units, compared natively) is
 * UTF-8's; only a name with a character from U+D800 up needs compareUtf8, a loop in JavaScript
 * (a third of a 20,000-file folder's sort).
 */
function sortByKey(names: Named[]): void {
  const native = names.every((named) => !HIGH_UNITS.test(named.sortKey));
  names.sort(
    native
      ? (a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0)
      : (a, b) => compareUtf8(a.sortKey, b.sortKey),
  );
}

/** UTF-16 units whose order differs from their UTF-8 bytes' (surrogates, and U+E000 up that they sort below). */
const HIGH_UNITS = /[\uD800-\uFFFF]/;
