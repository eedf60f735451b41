// many-keys-down: `cp -r` of a prefix of BENCH_KEYS keys (default 1,000,000) to a local folder, Barge
// against s5cmd, 64 requests in flight each: time and peak RSS (goal, issue 29 §4: <= 150 MiB). The store is
// many-keys.ts's synthetic one (a million objects written into MinIO would take longer than the download).

import { rm } from 'node:fs/promises';
import path from 'node:path';
import { alternate, bargeRunner, measure, median, medianCpu, peakRss, s5cmdRunner, tryMeasure } from './bench-kit.ts';
import type { Measurement } from './bench-kit.ts';
import type { RowContext, RowResult } from './bench-row.ts';
import { KEYS, startSyntheticStore } from './many-keys.ts';

export async function manyKeysDown(ctx: RowContext): Promise<RowResult> {
  const store = await startSyntheticStore();
  try {
    const synthetic = {
      kind: 'minio' as const,
      endpoint: store.endpoint,
      accessKeyId: 'bench',
      secretAccessKey: 'benchbench',
      region: 'us-east-1',
    };
    const barge = bargeRunner(synthetic, ctx.root, ctx.dataDir);
    const s5cmd = s5cmdRunner(synthetic);
    const target = path.join(ctx.scratch, 'many-keys');
    const tools = [
      { runner: barge, args: barge.args('cp', '-r', '--threads', '64', 's3://bench/many/', target) },
      ...(s5cmd
        ? [{ runner: s5cmd, args: s5cmd.args('--numworkers', '64', 'cp', 's3://bench/many/*', `${target}/`) }]
        : []),
    ];
    const runs = new Map<string, Measurement[]>(tools.map((t) => [t.runner.name, []]));
    for (let round = 0; round < ctx.rounds; round++) {
      for (const tool of alternate(tools, round)) {
        const label = `many-keys-down ${tool.runner.name} round ${round + 1}`;
        await tryMeasure(label, () => measure(tool.runner, tool.args, ctx.scratch), runs.get(tool.runner.name)!);
        await rm(target, { recursive: true, force: true });
      }
    }
    const s5 = runs.get('s5cmd');
    const s5Seconds = s5?.length ? median(s5.map((m) => m.seconds)) : undefined;
    const lines = [
      `Many keys down: cp -r of ${KEYS.toLocaleString('en-US')} keys of 1 byte (a synthetic store), 64 in flight; ` +
        'goal: Barge peak RSS <= 150 MiB.',
      '',
      '| tool | median time | obj/s | vs s5cmd | peak RSS | CPU time |',
      '|---|---|---|---|---|---|',
    ];
    for (const [name, r] of runs) {
      if (r.length === 0) {
        lines.push(`| ${name} | failed | | | | |`);
        continue;
      }
      const seconds = median(r.map((m) => m.seconds));
      const ratio = s5Seconds ? `${(s5Seconds / seconds).toFixed(2)}x` : 'n/a';
      lines.push(
        `| ${name} | ${seconds.toFixed(1)} s | ${(KEYS / seconds).toFixed(0)} | ${ratio} | ${peakRss(r)} | ${medianCpu(r)} |`,
      );
    }
    return { table: lines.join('\n'), figures: { keys: KEYS, runs: Object.fromEntries(runs) } };
  } finally {
    store.close();
  }
}
