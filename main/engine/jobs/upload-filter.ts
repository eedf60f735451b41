// Which local files an upload keeps: the object filter (src/object-filter.ts) over files as they are
// walked, so counts and totals are of the files kept.
//
// --include and --exclude see a file's path below the folder named as a source (its key below that
// folder's key: "photos/cache/x" under the source "photos" is "cache/x"), as aws-cli matches its
// globs against the source folder's contents; a file named alone is seen by its name.

import { filterBase, isFiltering, objectMatcher } from '../../../src/object-filter.ts';
import type { ObjectFilter } from '../../../src/object-filter.ts';
import type { LocalFile } from '../disk/local-files.ts';

/** The test of each walked file, or undefined when the filter keeps everything. */
export function uploadFilter(
  filter: ObjectFilter | undefined,
  sourceKeys: readonly string[],
): ((file: LocalFile) => boolean) | undefined {
  if (!isFiltering(filter)) return undefined;
  const matchers = new Map<string, ReturnType<typeof objectMatcher>>();
  return (file) => {
    const folder = sourceKeys.find((key) => file.key.startsWith(`${key}/`));
    const base = folder === undefined ? filterBase(file.key) : `${folder}/`;
    let matches = matchers.get(base);
    if (!matches) {
      matches = objectMatcher(filter, base);
      matchers.set(base, matches);
    }
    return matches({ key: file.key, size: file.size, lastModified: file.mtimeMs, storageClass: undefined });
  };
}
