// `npm test`: every check there is, in order, stopping at the first that fails.
//
// Typecheck and lint first (seconds), then the unit tests, then the integration tests against a
// real S3 server (installed on first use).

import { spawnSync } from 'node:child_process';

const steps: [string, string[]][] = [
  ['typecheck', ['npm', 'run', '--silent', 'typecheck']],
  ['lint', ['npm', 'run', '--silent', 'lint']],
  ['unit and integration tests', ['npx', 'vitest', 'run']],
];

for (const [name, [command, ...args]] of steps) {
  console.log(`\n=== ${name}`);
  const result = spawnSync(command!, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n${name} failed`);
    process.exit(result.status ?? 1);
  }
}
