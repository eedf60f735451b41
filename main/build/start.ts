// npm start: the desktop app, where Electron can run.
//
// Electron's binary is fetched from outside the npm registry, which some machines cannot reach; there
// the same app runs in a browser through the web host, and this says so in one line.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Electron's binary, found the way the electron package finds it, but never downloading it. */
function electronBinary(): string | undefined {
  const pkg = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : 'electron';
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(pkg, 'dist');
  const binary = path.join(dist, executable);
  return existsSync(binary) ? binary : undefined;
}

const electron = electronBinary();
if (!electron) {
  console.error(
    "Electron's binary is not installed on this machine (it could not be downloaded): run the same app in a " +
      'browser with npm run serve',
  );
  process.exit(1);
}
const child = spawn(electron, [path.join(root, 'app', 'dist', 'electron', 'main.mjs')], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
