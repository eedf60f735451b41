// What a new folder or a new name in a bucket may be: one name, no "/", and a key S3 takes.
//
// The window checks these as the user types and the engine checks them again at the door, so a name
// is refused in the same words wherever it comes from (the window, the web host, `barge mkdir`).

import { keyBytesProblem } from './s3-names.ts';
import { printable, unsafeCharacterIn } from './unsafe-text.ts';

/** The key of the marker object of folder `name` made in `prefix` ("" or a prefix ending in "/"). */
export function folderMarkerKey(prefix: string, name: string): string {
  return `${prefix}${name}/`;
}

/** Why `name` cannot be one name in a bucket (`what`: "a folder", "an object"), in words, or undefined. */
function oneNameProblem(name: string, what: string): string | undefined {
  const shown = printable(name);
  if (name.trim() === '') return `Give ${what} a name.`;
  if (name.includes('/'))
    return `"${shown}" cannot name ${what}: a name has no "/" in it (it would make folders of its own).`;
  if (name === '.' || name === '..')
    return `"${name}" cannot name ${what}: it means this folder or the one above it to most tools.`;
  const unsafe = unsafeCharacterIn(name);
  if (unsafe !== undefined) return `"${shown}" cannot name ${what}: it holds ${unsafe}.`;
  return undefined;
}

/**
 * Why `prefix` ("" or ending in "/") has an empty folder name in it ("a//b/", "/a/"), or undefined.
 * Stores differ on such keys (versitygw stores "a//b/" as "a/b/"): a folder made there would not be
 * where it was said to be.
 */
function emptySegmentProblem(prefix: string): string | undefined {
  if (prefix === '' || !prefix.slice(0, -1).split('/').includes('')) return undefined;
  return (
    `"${printable(prefix)}" has an empty folder name in it ("//" or a leading "/"): ` +
    'some stores keep it and others fold it into one "/". Remove the extra "/".'
  );
}

/** Why `name` cannot be a new folder in `prefix`, or undefined. */
export function newFolderNameProblem(prefix: string, name: string): string | undefined {
  const problem = oneNameProblem(name, 'a folder') ?? emptySegmentProblem(prefix);
  if (problem) return problem;
  const tooLong = keyBytesProblem(folderMarkerKey(prefix, name));
  return tooLong ? `The folder's key ${tooLong}: choose a shorter name.` : undefined;
}

/**
 * Why `to` cannot be the new name of the object or folder named `from` in `prefix`, or undefined.
 * `folder`: the key it becomes then ends in "/".
 */
export function renameProblem(prefix: string, from: string, to: string, folder: boolean): string | undefined {
  const problem = oneNameProblem(to, folder ? 'a folder' : 'an object');
  if (problem) return problem;
  if (to === from) return `"${printable(to)}" is the name it has: give another name.`;
  const tooLong = keyBytesProblem(`${prefix}${to}${folder ? '/' : ''}`);
  return tooLong ? `The new key ${tooLong}: choose a shorter name.` : undefined;
}
