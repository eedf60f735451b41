// latency-grid: threads by object size under latency, Barge beside s5cmd, and Barge's Auto beside the sweep.
//
// MinIO through toxiproxy with 25 ms added each way (this kernel has no netem). For 16 KiB, 256 KiB and
// 2 MiB objects, 256 objects a cell are uploaded at 1, 4, 16, 64 and 256 threads (s5cmd: --numworkers);
// then one 1 GiB file up and down at the same counts (16 MiB parts; s5cmd: --concurrency). Barge with
// `--threads auto --part-size auto` runs once per size beside them, where the CLI takes it. The goal
// table (issue 29, §1): Auto as a share of the best fixed setting (goal >= 90%) and of today's fixed 64.

import { rm } from 'node:fs/promises';
import path from 'node:path';
import { startToxiproxy } from '../support/toxiproxy.ts';
import {
  alternate,
  AUTO_FLAGS,
  bargeRunner,
  bargeTakesAuto,
  measure,
  median,
  percent,
  randomFolder,
  s5cmdRunner,
  tryMeasure,
  writeRandomFile,
} from './bench-kit.ts';
import type { Measurement } from './bench-kit.ts';
import { clearKeys, seedObject } from './bench-row.ts';
import type { RowContext, RowResult } from './bench-row.ts';

const LATENCY_EACH_WAY_MS = 25;
const OBJECTS_PER_CELL = 256;
const THREADS = [1, 4, 16, 64, 256] as const;
const KIB = 1024;
const MIB = 1024 * KIB;
const SIZES = [
  { label: '16 KiB', bytes: 16 * KIB },
  { label: '256 KiB', bytes: 256 * KIB },
  { label: '2 MiB', bytes: 2 * MIB },
] as const;
const LARGE_FILE_BYTES = Number(process.env.BENCH_GRID_LARGE_BYTES ?? 1024 ** 3);
const LARGE_PART_MIB = 16;
/** BENCH_GRID_ROWS=2MiB,large runs only those rows (a quick look at one cell); by default every row. */
const rowName = (label: string) => label.replace(' ', '').toLowerCase();
const ROW_NAMES = [...SIZES.map((size) => rowName(size.label)), 'large'];
const ROWS_PICKED = process.env.BENCH_GRID_ROWS?.split(',').map((name) => rowName(name.trim()));
const unknownRows = ROWS_PICKED?.filter((name) => !ROW_NAMES.includes(name)) ?? [];
if (unknownRows.length > 0)
  throw new Error(`BENCH_GRID_ROWS: unknown ${unknownRows.join(', ')} (the rows are ${ROW_NAMES.join(', ')})`);
const picks = (label: string) => ROWS_PICKED === undefined || ROWS_PICKED.includes(rowName(label));

/** One column of the grid: a fixed thread count, or Auto. */
type Setting = number | 'auto';
type Cell = { tool: 'barge' | 's5cmd'; setting: Setting; runs: Measurement[] };
/** One row of the grid: an object size, or the large file one way. */
interface GridRow {
  readonly label: string;
  /** Objects a second (small objects) or MB/s (the large file), from seconds. */
  readonly rate: (seconds: number) => number;
  readonly unit: string;
  readonly cells: Cell[];
}

