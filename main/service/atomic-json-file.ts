// A JSON file written whole or not at all, readable by its owner only.
//
// The value goes to a temporary name beside the file and is renamed over it, so a crash mid-write
// leaves the old file, never half of a new one. The mode is 0600 (connections and secrets are the
// user's alone) and set again with chmod: `writeFile`'s mode applies only when it creates the file,
// not to a temporary file an earlier crash left behind. The folder is created 0700 if missing.

import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

const OWNER_ONLY_FILE_MODE = 0o600;
const OWNER_ONLY_FOLDER_MODE = 0o700;

/** Write `value` as JSON to `file`, atomically; `indent` as in JSON.stringify (none: one line). */
export async function writeJsonFileAtomically(
  file: string,
  value: unknown,
  options: { indent?: number } = {},
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: OWNER_ONLY_FOLDER_MODE });
  const temporary = `${file}.tmp`;
  await writeFile(temporary, JSON.stringify(value, null, options.indent), { mode: OWNER_ONLY_FILE_MODE });
  await chmod(temporary, OWNER_ONLY_FILE_MODE);
  await rename(temporary, file);
}
