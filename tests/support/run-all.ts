// `npm test`: every check there is, in order, stopping at the first that fails.
//
// Typecheck and lint first (seconds), then the unit tests and the integration tests against a real
// S3 server (MinIO, built on first use). Ends with one "N passed, N failed" line that CI reads.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const steps: [string, string[]][] = [
  ['typecheck', ['npm', 'run', '--silent', 'typecheck']],
  ['lint (and the import boundaries)', ['npm', 'run', '--silent', 'lint']],
  [
    'unit and integration tests',
    ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'],
  ],
];

for (const [name, [command, ...args]] of steps) {
  console.log(`\n=== ${name}`);
  const result = spawnSync(command!, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n${name} failed`);
    printCounts();
    process.exit(result.status ?? 1);
  }
}
printCounts();

function printCounts(): void {
  try {
    const report = JSON.parse(readFileSync('test-results/vitest.json', 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
    };
    console.log(
      `\n${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`,
    );
  } catch {
    // No report: the run stopped before the tests.
  }
}