export async function latencyGrid(ctx: RowContext): Promise<RowResult> {
  const toxiproxy = await startToxiproxy();
  try {
    const proxy = await toxiproxy.createProxy('latency-grid', ctx.server.endpoint);
    const latency = { type: 'latency', attributes: { latency: LATENCY_EACH_WAY_MS } } as const;
    await proxy.addToxic('latency-up', latency, { stream: 'upstream' });
    await proxy.addToxic('latency-down', latency, { stream: 'downstream' });
    const far = { ...ctx.server, endpoint: proxy.endpoint };
    const barge = bargeRunner(far, ctx.root, ctx.dataDir);
    const s5cmd = s5cmdRunner(far);
    const largeFile = path.join(ctx.scratch, 'grid-large.bin');
    await writeRandomFile(largeFile, LARGE_FILE_BYTES);
    const auto = await bargeTakesAuto(barge, ctx.bucket, largeFile);
    const settings: Setting[] = [...THREADS, ...(auto ? (['auto'] as const) : [])];
    const newRow = (label: string, rate: GridRow['rate'], unit: string): GridRow => ({
      label,
      rate,
      unit,
      cells: settings.flatMap((setting) => [
        { tool: 'barge' as const, setting, runs: [] },
        ...(s5cmd && setting !== 'auto' ? [{ tool: 's5cmd' as const, setting, runs: [] }] : []),
      ]),
    });
    const rows: GridRow[] = [];

    // Small objects, uploaded: a folder of 256 per size.
    for (const size of SIZES.filter((s) => picks(s.label))) {
      const row = newRow(size.label, (s) => OBJECTS_PER_CELL / s, 'obj/s');
      rows.push(row);
      const dir = await randomFolder(path.join(ctx.scratch, `grid-${size.bytes}`), OBJECTS_PER_CELL, size.bytes);
      for (let round = 0; round < ctx.rounds; round++) {
        for (const cell of alternate(row.cells, round)) {
          const prefix = `grid/${size.bytes}/${cell.tool}-${cell.setting}-${round}/`;
          const args =
            cell.tool === 'barge'
              ? barge.args('cp', '-r', ...threadFlags(cell.setting), dir, `s3://${ctx.bucket}/${prefix}`)
              : s5cmd!.args('--numworkers', String(cell.setting), 'cp', `${dir}/*`, `s3://${ctx.bucket}/${prefix}`);
          const runner = cell.tool === 'barge' ? barge : s5cmd!;
          const label = `latency-grid ${size.label} ${cell.tool} ${cell.setting} round ${round + 1}`;
          await tryMeasure(label, () => measure(runner, args, ctx.scratch), cell.runs);
          await clearKeys(ctx, { prefix });
        }
      }
    }

    // One large file, up, then down (its source uploaded once, untimed).
    if (!picks('large')) return { table: gridTable(rows, auto, s5cmd !== undefined), figures: { rows } };
    const up = newRow('1 GiB up', (s) => LARGE_FILE_BYTES / s / 1e6, 'MB/s');
    const down = newRow('1 GiB down', (s) => LARGE_FILE_BYTES / s / 1e6, 'MB/s');
    rows.push(up, down);
    await seedObject(ctx, largeFile, 'grid/large-source.bin');
    const target = path.join(ctx.scratch, 'grid-download.bin');
    for (let round = 0; round < ctx.rounds; round++) {
      for (const [row, direction] of [
        [up, 'up'],
        [down, 'down'],
      ] as const) {
        for (const cell of alternate(row.cells, round)) {
          const key =
            direction === 'up' ? `grid/large-${cell.tool}-${cell.setting}-${round}.bin` : 'grid/large-source.bin';
          const [from, to] =
            direction === 'up' ? [largeFile, `s3://${ctx.bucket}/${key}`] : [`s3://${ctx.bucket}/${key}`, target];
          const args =
            cell.tool === 'barge'
              ? barge.args('cp', ...largeFlags(cell.setting), from, to)
              : s5cmd!.args(
                  'cp',
                  '--concurrency',
                  String(cell.setting),
                  '--part-size',
                  String(LARGE_PART_MIB),
                  from,
                  to,
                );
          const runner = cell.tool === 'barge' ? barge : s5cmd!;
          const label = `latency-grid ${row.label} ${cell.tool} ${cell.setting} round ${round + 1}`;
          await tryMeasure(label, () => measure(runner, args, ctx.scratch), cell.runs);
          if (direction === 'up') await clearKeys(ctx, { key });
          else await rm(target, { force: true });
        }
      }
    }
    await clearKeys(ctx, { key: 'grid/large-source.bin' });
    return {
      table: gridTable(rows, auto, s5cmd !== undefined),
      figures: { latencyEachWayMs: LATENCY_EACH_WAY_MS, rows },
    };
  } finally {
    await toxiproxy.stop();
  }
}

function threadFlags(setting: Setting): string[] {
  return setting === 'auto' ? AUTO_FLAGS : ['--threads', String(setting)];
}

function largeFlags(setting: Setting): string[] {
  return setting === 'auto' ? AUTO_FLAGS : ['--threads', String(setting), '--part-size', `${LARGE_PART_MIB}MiB`];
}

function rateOf(row: GridRow, tool: Cell['tool'], setting: Setting): number | undefined {
  const runs = row.cells.find((c) => c.tool === tool && c.setting === setting)?.runs ?? [];
  return runs.length > 0 ? row.rate(median(runs.map((m) => m.seconds))) : undefined;
}

function gridTable(rows: GridRow[], auto: boolean, withS5cmd: boolean): string {
  const fmt = (n: number | undefined) => (n === undefined ? 'failed' : n.toFixed(0));
  const lines = [
    `Latency grid: MinIO through toxiproxy, ${LATENCY_EACH_WAY_MS} ms added each way; ${OBJECTS_PER_CELL} objects ` +
      `a cell; Barge / s5cmd${withS5cmd ? '' : ' (s5cmd not found)'}, medians.`,
    '',
    `| size | unit | ${THREADS.map((t) => `${t} threads`).join(' | ')} | auto |`,
    `|---|---|${THREADS.map(() => '---|').join('')}---|`,
  ];
  for (const row of rows) {
    const cells = THREADS.map((t) => {
      const b = rateOf(row, 'barge', t);
      const s = rateOf(row, 's5cmd', t);
      const ratio = b !== undefined && s !== undefined ? ` (${(b / s).toFixed(2)}x)` : '';
      return withS5cmd ? `${fmt(b)} / ${fmt(s)}${ratio}` : fmt(b);
    });
    const autoCell = auto ? fmt(rateOf(row, 'barge', 'auto')) : 'not available';
    lines.push(`| ${row.label} | ${row.unit} | ${cells.join(' | ')} | ${autoCell} |`);
  }
  lines.push(
    '',
    'Auto against the fixed sweep (goal: Auto >= 90% of the best fixed setting; 64 is the fixed default):',
    '',
    '| size | best fixed (threads) | fixed 64 | auto | auto / best | auto / 64 |',
    '|---|---|---|---|---|---|',
  );
  for (const row of rows) {
    const fixed = THREADS.map((t) => ({ t, rate: rateOf(row, 'barge', t) })).filter((f) => f.rate !== undefined);
    const best = fixed.sort((a, b) => b.rate! - a.rate!)[0];
    const at64 = rateOf(row, 'barge', 64);
    const autoRate = auto ? rateOf(row, 'barge', 'auto') : undefined;
    lines.push(
      `| ${row.label} | ${best ? `${fmt(best.rate)} (${best.t})` : 'failed'} | ${fmt(at64)} | ` +
        `${auto ? fmt(autoRate) : 'not available'} | ${percent(autoRate, best?.rate)} | ${percent(autoRate, at64)} |`,
    );
  }
  return lines.join('\n');
}
