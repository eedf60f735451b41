// throttled: a store that answers one request in ten with 503 SlowDown (tests/support/fault-proxy.ts in
// front of MinIO). Barge's Auto against a fixed 256 threads (goal, issue 29 §1: Auto completes with fewer
// retries and no slower), s5cmd at 256 beside them. 2,000 x 64 KiB files up. Retries are Barge's own count
// (`cp --json`); the 503s are the proxy's, for every tool alike.

import path from 'node:path';
import { startFaultProxy } from '../support/fault-proxy.ts';
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
import type { Measurement } from './bench-kit.ts';
import { clearKeys } from './bench-row.ts';
import type { RowContext, RowResult } from './bench-row.ts';

const FILES = 2_000;
const FILE_BYTES = 64 * 1024;
/** Every this-many-th request the proxy sees is answered 503 SlowDown. */
const SLOW_DOWN_EVERY = 10;
const FIXED_THREADS = 256;

interface ThrottledRun extends Measurement {
  readonly slowDowns: number;
  readonly requests: number;
  /** Barge's own count of requests sent again (cp --json); undefined for s5cmd. */
  readonly retries?: number;
}

export async function throttled(ctx: RowContext): Promise<RowResult> {
  const proxy = await startFaultProxy(ctx.server.endpoint);
  try {
    let requests = 0;
    proxy.setRule(() => (++requests % SLOW_DOWN_EVERY === 0 ? { kind: 'slow-down' } : undefined));
    const throttledStore = { ...ctx.server, endpoint: proxy.endpoint };
    const barge = bargeRunner(throttledStore, ctx.root, ctx.dataDir);
    const s5cmd = s5cmdRunner(throttledStore);
    const dir = await randomFolder(path.join(ctx.scratch, 'small'), FILES, FILE_BYTES);
    const auto = await bargeTakesAuto(barge, ctx.bucket, path.join(dir, 'f00000.bin'));
    const tools = [
      ...(auto ? [{ name: 'barge auto', flags: AUTO_FLAGS }] : []),
      { name: `barge ${FIXED_THREADS}`, flags: ['--threads', String(FIXED_THREADS)] },
      ...(s5cmd ? [{ name: `s5cmd ${FIXED_THREADS}`, flags: [] }] : []),
    ];
    const runs = new Map<string, ThrottledRun[]>(tools.map((t) => [t.name, []]));
    for (let round = 0; round < ctx.rounds; round++) {
      for (const tool of alternate(tools, round)) {
        const prefix = `throttled/${tool.name.replace(' ', '-')}-${round}/`;
        const isBarge = tool.name.startsWith('barge');
        const args = isBarge
          ? barge.args('cp', '--json', '-r', ...tool.flags, dir, `s3://${ctx.bucket}/${prefix}`)
          : s5cmd!.args('--numworkers', String(FIXED_THREADS), 'cp', `${dir}/*`, `s3://${ctx.bucket}/${prefix}`);
        const seenBefore = proxy.seen.length;
        const measured: Measurement[] = [];
        const m = await tryMeasure(
          `throttled ${tool.name} round ${round + 1}`,
          () => measure(isBarge ? barge : s5cmd!, args, ctx.scratch, { keepStdout: isBarge }),
          measured,
        );
        const seen = proxy.seen.slice(seenBefore);
        proxy.seen.length = 0;
        if (m) {
          const retries = isBarge
            ? (JSON.parse(m.stdout!) as { progress: { retries: number } }).progress.retries
            : undefined;
          runs.get(tool.name)!.push({
            ...m,
            stdout: undefined,
            slowDowns: seen.filter((r) => r.status === 503).length,
            requests: seen.length,
            retries,
          });
        }
        await clearKeys(ctx, { prefix });
      }
    }
    return {
      table: throttledTable(
        tools.map((t) => t.name),
        runs,
        auto,
      ),
      figures: Object.fromEntries(runs),
    };
  } finally {
    await proxy.close();
  }
}

function throttledTable(names: string[], runs: Map<string, ThrottledRun[]>, auto: boolean): string {
  const lines = [
    `Throttled: one request in ${SLOW_DOWN_EVERY} answered 503 SlowDown; ${FILES.toLocaleString('en-US')} x ` +
      `${FILE_BYTES / 1024} KiB up; medians.${auto ? '' : ' Barge auto: not available (the CLI refuses --threads auto).'}`,
    '',
    '| tool | median time | obj/s | retries (Barge) | 503s answered | requests | peak RSS | CPU time |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const name of names) {
    const r = runs.get(name)!;
    if (r.length === 0) {
      lines.push(`| ${name} | failed | | | | | | |`);
      continue;
    }
    const seconds = median(r.map((m) => m.seconds));
    const retries = r.every((m) => m.retries !== undefined) ? median(r.map((m) => m.retries!)).toFixed(0) : 'n/a';
    lines.push(
      `| ${name} | ${seconds.toFixed(2)} s | ${(FILES / seconds).toFixed(0)} | ${retries} | ` +
        `${median(r.map((m) => m.slowDowns)).toFixed(0)} | ${median(r.map((m) => m.requests)).toFixed(0)} | ` +
        `${peakRss(r)} | ${medianCpu(r)} |`,
    );
  }
  return lines.join('\n');
}
