// Where a copy or move puts each object, and the copies that would change nothing.
//
// A destination ending in "/" (or "" for the bucket's top) is a folder: a key goes in it under its
// own name, a prefix with its folder name and everything below it (as a folder dragged onto another
// does). A destination without the "/" is a new name: for one key its exact key, for one prefix the
// folder it becomes (a rename: "photos/" to "pictures" makes "pictures/…"). A wildcard's matches go in
// a folder by their key below the pattern's folder ("logs/*.gz" to "old/": logs/2024/a.gz becomes
// old/2024/a.gz), as s5cmd puts them. Pure: the engine, the command line and the window's rename
// preview all map keys with it.

import { filterBase, globMatches, globMayMatchBelow } from './object-filter.ts';
import { asFolderPrefix, keyBaseName } from './s3-url.ts';

export interface CopyPlaces {
  readonly sourceBucket: string;
  readonly keys?: readonly string[];
  readonly prefixes?: readonly string[];
  /** S3-URL wildcard keys ("logs/*.gz", src/object-filter.ts), each matching any number of objects. */
  readonly patterns?: readonly string[];
  readonly bucket: string;
  readonly destination: string;
}

export function isFolderDestination(destination: string): boolean {
  return destination === '' || destination.endsWith('/');
}

/** The key `key` (listed below `prefix`, or named itself when `prefix` is undefined) is copied to. */
export function copyTargetKey(spec: CopyPlaces, key: string, prefix?: string): string {
  if (prefix === undefined)
    return isFolderDestination(spec.destination) ? spec.destination + keyBaseName(key) : spec.destination;
  const folder = asFolderPrefix(prefix);
  const rest = key.slice(folder.length);
  if (!isFolderDestination(spec.destination)) return `${spec.destination}/${rest}`;
  // The bucket's top copied into a folder: its keys go below the folder as they are.
  return folder === '' ? spec.destination + rest : `${spec.destination}${keyBaseName(folder)}/${rest}`;
}

/** The key an object `pattern` matched is copied to: below the destination folder, by its key below the pattern's. */
export function patternTargetKey(spec: CopyPlaces, key: string, pattern: string): string {
  return spec.destination + key.slice(filterBase(pattern).length);
}

/**
 * Why these places cannot be a copy (or a move) at all, in words a person can act on; undefined
 * when they can. A new name is for one key or one prefix; a copy onto itself changes nothing (and a
 * move onto itself would delete what it copied); a folder copied into itself would copy its copies.
 * `sameStore` false: the source and the destination are in two stores (two connections).
 */
export function copyPlacesProblem(spec: CopyPlaces, verb: 'copy' | 'move', sameStore = true): string | undefined {
  const keys = spec.keys ?? [];
  const prefixes = spec.prefixes ?? [];
  const patterns = spec.patterns ?? [];
  const named = keys.length + prefixes.length + patterns.length;
  if (named === 0) return `Nothing to ${verb}: name an object or a folder.`;
  if (!isFolderDestination(spec.destination) && patterns.length > 0)
    return (
      `To ${verb} what s3://${spec.sourceBucket}/${patterns[0]} matches, the destination must be a folder: ` +
      'end it with "/".'
    );
  if (!isFolderDestination(spec.destination) && named > 1)
    return `To ${verb} more than one object or folder, the destination must be a folder: end it with "/".`;
  // Between two stores, a bucket of one name is two buckets.
  if (!sameStore || spec.bucket !== spec.sourceBucket) return undefined;
  for (const key of keys) {
    if (copyTargetKey(spec, key) === key) return ontoItself(verb, `s3://${spec.bucket}/${key}`);
  }
  for (const prefix of prefixes) {
    const folder = asFolderPrefix(prefix);
    const target = asFolderPrefix(copyTargetKey(spec, `${folder}x`, prefix).slice(0, -1));
    if (target === folder) return ontoItself(verb, `s3://${spec.bucket}/${folder}`);
    if (target.startsWith(folder))
      return (
        `Cannot ${verb} s3://${spec.bucket}/${folder} into itself (to s3://${spec.bucket}/${target}): ` +
        `choose a destination outside it.`
      );
  }
  for (const pattern of patterns) {
    const matched = `what s3://${spec.bucket}/${pattern} matches`;
    // Every match would land on its own key.
    if (spec.destination === filterBase(pattern))
      return verb === 'move'
        ? `Cannot move ${matched} onto itself: each match would land on its own key. Give another destination.`
        : `Copying ${matched} onto itself would change nothing: give another destination.`;
    // A copy in a folder the pattern reaches would be matched again, and copied once more.
    if (globMayMatchBelow(pattern, spec.destination))
      return (
        `Cannot ${verb} ${matched} into s3://${spec.bucket}/${spec.destination}: the pattern matches keys there ` +
        'too, so its copies would be copied again. Choose a destination the pattern does not reach.'
      );
  }
  return overrunSource(spec, verb);
}

/**
 * Why one source's copies may land on another source of the same job (`mv -r E/x D/x/y D/`: E/x/y/z
 * goes to D/x/y/z), or undefined. That source could then be replaced before it is read, and a move
 * would delete the replacement: what either held is lost. A folder's or a pattern's copies land in
 * the destination folder, so only a named key or a folder lying there can be overrun.
 */
function overrunSource(spec: CopyPlaces, verb: 'copy' | 'move'): string | undefined {
  const destination = spec.destination;
  const landings = [
    ...(spec.prefixes ?? []).map((prefix) => {
      const folder = asFolderPrefix(prefix);
      // Where its copies go: the destination folder's folder of its name (or the destination, for the top).
      const area = asFolderPrefix(copyTargetKey(spec, `${folder}x`, prefix).slice(0, -1));
      return {
        source: folder,
        reaches: (key: string) => key.startsWith(area),
        reachesFolder: (other: string) => other !== folder && (other.startsWith(area) || area.startsWith(other)),
      };
    }),
    ...(spec.patterns ?? []).map((pattern) => {
      // A copy of `key` lands at destination + its key below the pattern's folder (patternTargetKey).
      const below = (key: string) => filterBase(pattern) + key.slice(destination.length);
      return {
        source: pattern,
        reaches: (key: string) => key.startsWith(destination) && globMatches(pattern, below(key)),
        reachesFolder: (other: string) =>
          other.startsWith(destination) ? globMayMatchBelow(pattern, below(other)) : destination.startsWith(other),
      };
    }),
  ];
  const victims = [
    ...(spec.keys ?? []).map((key) => ({ named: key, hit: (l: (typeof landings)[number]) => l.reaches(key) })),
    ...(spec.prefixes ?? []).map((prefix) => {
      const folder = asFolderPrefix(prefix);
      return { named: folder, hit: (l: (typeof landings)[number]) => l.reachesFolder(folder) };
    }),
  ];
  for (const victim of victims) {
    const landing = landings.find((l) => victim.hit(l));
    if (landing === undefined) continue;
    const at = (name: string) => `s3://${spec.bucket}/${name}`;
    return (
      `Cannot ${verb} ${at(landing.source)} and ${at(victim.named)} in one run: a copy from the first could ` +
      `land on the second before it is ${verb === 'move' ? 'moved' : 'copied'}, replacing it. ` +
      `${verb === 'move' ? 'Move' : 'Copy'} them one at a time.`
    );
  }
  return undefined;
}

function ontoItself(verb: 'copy' | 'move', place: string): string {
  return verb === 'move'
    ? `Cannot move ${place} onto itself: the source and the destination are the same object. Give another destination.`
    : `Copying ${place} onto itself would change nothing: give another destination.`;
}
