// Where a downloaded object lands: the path of a key relative to the download folder.
//
// Keys are untrusted input. A key such as "../../.bashrc" or "/etc/passwd" must never write outside
// the folder the user chose, so every key is mapped to a list of safe path segments or refused.

export type KeyPathResult =
  | { readonly ok: true; readonly segments: readonly string[]; readonly isFolderMarker: boolean }
  | { readonly ok: false; readonly reason: string };

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

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
  if (body.length === 0) return isFolderMarker || relative === '' ? { ok: true, segments: [], isFolderMarker: true } : { ok: false, reason: 'is empty' };
  if (body.startsWith('/')) return { ok: false, reason: 'is an absolute path' };
  if (body.includes('\0')) return { ok: false, reason: 'contains a NUL character' };
  if (platform === 'win32' && (body.includes('\\') || /^[a-z]:/i.test(body))) return { ok: false, reason: 'would be an absolute or drive path on Windows' };
  const segments = body.split('/');
  for (const segment of segments) {
    if (segment === '') return { ok: false, reason: 'contains an empty path segment ("//")' };
    if (segment === '.' || segment === '..') return { ok: false, reason: `contains a "${segment}" segment that would leave the target folder` };
    if (platform === 'win32' && (WINDOWS_RESERVED.test(segment) || /[<>:"|?*\x00-\x1f]/.test(segment) || /[. ]$/.test(segment))) {
      return { ok: false, reason: `contains "${segment}", which is not a valid file name on Windows` };
    }
  }
  return { ok: true, segments, isFolderMarker };
}
