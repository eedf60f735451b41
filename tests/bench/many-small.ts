// many-small: `cp -r` of BENCH_SMALL_COUNT files of 1 KiB (default 50,000) up to a prefix and that prefix
// down again, Barge against s5cmd, 64 requests in flight each, and Barge on Auto beside them: time, objects
// a second and peak RSS (goals, issue 29 §4: download >= 1.0x s5cmd, upload >= 1.2x, both <= 100 MiB).
// Per-request cost is all there is at 1 KiB: this row shows it, where the 64 KiB one shows bandwidth too.

import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  alternate,
  AUTO_FLAGS,
  bargeRunner,
  bargeTakesAuto,
  measure,
  median,
  medianCpu,
  peakRss,
  randomFolder,
  s5cmdRunner,
  tryMeasure,
} from './bench-kit.ts';
import type { Measurement, Runner } from './bench-kit.ts';
import { clearKeys } from './bench-row.ts';
import type { RowContext, RowResult } from './bench-row.ts';

const COUNT = Number(process.env.BENCH_SMALL_COUNT ?? 50_000);
const FILE_BYTES = 1024;
const THREADS = 64;
/** Upload goal against s5cmd, as a ratio of speeds (issue 29 §4); the download's is 1.0. */
const GOAL = { up: 1.2, down: 1.0 } as const;
const RSS_GOAL_MIB = 100;

interface Tool {
  readonly name: string;
  readonly runner: Runner;
  readonly up: (from: string, to: string) => string[];
  readonly down: (from: string, to: string) => string[];
}

export async function manySmall(ctx: RowContext): Promise<RowResult> {
  const dir = await randomFolder(path.join(ctx.scratch, `small-1k-${COUNT}`), COUNT, FILE_BYTES);
  const barge = bargeRunner(ctx.server, ctx.root, ctx.dataDir);
  const s5cmd = s5cmdRunner(ctx.server);
  const threads = ['--threads', String(THREADS)];
  const auto = await bargeTakesAuto(barge, ctx.bucket, path.join(dir, 'f00000.bin'));
  const tools: Tool[] = [
    {
      name: `barge ${THREADS}`,
      runner: barge,
      up: (from, to) => barge.args('cp', '-r', ...threads, from, to),
      down: (from, to) => barge.args('cp', '-r', ...threads, from, to),
    },
    ...(auto
      ? [
          {
            name: 'barge auto',
            runner: barge,
            up: (from: string, to: string) => barge.args('cp', '-r', ...AUTO_FLAGS, from, to),
            down: (from: string, to: string) => barge.args('cp', '-r', ...AUTO_FLAGS, from, to),
          },
        ]
      : []),
    ...(s5cmd
      ? [
          {
            name: 's5cmd',
            runner: s5cmd,
            up: (from: string, to: string) => s5cmd.args('--numworkers', String(THREADS), 'cp', `${from}/*`, to),
            down: (from: string, to: string) => s5cmd.args('--numworkers', String(THREADS), 'cp', `${from}*`, `${to}/`),
          },
        ]
      : []),
  ];
  const runs = new Map<string, Measurement[]>();
  for (const direction of ['up', 'down']) for (const tool of tools) runs.set(`${direction} ${tool.name}`, []);
  const target = path.join(ctx.scratch, 'many-small-down');
  for (let round = 0; round < ctx.rounds; round++) {
    for (const tool of alternate(tools, round)) {
      const prefix = `many-small/${tool.name.replace(/\W+/g, '-')}-${round}/`;
      const url = `s3://${ctx.bucket}/${prefix}`;
      const label = `many-small ${tool.name} round ${round + 1}`;
      // The download reads back what this tool's upload wrote: a failed upload skips it.
      const up = await tryMeasure(
        `${label} up`,
        () => measure(tool.runner, tool.up(dir, url), ctx.scratch),
        runs.get(`up ${tool.name}`)!,
      );
      if (up) {
        await tryMeasure(
          `${label} down`,
          () => measure(tool.runner, tool.down(url, target), ctx.scratch),
          runs.get(`down ${tool.name}`)!,
        );
      }
      await rm(target, { recursive: true, force: true });
      await clearKeys(ctx, { prefix });
    }
  }
  const lines = [
    `Many small files: cp -r of ${COUNT.toLocaleString('en-US')} files of 1 KiB up, then that prefix down; ` +
      `${THREADS} in flight (and Barge on Auto); medians. Goals: up >= ${GOAL.up}x s5cmd, down >= ${GOAL.down}x, ` +
      `peak RSS <= ${RSS_GOAL_MIB} MiB.`,
    '',
    '| direction | tool | median time | obj/s | vs s5cmd | peak RSS | CPU time |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const direction of ['up', 'down'] as const) {
    const s5 = runs.get(`${direction} s5cmd`);
    const s5Seconds = s5?.length ? median(s5.map((m) => m.seconds)) : undefined;
    for (const tool of tools) {
      const r = runs.get(`${direction} ${tool.name}`)!;
      if (r.length === 0) {
        lines.push(`| ${direction} | ${tool.name} | failed | | | | |`);
        continue;
      }
      const seconds = median(r.map((m) => m.seconds));
      const ratio = s5Seconds ? `${(s5Seconds / seconds).toFixed(2)}x` : 'n/a';
      lines.push(
        `| ${direction} | ${tool.name} | ${seconds.toFixed(1)} s | ${(COUNT / seconds).toFixed(0)} | ${ratio} | ` +
          `${peakRss(r)} | ${medianCpu(r)} |`,
      );
    }
  }
  return { table: lines.join('\n'), figures: { count: COUNT, runs: Object.fromEntries(runs) } };
}
