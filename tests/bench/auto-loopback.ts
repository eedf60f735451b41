// auto-loopback: Barge's Auto against the fixed default (64 threads, 16 MiB parts) on loopback, where
// latency is nil and the two cores are the limit. Goal (issue 29 §1): Auto no more than 5% slower.
// 2,000 x 64 KiB files up; one 1 GiB file up and down.

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
  tryMeasure,
  writeRandomFile,
} from './bench-kit.ts';
import type { Measurement } from './bench-kit.ts';
import { clearKeys, seedObject } from './bench-row.ts';
import type { RowContext, RowResult } from './bench-row.ts';

const FILES = 2_000;
const FILE_BYTES = 64 * 1024;
const LARGE_FILE_BYTES = 1024 ** 3;
const FIXED = ['--threads', '64', '--part-size', '16MiB'];
const ALLOWED_SLOWDOWN = 1.05;

type Case = 'small-up' | 'large-up' | 'large-down';
const CASES: Case[] = ['small-up', 'large-up', 'large-down'];

export async function autoLoopback(ctx: RowContext): Promise<RowResult> {
  const barge = bargeRunner(ctx.server, ctx.root, ctx.dataDir);
  const dir = await randomFolder(path.join(ctx.scratch, 'small'), FILES, FILE_BYTES);
  if (!(await bargeTakesAuto(barge, ctx.bucket, path.join(dir, 'f00000.bin'))))
    return {
      table: 'Auto on loopback: not available (the CLI refuses --threads auto --part-size auto).',
      figures: 'not available',
    };
  const largeFile = path.join(ctx.scratch, 'auto-large.bin');
  await writeRandomFile(largeFile, LARGE_FILE_BYTES);
  await seedObject(ctx, largeFile, 'auto/large-source.bin');
  const target = path.join(ctx.scratch, 'auto-download.bin');
  const settings = [
    { name: 'fixed 64', flags: FIXED },
    { name: 'auto', flags: AUTO_FLAGS },
  ];
  const runs = new Map<string, Measurement[]>();
  for (const c of CASES) for (const s of settings) runs.set(`${c} ${s.name}`, []);
  for (let round = 0; round < ctx.rounds; round++) {
    for (const c of CASES) {
      for (const s of alternate(settings, round)) {
        const tag = `${s.name.replace(' ', '-')}-${round}`;
        const prefix = `auto/${c}-${tag}/`;
        const args =
          c === 'small-up'
            ? barge.args('cp', '-r', ...s.flags, dir, `s3://${ctx.bucket}/${prefix}`)
            : c === 'large-up'
              ? barge.args('cp', ...s.flags, largeFile, `s3://${ctx.bucket}/${prefix}large.bin`)
              : barge.args('cp', ...s.flags, `s3://${ctx.bucket}/auto/large-source.bin`, target);
        const label = `auto-loopback ${c} ${s.name} round ${round + 1}`;
        await tryMeasure(label, () => measure(barge, args, ctx.scratch), runs.get(`${c} ${s.name}`)!);
        if (c === 'large-down') await rm(target, { force: true });
        else await clearKeys(ctx, { prefix });
      }
    }
  }
  await clearKeys(ctx, { key: 'auto/large-source.bin' });
  const lines = [
    'Auto on loopback against the fixed default (64 threads, 16 MiB parts); goal: Auto no more than 5% slower.',
    '',
    '| case | fixed 64 | auto | auto time / fixed time | goal met | peak RSS fixed / auto | CPU fixed / auto |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of CASES) {
    const fixed = runs.get(`${c} fixed 64`)!;
    const auto = runs.get(`${c} auto`)!;
    if (fixed.length === 0 || auto.length === 0) {
      lines.push(`| ${c} | ${fixed.length ? '' : 'failed'} | ${auto.length ? '' : 'failed'} | | | | |`);
      continue;
    }
    const [f, a] = [median(fixed.map((m) => m.seconds)), median(auto.map((m) => m.seconds))];
    lines.push(
      `| ${c} | ${f.toFixed(2)} s | ${a.toFixed(2)} s | ${(a / f).toFixed(2)} | ${a / f <= ALLOWED_SLOWDOWN ? 'yes' : 'no'} | ` +
        `${peakRss(fixed)} / ${peakRss(auto)} | ${medianCpu(fixed)} / ${medianCpu(auto)} |`,
    );
  }
  return { table: lines.join('\n'), figures: Object.fromEntries(runs) };
}
