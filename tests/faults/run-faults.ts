// `npm run faults`: run every fault scenario, upload and download, and print the matrix as a table.
//
//   npm run faults [-- <text>]     (only the scenarios whose id contains <text>)
//
// Exits non-zero when any scenario fails. MinIO and toxiproxy are built on first use.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MIB } from '../../src/byte-units.ts';
import { startFaultLab } from './fault-lab.ts';
import { createPayload } from './payload.ts';
import { runScenario } from './run-scenario.ts';
import type { ScenarioOutcome } from './run-scenario.ts';
import { KILL_SCENARIO, runKillScenario } from './run-kill-scenario.ts';
import { DIRECTIONS, MATRIX_SETTINGS, SCENARIOS } from './scenarios.ts';

/** A failure's first reason is cut to this in the table; every reason is printed in full below it. */
const RESULT_CELL_CHARS = 90;

const filter = process.argv[2] ?? '';
const chosen = SCENARIOS.filter((scenario) => scenario.id.includes(filter));
const withKill = KILL_SCENARIO.id.includes(filter);
if (chosen.length === 0 && !withKill) {
  console.error(
    `No scenario id contains "${filter}". Scenarios: ${[...SCENARIOS.map((s) => s.id), KILL_SCENARIO.id].join(', ')}`,
  );
  process.exit(2);
}

const scratch = await mkdtemp(path.join(os.tmpdir(), 'barge-fault-matrix-'));
const lab = await startFaultLab();
const outcomes: ScenarioOutcome[] = [];
try {
  const payload = await createPayload(scratch);
  console.error(
    `Fault matrix against MinIO: ${payload.files.length} files, ${formatMiB(payload.totalBytes)} each way, threads ${MATRIX_SETTINGS.threads}, ${formatMiB(MATRIX_SETTINGS.partSizeBytes)} parts.`,
  );
  for (const scenario of chosen) {
    console.error(`\n${scenario.id}: ${scenario.description}`);
    for (const direction of DIRECTIONS) {
      const outcome = await runScenario(lab, scenario, direction, payload).catch((error: unknown) =>
        crashed(scenario.id, direction, error),
      );
      outcomes.push(outcome);
      console.error(
        `  ${direction}: ${outcome.problems.length === 0 ? 'pass' : 'FAIL'} in ${formatSeconds(outcome.durationMs)}, ${outcome.retries} retries`,
      );
    }
  }
  if (withKill) {
    console.error(`\n${KILL_SCENARIO.id}: ${KILL_SCENARIO.description}`);
    for (const direction of DIRECTIONS) {
      const outcome = await runKillScenario(lab, direction, payload).catch((error: unknown) =>
        crashed(KILL_SCENARIO.id, direction, error),
      );
      outcomes.push(outcome);
      console.error(
        `  ${direction}: ${outcome.problems.length === 0 ? 'pass' : 'FAIL'} in ${formatSeconds(outcome.durationMs)}`,
      );
    }
  }
} finally {
  await lab.close();
  await rm(scratch, { recursive: true, force: true });
}

printTable(outcomes);
const failed = outcomes.filter((outcome) => outcome.problems.length > 0);
for (const outcome of failed) {
  console.log(`\n${outcome.scenario} (${outcome.direction}) failed:`);
  for (const problem of outcome.problems) console.log(`  - ${problem}`);
}
console.log(`\n${outcomes.length - failed.length} passed, ${failed.length} failed`);
process.exitCode = failed.length > 0 ? 1 : 0;

function printTable(rows: readonly ScenarioOutcome[]): void {
  const header = ['scenario', 'direction', 'objects', 'bytes', 'retries', 'duration', 'result'];
  const cells = rows.map((row) => [
    row.scenario,
    row.direction,
    `${row.objectsDone}/${row.objectsTotal}`,
    formatMiB(row.bytesDone),
    String(row.retries),
    formatSeconds(row.durationMs),
    row.problems.length === 0
      ? 'pass'
      : `FAIL: ${ellipsis(row.problems[0]!, RESULT_CELL_CHARS)}${row.problems.length > 1 ? ` (+${row.problems.length - 1} more)` : ''}`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column]!.length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(`\n${line(header)}`);
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of cells) console.log(line(row));
}

function crashed(scenario: string, direction: ScenarioOutcome['direction'], error: unknown): ScenarioOutcome {
  const message = error instanceof Error ? error.message : String(error);
  return {
    scenario,
    direction,
    objectsDone: 0,
    objectsTotal: 0,
    bytesDone: 0,
    retries: 0,
    problems: [`the scenario itself broke: ${message}`],
    durationMs: 0,
  };
}

function ellipsis(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

function formatMiB(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
