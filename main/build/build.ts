// Build what runs from app/dist: the `barge` command line as one bundled ES module.
//
// Bundling is for speed, not packaging: Node's type stripping and module resolution of a few hundred
// files cost a command about 0.4 s and 40 MiB before it does any work, which a small listing or a
// few small files feel. With `--if-stale` nothing is rebuilt when no source is newer than the output.
//
//   node main/build/build.ts [--if-stale]

import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'rolldown';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const CLI_BUNDLE = path.join(root, 'app', 'dist', 'barge.mjs');

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) newest = Math.max(newest, (await stat(path.join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

export async function isStale(): Promise<boolean> {
  const built = await stat(CLI_BUNDLE).then((s) => s.mtimeMs, () => 0);
  const sources = Math.max(await newestSource(path.join(root, 'main')), await newestSource(path.join(root, 'src')), (await stat(path.join(root, 'package-lock.json'))).mtimeMs);
  return sources > built;
}

export async function buildCli(): Promise<void> {
  await build({
    input: path.join(root, 'main', 'cli', 'barge.ts'),
    platform: 'node',
    logLevel: 'warn',
    output: { file: CLI_BUNDLE, format: 'esm', codeSplitting: false, sourcemap: true, banner: '#!/usr/bin/env node' },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.argv.includes('--if-stale') || (await isStale())) await buildCli();
}
