// Build what runs from app/dist: the `barge` command line and the web host as bundled ES modules,
// the window (renderer) with Vite, and the Electron shell (main process ES module, preload CommonJS).
//
// Bundling is for speed as much as packaging: Node's type stripping and module resolution of a few
// hundred files cost a command about 0.4 s and 40 MiB before it does any work. With `--if-stale`
// nothing is rebuilt when no source is newer than the outputs.
//
//   node main/build/build.ts [--if-stale]

import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { build as viteBuild } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = path.join(root, 'app', 'dist');
export const CLI_BUNDLE = path.join(dist, 'barge.mjs');
/** The command line's chunks: what `barge --help` does not load (see main/cli/main.ts). */
const CLI_CHUNKS = 'cli';
export const SERVE_BUNDLE = path.join(dist, 'serve.mjs');
export const DEMO_BUNDLE = path.join(dist, 'demo.mjs');
export const RENDERER_DIR = path.join(dist, 'renderer');
const OUTPUTS = [
  CLI_BUNDLE,
  SERVE_BUNDLE,
  DEMO_BUNDLE,
  path.join(RENDERER_DIR, 'index.html'),
  path.join(dist, 'electron', 'main.mjs'),
  path.join(dist, 'electron', 'preload.cjs'),
];

async function newest(dir: string): Promise<number> {
  let newestMs = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|tsx|css|html)$/.test(entry.name))
      newestMs = Math.max(newestMs, (await stat(path.join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newestMs;
}

export async function isStale(): Promise<boolean> {
  const built = Math.min(
    ...(await Promise.all(
      OUTPUTS.map((file) =>
        stat(file).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      ),
    )),
  );
  const sources = Math.max(
    ...(await Promise.all(['main', 'src', 'renderer'].map((dir) => newest(path.join(root, dir))))),
    (await stat(path.join(root, 'package-lock.json'))).mtimeMs,
  );
  return sources > built;
}

/**
 * Packages that stay in node_modules, loaded from there at run time: a native module's `.node`
 * binary cannot be inlined into a bundle. Node resolves them from app/dist up to the project's
 * node_modules; a packaged app has them in app.asar's node_modules (electron-builder packs the
 * production dependencies), the binary itself unpacked beside it (asarUnpack in
 * electron-builder.yml: a `.node` file is loaded by the system, which cannot read inside an asar).
 */
const NATIVE_PACKAGES = ['@node-rs/crc32'];

async function bundle(input: string, file: string, format: 'esm' | 'cjs', external: string[] = []): Promise<void> {
  await build({
    input: path.join(root, input),
    platform: 'node',
    logLevel: 'warn',
    external: [...NATIVE_PACKAGES, ...external],
    output: {
      file,
      format,
      codeSplitting: false,
      sourcemap: true,
      banner: format === 'esm' ? '#!/usr/bin/env node' : undefined,
    },
  });
}

/** A chunk no build wrote for this long is removed: no command still running can need it. */
const STALE_CHUNK_MS = 60 * 60 * 1000;

/**
 * The command line, split at its dynamic imports: `barge --help` compiles 20 KB instead of 1.6 MB,
 * and a command only the modules it runs. Chunk names carry a content hash. A command that is
 * running loads its chunks after it starts, so a rebuild (a test run's set-up) must not take away
 * the ones it may still ask for: old chunks are removed only an hour after they were replaced.
 */
export async function buildCli(): Promise<void> {
  const result = await build({
    input: path.join(root, 'main/cli/barge.ts'),
    platform: 'node',
    logLevel: 'warn',
    external: NATIVE_PACKAGES,
    output: {
      dir: dist,
      entryFileNames: path.basename(CLI_BUNDLE),
      chunkFileNames: `${CLI_CHUNKS}/[name]-[hash].mjs`,
      format: 'esm',
      sourcemap: true,
      banner: '#!/usr/bin/env node',
    },
  });
  const written = new Set(result.output.map((file) => path.join(dist, file.fileName)));
  const chunks = path.join(dist, CLI_CHUNKS);
  for (const name of await readdir(chunks)) {
    const file = path.join(chunks, name);
    const chunk = file.replace(/\.map$/, '');
    if (written.has(chunk)) continue;
    if (Date.now() - (await stat(file)).mtimeMs > STALE_CHUNK_MS) await rm(file, { force: true });
  }
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
