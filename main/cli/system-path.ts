// A local path given on the command line, made absolute as the system reads it.
//
// path.resolve reads ".." as text: "a/link/.." is "a" to it, but to the system (and to the shell
// that completed it) the parent of the folder the link leads to. A sync named the first and
// compared, and with --delete emptied, another folder than the one named. So everything up to the
// last ".." is resolved by the system (realpath); what follows is joined as given, a link at the end
// kept a link (an upload of `photos-link` is named photos-link, not what it leads to).

import { realpath } from 'node:fs/promises';
import path from 'node:path';

export async function systemPath(given: string): Promise<string> {
  const parts = given.split(path.sep === '\\' ? /[\\/]/ : '/');
  const last = parts.lastIndexOf('..');
  if (last < 0) return path.resolve(given);
  const upTo = parts.slice(0, last + 1).join(path.sep);
  try {
    const base = await realpath(path.isAbsolute(upTo) ? upTo : `${process.cwd()}${path.sep}${upTo}`);
    return path.resolve(base, ...parts.slice(last + 1));
  } catch {
    // Not there (yet): nothing on the way is a link the system would follow.
    return path.resolve(given);
  }
}
