// One temporary folder for a test run: every suite's temporary folders (os.tmpdir() reads TMPDIR)
// go below it, and it is removed when the run ends. Suites that made folders of their own and left
// them behind once filled a disk: a full run left thousands (gigabytes of random test files).

import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Points TMPDIR at a new folder (for this process and the test workers it starts); returns its removal. */
export async function useRunTempFolder(name: string): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(os.tmpdir(), `barge-run-${name}-`));
  // As the temporary folder itself (sticky, open to all): some tests run the CLI as another user.
  await chmod(folder, 0o1777);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  return async () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    await rm(folder, { recursive: true, force: true });
  };
}
