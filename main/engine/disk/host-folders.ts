// The host's folders, for a folder picker in a window that cannot open a native one (a browser
// talking to the web host): the names of one folder's subfolders, and nothing else.
//
// Only names are read, never a file's contents or even a file's name. Where the host confines
// downloads (--download-root), listings are confined the same way and checked the same way as a
// download's folder (confined-path.ts): the path asked for must lie below the root, and so must its
// real path, so a symbolic link below the root that leads elsewhere is neither listed into nor shown.
// A new folder is made only in a folder that could be listed, so it is confined the same way.

import { mkdir, opendir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FolderListing } from '../../../src/contract/models.ts';
import { MAX_NAME_BYTES, utf8Bytes } from '../../../src/file-name-bytes.ts';
import { relativePathProblem } from '../../../src/local-path.ts';
import { printable, unsafeCharacterIn } from '../../../src/unsafe-text.ts';
import { BargeError, toBargeError } from '../errors.ts';
import { isInside } from './confined-path.ts';

/** Subfolders named at most: a picker shows a list a person can read, not a million rows. */
export const MAX_LISTED_FOLDERS = 2000;
/** Entries looked at at most (files are passed over, not named): a huge folder answers quickly all the same. */
const MAX_SCANNED_ENTRIES = 100_000;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export interface FolderListingOptions {
  /** The host's download root: nothing above or beside it is listed. */
  readonly root?: string;
  /** The folder listed when none is asked for (the root, where there is one). */
  readonly start: string;
  readonly limit?: number;
}

/**
 * The subfolders of `asked` (whole path; `undefined`: the start folder), sorted by name. Folders whose
 * names begin with "." are left out, as a file manager does. Throws RelativePath, OutsideDownloadRoot,
 * NoSuchFolder or NotAFolder, each in words.
 */
export async function listHostFolders(
  asked: string | undefined,
  options: FolderListingOptions,
): Promise<FolderListing> {
  const root = options.root === undefined ? undefined : path.resolve(options.root);
  const wanted = asked ?? root ?? options.start;
  if (!path.isAbsolute(wanted)) throw new BargeError('RelativePath', relativePathProblem(wanted));
  // "..": resolved before anything is compared, so "<root>/../etc" is "/etc", and refused.
  const folder = path.resolve(wanted);
  const outside = () =>
    new BargeError(
      'OutsideDownloadRoot',
      `Folders on this host are shown only below ${root}, where downloads go; ${wanted} is not (start the host ` +
        `with --download-root to choose another folder).`,
    );
  if (root !== undefined && !isInside(root, folder)) throw outside();
  // The root is made when first shown, as a download would make it: an empty root is a place to start.
  if (root !== undefined) await mkdir(root, { recursive: true, mode: 0o700 });
  const realRoot = root === undefined ? undefined : await realpath(root);
  const real = await realpath(folder).catch(async (error: unknown) => {
    // A missing folder is said to be missing only where it would be inside the root: through a
    // link that leads out, "no such folder" against "outside" would tell which files exist there.
    if (realRoot !== undefined && !(await deepestExistingInside(folder, realRoot))) throw outside();
    throw folderError(error, folder);
  });
  if (realRoot !== undefined && !isInside(realRoot, real)) throw outside();
  if (!(await stat(real)).isDirectory()) throw new BargeError('NotAFolder', `${folder} is a file, not a folder.`);

  const limit = options.limit ?? MAX_LISTED_FOLDERS;
  const folders: string[] = [];
  let scanned = 0;
  let truncated = false;
  const entries = await opendir(real).catch((error: unknown) => {
    throw folderError(error, folder);
  });
  for await (const entry of entries) {
    if (++scanned > MAX_SCANNED_ENTRIES || folders.length === limit) {
      truncated = true;
      break;
    }
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) folders.push(entry.name);
    else if (entry.isSymbolicLink() && (await linkedFolderInside(path.join(real, entry.name), realRoot)))
      folders.push(entry.name);
  }
  // (Leaving the loop, early or not, closes the directory.)
  folders.sort(collator.compare);
  const atTop = root !== undefined ? folder === root : path.dirname(folder) === folder;
  return { path: folder, parent: atTop ? undefined : path.dirname(folder), folders, truncated };
}

/**
 * A new folder `name` in `parent` (a picker's New folder), then its listing (empty), for the picker
 * to open. Throws what listing `parent` throws, InvalidFolderName (in words) or FolderExists.
 */
export async function makeHostFolder(
  parent: string,
  name: string,
  options: FolderListingOptions,
): Promise<FolderListing> {
  const problem = folderNameProblem(name);
  if (problem) throw new BargeError('InvalidFolderName', problem);
  const listing = await listHostFolders(parent, options);
  const made = path.join(listing.path, name);
  await mkdir(made).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new BargeError(
        'FolderExists',
        `${printable(name)} is already there in ${listing.path}: choose another name, or open it.`,
      );
    throw toBargeError(error, `make the folder ${made}`);
  });
  return listHostFolders(made, options);
}

/** Why `name` cannot name a new folder, in words, or undefined. */
function folderNameProblem(name: string): string | undefined {
  const shown = printable(name);
  if (name.trim() === '') return 'Give the new folder a name.';
  if (name === '.' || name === '..') return `"${name}" cannot name a folder: it means this folder or the one above it.`;
  if (/[\\/]/.test(name))
    return `"${shown}" cannot name a folder: a name has no / or \\ in it (make one folder at a time).`;
  const unsafe = unsafeCharacterIn(name);
  if (unsafe !== undefined) return `"${shown}" cannot name a folder: it holds ${unsafe}.`;
  if (utf8Bytes(name) > MAX_NAME_BYTES)
    return (
      `That name is ${utf8Bytes(name).toLocaleString('en-US')} bytes long: a folder's name holds at most ` +
      `${MAX_NAME_BYTES} bytes.`
    );
  if (name.startsWith('.'))
    return (
      `"${shown}" begins with a dot: such folders are hidden, and this picker does not show them. Choose ` +
      `a name without one.`
    );
  return undefined;
}

/** Whether the deepest part of `folder` that exists really lies below `realRoot` (links followed). */
async function deepestExistingInside(folder: string, realRoot: string): Promise<boolean> {
  for (let at = path.dirname(folder); ; at = path.dirname(at)) {
    const real = await realpath(at).catch(() => undefined);
    if (real !== undefined) return isInside(realRoot, real);
    if (path.dirname(at) === at) return false;
  }
}

/** Whether a link leads to a folder, and (with a root) to one really below the root. */
async function linkedFolderInside(link: string, realRoot: string | undefined): Promise<boolean> {
  try {
    const target = await realpath(link);
    if (realRoot !== undefined && !isInside(realRoot, target)) return false;
    return (await stat(target)).isDirectory();
  } catch {
    // A broken link, or one that cannot be followed: not a folder to go into.
    return false;
  }
}

function folderError(error: unknown, folder: string): BargeError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new BargeError('NoSuchFolder', `There is no folder ${folder}.`);
  if (code === 'ENOTDIR') return new BargeError('NotAFolder', `${folder} is a file, not a folder.`);
  return toBargeError(error, `list the folders in ${folder}`);
}
