// A download's folders are opened once for the job, not once an object, and a folder held open is
// still checked at each use: moved out of the target, it is opened afresh at its place, and a
// symbolic link put there that leads out is refused.

import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadTarget } from '../../../../../main/engine/disk/download-target.ts';

const linux = process.platform === 'linux';
let dir: string;
let target: DownloadTarget;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-download-target-'));
  await mkdir(path.join(dir, 'target'));
  await mkdir(path.join(dir, 'outside'));
  target = await DownloadTarget.open(path.join(dir, 'target'));
});

afterEach(async () => {
  await target.close();
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(linux)('DownloadTarget on Linux', () => {
  it('opens a folder once for every object written in it', async () => {
    const first = await target.folder(path.join(dir, 'target', 'sub'), 'one');
    const second = await target.folder(path.join(dir, 'target', 'sub'), 'two');
    // The same open folder (the same descriptor), not a second one opened for the second object.
    expect(second.at('file')).toBe(first.at('file'));
    await first.close();
    const third = await target.folder(path.join(dir, 'target', 'sub'), 'three');
    expect(third.at('file')).toBe(second.at('file'));
    await second.close();
    await third.close();
  });

  it('opens a held folder afresh at its place once it was moved out of the target', async () => {
    await (await target.folder(path.join(dir, 'target', 'sub'), 'one')).close();
    await rename(path.join(dir, 'target', 'sub'), path.join(dir, 'outside', 'sub'));
    const again = await target.folder(path.join(dir, 'target', 'sub'), 'two');
    await writeFile(again.at('file'), 'two');
    await again.close();
    expect(await readFile(path.join(dir, 'target', 'sub', 'file'), 'utf8')).toBe('two');
  });

  it('refuses a held folder swapped for a symbolic link that leads out of the target', async () => {
    await (await target.folder(path.join(dir, 'target', 'sub'), 'one')).close();
    await rename(path.join(dir, 'target', 'sub'), path.join(dir, 'outside', 'sub'));
    await symlink(path.join(dir, 'outside', 'sub'), path.join(dir, 'target', 'sub'));
    await expect(target.folder(path.join(dir, 'target', 'sub'), 'two')).rejects.toMatchObject({ code: 'UnsafePath' });
  });
});
