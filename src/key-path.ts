// Where a downloaded object lands: the path of a key relative to the download folder.
//
// Keys are untrusted input. A key such as "../../.bashrc" or "/etc/passwd" must never write outside
// the folder the user chose, so every key is mapped to a list of safe path segments or refused.

import { unsafeCharacterIn } from './unsafe-text.ts';

export type KeyPathResult =
  | { readonly ok: true; readonly segments: readonly string[]; readonly isFolderMarker: boolean }
  | { readonly ok: false; readonly reason: string };

/** Device names Windows reserves in every folder, with any extension ("nul.txt" too). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/**
 * Map `key` below `prefix` to path segments relative to the download folder.
 *
 * `prefix` is removed from the front of the key (up to its last "/", so downloading prefix "ph"
 * keeps "photos/x.jpg" as "photos/x.jpg"). A key ending in "/" is a folder marker: a folder, not a
 * file.
 */
export function keyToRelativePath(key: string, prefix = '', platform: 'posix' | 'win32' = 'posix'): KeyPathResult {
  const base = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  if (!key.startsWith(base)) return { ok: false, reason: `does not start with the prefix "${base}"` };
  const relative = key.slice(base.length);
  const isFolderMarker = relative.endsWith('/');
  const body = isFolderMarker ? relative.slice(0, -1) : relative;
  if (body.length === 0)
    return isFolderMarker || relative === ''
      ? { ok: true, segments: [], isFolderMarker: true }
      : { ok: false, reason: 'is empty' };
  if (body.startsWith('/')) return { ok: false, reason: 'is an absolute path' };
  if (body.includes('\0')) return { ok: false, reason: 'contains a NUL character' };
  // Legal in a POSIX file name, but a hazard in every terminal and script, or a name that reads as another.
  const unsafe = unsafeCharacterIn(body);
  if (unsafe) return { ok: false, reason: `contains ${unsafe}, which is not safe in a file name` };
  if (platform === 'win32' && (body.includes('\\') || /^[a-z]:/i.test(body)))
    return { ok: false, reason: 'would be an absolute or drive path on Windows' };
  const segments = body.split('/');
  for (const segment of segments) {
    if (segment === '') return { ok: false, reason: 'contains an empty path segment ("//")' };
    if (segment === '.' || segment === '..')
      return { ok: false, reason: `contains a "${segment}" segment that would leave the target folder` };
    if (platform === 'win32') {
      const problem = windowsNameProblem(segment);
      if (problem) return { ok: false, reason: `contains "${segment}", ${problem}` };
    }
  }
  return { ok: true, segments, isFolderMarker };
}

/**
 * Why `name` cannot be the name of a file saved from a download (a name the user chose to save an
 * object as), worded to follow the name; undefined when it can be. What refuses a key's file name
 * refuses it too, and it is one name, never a path (no "/" or "\\" on either kind of machine).
 */
export function fileNameProblem(name: string, platform: 'posix' | 'win32' = 'posix'): string | undefined {
  if (/[/\\]/.test(name)) return 'is a path, not a file name';
  const mapped = keyToRelativePath(name, '', platform);
  if (!mapped.ok) return mapped.reason;
  return mapped.isFolderMarker || mapped.segments.length !== 1 ? 'is not a file name' : undefined;
}

/** Why Windows cannot hold a file or folder of this name, or undefined if it can. */
function windowsNameProblem(segment: string): string | undefined {
  if (WINDOWS_RESERVED.test(segment)) return 'a device name Windows reserves in every folder';
  const forbidden = WINDOWS_FORBIDDEN.exec(segment);
  if (forbidden) return `and Windows allows no ${forbidden[0]} in a file name`;
  if (/[. ]$/.test(segment)) return 'and Windows drops a dot or space at the end of a file name';
  return undefined;
}

/** Who has each file: a key, and the path it claimed. */
export interface OwnerStore {
  get(name: string): { readonly key: string; readonly path: string } | undefined;
  set(name: string, owner: { readonly key: string; readonly path: string }): void;
}

/**
 * The files a download writes, so that two keys never land on one file. A key whose file another
 * key already has (the very same path, or, in a folder that does not tell case apart, one that
 * differs only in case: "Photo.jpg" and "photo.jpg") is refused instead of overwriting the first.
 */
export class SavedPaths {
  private readonly owners: OwnerStore;
  private readonly caseInsensitive: boolean;

  /**
   * `caseInsensitive`: the target folder treats "A" and "a" as one name (Windows, macOS by default).
   * `owners`: where the claims are kept (default a Map; the engine gives one that spills to disk,
   * so a prefix of ten million keys does not hold them all in memory).
   */
  constructor(options: { caseInsensitive: boolean; owners?: OwnerStore }) {
    this.caseInsensitive = options.caseInsensitive;
    this.owners = options.owners ?? new Map();
  }

  /**
   * Take the file at `path` for `key`. Returns undefined when it is this key's, or why not, worded
   * to follow "The key …" (as download items give their reasons).
   */
  claim(path: string, key: string): string | undefined {
    const name = this.caseInsensitive ? path.normalize('NFC').toLowerCase() : path;
    const owner = this.owners.get(name);
    if (owner === undefined) {
      this.owners.set(name, { key, path });
      return undefined;
    }
    if (owner.key === key) return undefined;
    if (owner.path === path)
      return `would overwrite ${path}, where "${owner.key}" is saved: download them into separate folders`;
    return (
      `would overwrite ${owner.path}, where "${owner.key}" is saved, as its name ${path} differs only in case ` +
      'and this folder does not tell upper and lower case apart: download them into separate folders'
    );
  }
}
