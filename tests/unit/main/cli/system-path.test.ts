import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { systemPath } from '../../../../main/cli/system-path.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'barge-system-path-')));
  await mkdir(path.join(dir, 'a'));
  await mkdir(path.join(dir, 'other', 'inner'), { recursive: true });
  await symlink(path.join(dir, 'other', 'inner'), path.join(dir, 'a', 'link'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('reads ".." after a link as the system does: the parent of where the link leads, not of the link', async () => {
  expect(await systemPath(path.join(dir, 'a') + '/link/..')).toBe(path.join(dir, 'other'));
  expect(await systemPath(path.join(dir, 'a') + '/link/../inner/new')).toBe(path.join(dir, 'other', 'inner', 'new'));
});

it('keeps a link at the end a link, and a path without ".." as path.resolve makes it', async () => {
  expect(await systemPath(path.join(dir, 'a', 'link'))).toBe(path.join(dir, 'a', 'link'));
  expect(await systemPath('some/relative/./name')).toBe(path.resolve('some/relative/name'));
});

it('falls back to the text where the path is not there yet', async () => {
  expect(await systemPath(path.join(dir, 'missing') + '/x/../y')).toBe(path.join(dir, 'missing', 'y'));
});
