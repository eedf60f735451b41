// Auto against the fixed sweep, for tuning Auto itself (the project's bench, bench.ts, carries the
// goal's table): MinIO behind toxiproxy with 25 ms added each way, uploads of 256 objects of 16 KiB,
// 256 KiB and 2 MiB and one large file, at 4, 16, 64 and 256 threads and on Auto; then on loopback,
// fixed 64 against Auto; then one request in ten answered 503 SlowDown (the fault proxy), fixed 256
// against Auto, with the retries each took. Each cell is a fresh engine, as a `barge cp` run is.
//
//   node tests/bench/auto-tune-grid.ts [--rounds N] [--large-mib N] [--only latency|loopback|slowdown]

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { KIB, MIB } from '../../src/byte-units.ts';
import type { ConnectionConfig } from '../../src/connection.ts';
import type { SettingsPatch } from '../../src/settings.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { startS3Server } from '../support/s3-server.ts';
import { startToxiproxy } from '../support/toxiproxy.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '1' },
    'large-mib': { type: 'string', default: '1024' },
    only: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const LARGE_BYTES = Number(values['large-mib']) * MIB;
const OBJECTS = 256;
const SWEEP: readonly (number | 'auto')[] = [4, 16, 64, 256, 'auto'];

const server = await startS3Server('minio');
const toxiproxy = await startToxiproxy();
const work = await mkdtemp(path.join(os.tmpdir(), 'barge-auto-grid-'));
const base: ConnectionConfig = {
  endpoint: server.endpoint,
  region: server.region,
  accessKeyId: server.accessKeyId,
  secretAccessKey: server.secretAccessKey,
  pathStyle: true,
};

async function folderOf(name: string, count: number, size: number): Promise<string> {
  const folder = path.join(work, name);
  await mkdir(folder, { recursive: true });
  const body = Buffer.alloc(size, 7);
  for (let i = 0; i < count; i++) await writeFile(path.join(folder, `o${i}.bin`), body);
  return folder;
}

interface Cell {
  readonly seconds: number;
  readonly objectsPerSecond: number;
  readonly bytesPerSecond: number;
  readonly retries: number;
  readonly threads: number;
  readonly peakThreads: number;
  readonly partSizeBytes: number;
}

/** One upload of `source` on a fresh engine with `settings`; its pace and what Auto ended with. */
async function run(endpoint: string, source: string, settings: SettingsPatch): Promise<Cell> {
  const engine = new Engine({ settings: { ...settings, maxAttempts: 20 } });
  try {
    const connection = await engine.connect({ ...base, endpoint });
    const bucket = `grid-${Math.random().toString(36).slice(2, 10)}`;
    await createBucket(connection, bucket);
    const started = performance.now();
    const end = await engine.upload(connection, { sources: [source], bucket, destination: '' }).finished();
    const seconds = (performance.now() - started) / 1000;
    if (end.state.status !== 'completed') throw new Error(`${source}: ${JSON.stringify(end.state)}`);
    const auto = engine.stats().auto!;
    return {
      seconds,
      objectsPerSecond: end.progress.objectsDone / seconds,
      bytesPerSecond: end.progress.bytesDone / seconds,
      retries: end.progress.retries ?? 0,
      threads: auto.threads,
      peakThreads: auto.peakThreads,
      partSizeBytes: auto.partSizeBytes,
    };
  } finally {
    await engine.close();
  }
}

function settingsFor(threads: number | 'auto'): SettingsPatch {
  return threads === 'auto' ? {} : { threads, partSizeBytes: 16 * MIB };
}

function say(label: string, cell: Cell, large: boolean): void {
  const pace = large ? `${(cell.bytesPerSecond / MIB).toFixed(1)} MiB/s` : `${cell.objectsPerSecond.toFixed(0)} obj/s`;
  console.log(
    `${label.padEnd(28)} ${pace.padStart(12)}  ${cell.seconds.toFixed(2)} s  retries ${cell.retries}  ` +
      `threads ${cell.threads} (peak ${cell.peakThreads})  part ${cell.partSizeBytes / MIB} MiB`,
  );
}

async function sweep(name: string, endpoint: string, sources: readonly [string, string, boolean][]) {
  console.log(`\n## ${name}`);
  for (const [label, source, large] of sources) {
    const best = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++)
      // The order turns each round: a cell run after several large uploads runs while the disk still
      // writes theirs back, and would be measured slower for its place alone.
      for (const threads of [...SWEEP.slice(round % SWEEP.length), ...SWEEP.slice(0, round % SWEEP.length)]) {
        const cell = await run(endpoint, source, settingsFor(threads));
        say(`${label} @ ${threads}`, cell, large);
        const pace = large ? cell.bytesPerSecond : cell.objectsPerSecond;
        best.set(String(threads), Math.max(best.get(String(threads)) ?? 0, pace));
      }
    const fixed = Math.max(...SWEEP.filter((t) => t !== 'auto').map((t) => best.get(String(t))!));
    console.log(`${label}: Auto ${((100 * best.get('auto')!) / fixed).toFixed(0)}% of the best fixed`);
  }
}

try {
  const sources: [string, string, boolean][] = [
    ['16 KiB x 256', await folderOf('s16k', OBJECTS, 16 * KIB), false],
    ['256 KiB x 256', await folderOf('s256k', OBJECTS, 256 * KIB), false],
    ['2 MiB x 256', await folderOf('s2m', OBJECTS, 2 * MIB), false],
    [`${LARGE_BYTES / MIB} MiB file`, await folderOf('large', 1, LARGE_BYTES), true],
  ];
  if (!values.only || values.only === 'latency') {
    const proxy = await toxiproxy.createProxy('latency', server.endpoint);
    for (const stream of ['upstream', 'downstream'] as const)
      await proxy.addToxic(`delay-${stream}`, { type: 'latency', attributes: { latency: 25 } }, { stream });
    await sweep('25 ms each way (toxiproxy)', proxy.endpoint, sources);
  }
  if (!values.only || values.only === 'loopback') {
    console.log('\n## loopback: fixed 64 against Auto');
    for (const [label, source, large] of sources)
      for (let round = 0; round < ROUNDS; round++)
        for (const threads of round % 2 ? (['auto', 64] as const) : ([64, 'auto'] as const))
          say(`${label} @ ${threads}`, await run(server.endpoint, source, settingsFor(threads)), large);
  }
  if (!values.only || values.only === 'slowdown') {
    console.log('\n## one request in ten answered 503 SlowDown, 25 ms each way: fixed 256 against Auto');
    const proxy = await toxiproxy.createProxy('slow-latency', server.endpoint);
    for (const stream of ['upstream', 'downstream'] as const)
      await proxy.addToxic(`delay-${stream}`, { type: 'latency', attributes: { latency: 25 } }, { stream });
    const faults = await startFaultProxy(proxy.endpoint);
    let count = 0;
    faults.setRule((request) => (request.method === 'PUT' && ++count % 10 === 0 ? { kind: 'slow-down' } : undefined));
    const many = await folderOf('s16k-2000', 2_000, 16 * KIB);
    for (let round = 0; round < ROUNDS; round++)
      for (const threads of round % 2 ? (['auto', 256] as const) : ([256, 'auto'] as const))
        say(`16 KiB x 2000 @ ${threads}`, await run(faults.endpoint, many, settingsFor(threads)), false);
    await faults.close();
  }
} finally {
  await toxiproxy.stop();
  await server.stop();
  await rm(work, { recursive: true, force: true });
}
