// huge-file: one file of BENCH_HUGE_GIB GiB (default 10) up and down, Barge against s5cmd (16 parts of
// 16 MiB in flight each): time and peak RSS, which show how memory and part bookkeeping grow with size
// (640 parts at 10 GiB). The file, its object and its download must fit on the disk at once: where they do
// not, the largest whole number of GiB that fits is used, and the table says so.

import { rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import {
  alternate,
  bargeRunner,
  measure,
  median,
  medianCpu,
  peakRss,
  s5cmdRunner,
  tryMeasure,
  writeRandomFile,
} from './bench-kit.ts';
import type { Measurement } from './bench-kit.ts';
import { clearKeys, seedObject } from './bench-row.ts';
import type { RowContext, RowResult } from './bench-row.ts';

const GIB = 1024 ** 3;
const WANTED_GIB = Number(process.env.BENCH_HUGE_GIB ?? 10);
/** Left free beside the three copies (the file, MinIO's object, the download): MinIO's own files, the rest. */
const DISK_MARGIN_BYTES = 4 * GIB;
const PART_MIB = 16;
const PARTS_IN_FLIGHT = 16;

export async function hugeFile(ctx: RowContext): Promise<RowResult> {
  const disk = await statfs(ctx.scratch);
  const freeBytes = disk.bavail * disk.bsize;
  const fitsGiB = Math.floor((freeBytes - DISK_MARGIN_BYTES) / 3 / GIB);
  const sizeGiB = Math.min(WANTED_GIB, fitsGiB);
  if (sizeGiB < 1) return { table: `Huge file: skipped, ${(freeBytes / GIB).toFixed(1)} GiB free.`, figures: null };
  const note =
    sizeGiB < WANTED_GIB
      ? ` The disk has ${(freeBytes / GIB).toFixed(1)} GiB free: ${WANTED_GIB} GiB three times over does not fit, ` +
        `so ${sizeGiB} GiB.`
      : '';
  const bytes = sizeGiB * GIB;
  const file = path.join(ctx.scratch, 'huge.bin');
  const target = path.join(ctx.scratch, 'huge-download.bin');
  await writeRandomFile(file, bytes);
  await seedObject(ctx, file, 'huge/source.bin');
  const barge = bargeRunner(ctx.server, ctx.root, ctx.dataDir);
  const s5cmd = s5cmdRunner(ctx.server);
  const bargeFlags = ['--threads', String(PARTS_IN_FLIGHT), '--part-size', `${PART_MIB}MiB`];
  const s5Flags = ['--concurrency', String(PARTS_IN_FLIGHT), '--part-size', String(PART_MIB)];
  const tools = ['barge', ...(s5cmd ? ['s5cmd'] : [])];
  const runs = new Map<string, Measurement[]>();
  for (const direction of ['up', 'down']) for (const tool of tools) runs.set(`${direction} ${tool}`, []);
  try {
    for (let round = 0; round < ctx.rounds; round++) {
      for (const direction of ['up', 'down'] as const) {
        for (const tool of alternate(tools, round)) {
          const key = direction === 'up' ? `huge/${tool}-${round}.bin` : 'huge/source.bin';
          const [from, to] =
            direction === 'up' ? [file, `s3://${ctx.bucket}/${key}`] : [`s3://${ctx.bucket}/${key}`, target];
          const runner = tool === 'barge' ? barge : s5cmd!;
          const args =
            tool === 'barge' ? barge.args('cp', ...bargeFlags, from, to) : s5cmd!.args('cp', ...s5Flags, from, to);
          const label = `huge-file ${direction} ${tool} round ${round + 1}`;
          await tryMeasure(label, () => measure(runner, args, ctx.scratch), runs.get(`${direction} ${tool}`)!);
          if (direction === 'up') await clearKeys(ctx, { key });
          else await rm(target, { force: true });
        }
      }
    }
  } finally {
    await rm(file, { force: true });
    await clearKeys(ctx, { key: 'huge/source.bin' });
  }
  const lines = [
    `Huge file: one ${sizeGiB} GiB file, ${PARTS_IN_FLIGHT} x ${PART_MIB} MiB parts in flight; medians.${note}`,
    '',
    '| direction | tool | median time | MB/s | vs s5cmd | peak RSS | CPU time |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const direction of ['up', 'down']) {
    const s5 = runs.get(`${direction} s5cmd`);
    const s5Seconds = s5?.length ? median(s5.map((m) => m.seconds)) : undefined;
    for (const tool of tools) {
      const r = runs.get(`${direction} ${tool}`)!;
      if (r.length === 0) {
        lines.push(`| ${direction} | ${tool} | failed | | | | |`);
        continue;
      }
      const seconds = median(r.map((m) => m.seconds));
      const ratio = s5Seconds ? `${(s5Seconds / seconds).toFixed(2)}x` : 'n/a';
      lines.push(
        `| ${direction} | ${tool} | ${seconds.toFixed(1)} s | ${(bytes / seconds / 1e6).toFixed(0)} | ${ratio} | ` +
          `${peakRss(r)} | ${medianCpu(r)} |`,
      );
    }
  }
  return { table: lines.join('\n'), figures: { sizeGiB, runs: Object.fromEntries(runs) } };
}
