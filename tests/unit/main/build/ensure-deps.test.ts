// main/build/ensure-deps.sh, run in a copy of its place with a stand-in `npm` and `node` on PATH
// (nothing is installed): what it says and what it asks npm for, on Node 20 and on Node 24.

import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'main', 'build', 'ensure-deps.sh');
let tree: string;

afterEach(async () => {
  await rm(tree, { recursive: true, force: true });
});

/** Run the script as a fresh clone would, with `node` saying `major`; what it printed and what npm was asked. */
async function freshClone(major: number): Promise<{ said: string; npm: string }> {
  tree = await mkdtemp(path.join(os.tmpdir(), 'barge-ensure-deps-'));
  await mkdir(path.join(tree, 'main', 'build'), { recursive: true });
  await mkdir(path.join(tree, 'bin'));
  await copyFile(SCRIPT, path.join(tree, 'main', 'build', 'ensure-deps.sh'));
  await writeFile(path.join(tree, 'package-lock.json'), '{}');
  await writeFile(path.join(tree, 'bin', 'node'), `#!/bin/sh\necho ${major}\n`);
  await writeFile(path.join(tree, 'bin', 'npm'), `#!/bin/sh\necho "$@" > "${path.join(tree, 'npm-args')}"\n`);
  await chmod(path.join(tree, 'bin', 'node'), 0o755);
  await chmod(path.join(tree, 'bin', 'npm'), 0o755);
  const run = spawnSync('sh', [path.join(tree, 'main', 'build', 'ensure-deps.sh')], {
    env: { PATH: `${path.join(tree, 'bin')}:/usr/bin:/bin` },
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  const said = run.stderr;
  return { said, npm: await readFile(path.join(tree, 'npm-args'), 'utf8') };
}

it("on Node 20, says in one line that npm's EBADENGINE warnings are expected, and keeps them back (errors still show)", async () => {
  const { said, npm } = await freshClone(20);
  expect(said.trim().split('\n')).toEqual([
    'Installing npm packages (npm ci)...',
    "This system's Node is 20: npm's EBADENGINE warnings (packages that ask for Node 24) are expected and left out; Barge runs on the Node 24 it installs.",
  ]);
  expect(npm.trim()).toBe('ci --no-audit --no-fund --loglevel=error');
});

it("on Node 24, installs with npm's warnings as they are", async () => {
  const { said, npm } = await freshClone(24);
  expect(said.trim()).toBe('Installing npm packages (npm ci)...');
  expect(npm.trim()).toBe('ci --no-audit --no-fund');
});
