// What a job is called: after what it moves, as a person would say it.
//
// One file is its name ("report.pdf"), one folder its name ("photos"), more are counted by kind
// ("3 files and 1 folder"). Pure: the engine names its jobs with it, the service names staged
// uploads after the dropped entries, and both say the same.

import { plural } from './plural.ts';

export interface LabelledItem {
  /** A path, a key or a prefix: the last part is the name. */
  readonly name: string;
  readonly folder: boolean;
}

/** The last part of a path, key or prefix ("a/b/" -> "b", "C:\\x\\y.txt" -> "y.txt"). */
export function lastName(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '');
  const parts = trimmed.split(/[/\\]/);
  return parts[parts.length - 1] || trimmed || path;
}

export function jobLabel(items: readonly LabelledItem[]): string {
  if (items.length === 1) return lastName(items[0]!.name);
  const folders = items.filter((item) => item.folder).length;
  const files = items.length - folders;
  if (items.length === 0) return 'nothing';
  if (folders === 0) return plural(files, 'file');
  if (files === 0) return plural(folders, 'folder');
  return `${plural(files, 'file')} and ${plural(folders, 'folder')}`;
}

/**
 * The folder a job changes, as its listing shows it: the common parent of its keys and prefixes
 * ("photos/a.jpg" and "photos/2024/" -> "photos/"; "" at the bucket's top).
 */
export function commonParent(keys: readonly string[]): string {
  const parents = keys.map((key) => {
    const trimmed = key.endsWith('/') ? key.slice(0, -1) : key;
    const cut = trimmed.lastIndexOf('/');
    return cut < 0 ? '' : trimmed.slice(0, cut + 1);
  });
  if (parents.length === 0) return '';
  let common = parents[0]!;
  for (const parent of parents.slice(1)) {
    let i = 0;
    while (i < common.length && i < parent.length && common[i] === parent[i]) i += 1;
    common = common.slice(0, i);
  }
  return common.slice(0, common.lastIndexOf('/') + 1);
}
