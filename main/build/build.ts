// Build what runs from app/dist: the `barge` command line and the web host as bundled ES modules,
// the window (renderer) with Vite, and the Electron shell (main process ES module, preload CommonJS).
//
// Bundling is for speed as much as packaging: Node's type stripping and module resolution of a few
// hundred files cost a command about 0.4 s and 40 MiB before it does any work. With `--if-stale`
// nothing is rebuilt when no source is newer than the outputs.
//
//   node main/build/build.ts [--if-stale]

import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { build as viteBuild } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = path.join(root, 'app', 'dist');
export const CLI_BUNDLE = path.join(dist, 'barge.mjs');
export const SERVE_BUNDLE = path.join(dist, 'serve.mjs');
export const DEMO_BUNDLE = path.join(dist, 'demo.mjs');
export const RENDERER_DIR = path.join(dist, 'renderer');
const OUTPUTS = [CLI_BUNDLE, SERVE_BUNDLE, DEMO_BUNDLE, path.join(RENDERER_DIR, 'index.html'), path.join(dist, 'electron', 'main.mjs'), path.join(dist, 'electron', 'preload.cjs')];

async function newest(dir: string): Promise<number> {
  let newestMs = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|tsx|css|html)$/.test(entry.name)) newestMs = Math.max(newestMs, (await stat(path.join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newestMs;
}

export async function isStale(): Promise<boolean> {
  const built = Math.min(...(await Promise.all(OUTPUTS.map((file) => stat(file).then((s) => s.mtimeMs, () => 0)))));
  const sources = Math.max(...(await Promise.all(['main', 'src', 'renderer'].map((dir) => newest(path.join(root, dir))))), (await stat(path.join(root, 'package-lock.json'))).mtimeMs);
  return sources > built;
}

async function bundle(input: string, file: string, format: 'esm' | 'cjs', external: string[] = []): Promise<void> {
  await build({
    input: path.join(root, input),
    platform: 'node',
    logLevel: 'warn',
    external,
    output: { file, format, codeSplitting: false, sourcemap: true, banner: format === 'esm' ? '#!/usr/bin/env node' : undefined },
  });
}

export async function buildCli(): Promise<void> {
  await bundle('main/cli/barge.ts', CLI_BUNDLE, 'esm');
}

export async function buildAll(): Promise<void> {
  await buildCli();
  await bundle('main/web-host/serve.ts', SERVE_BUNDLE, 'esm');
  await bundle('main/demo/demo.ts', DEMO_BUNDLE, 'esm');
  // The Electron shell: Electron itself is provided at run time; a sandboxed preload must be CommonJS.
  await bundle('main/electron/main.ts', path.join(dist, 'electron', 'main.mjs'), 'esm', ['electron']);
  await bundle('main/electron/preload.ts', path.join(dist, 'electron', 'preload.cjs'), 'cjs', ['electron']);
  await viteBuild({ configFile: path.join(root, 'renderer', 'vite.config.ts'), logLevel: 'warn' });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.argv.includes('--if-stale') || (await isStale())) await buildAll();
}
