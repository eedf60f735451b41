// npm run bench: Barge against the best peers, on a real MinIO, side by side in one run.
//
// Workloads: 2,000 x 64 KiB files up; one 1 GiB file up; that object down; list 20,000 keys;
// delete 20,000 keys; sync 20,000 small files of which 200 changed (each tool's own prefix, seeded
// once, untimed; 200 files rewritten with another size before each round; Barge's dry run before
// its timed run shows what it will send); copy that 1 GiB object to another key in the store
// (server-copy: each tool through a relay that counts the client's bytes each way,
// counting-proxy.ts); copy it to a second MinIO (cross-copy: Barge with --source-endpoint-url,
// rclone between two remotes; s5cmd and aws-cli take one endpoint a run). Tools run in alternating
// order, BENCH_ROUNDS times each (default 3), and the median is reported, with peak memory (max RSS)
// and CPU time, and the ratio to s5cmd. Peers come from PATH or ~/.cache/s3lab/bin
// (../shared/lab/install-peers.sh); BENCH_PEERS=s5cmd,rclone picks them.
//
// Rows of their own, each a table (Barge beside s5cmd, or Barge's Auto beside fixed settings):
// - throttled (throttled.ts): 503 SlowDown from a store that serves 48 requests at once (about one in ten
//   at 64 threads), and one request in ten whatever the load; Auto against a fixed 256.
// - auto-loopback (auto-loopback.ts): Auto against the fixed default 64 on loopback (goal: <= 5% slower).
// - latency-grid (latency-grid.ts): 25 ms each way through toxiproxy; threads 1-256 by object size and
//   a 1 GiB file up and down, with s5cmd and Auto; about 15-20 minutes at 3 rounds (BENCH_GRID_ROWS=2MiB,large
//   runs only those rows).
// - many-keys-down (many-keys-down.ts): cp -r of 1,000,000 keys (BENCH_KEYS), time and peak RSS.
// - many-small (many-small.ts): cp -r of 50,000 x 1 KiB files (BENCH_SMALL_COUNT) up and down, time and RSS.
// - huge-file (huge-file.ts): one 10 GiB file (BENCH_HUGE_GIB) up and down, time and peak RSS.
//
// BENCH_WORKLOADS=small-up,list picks workloads and rows; by default every workload above and the
// throttled and auto-loopback rows (about 20 minutes); the four long rows run only when named, or
// with BENCH_WORKLOADS=all. BENCH_ROUNDS=1 makes a long row a quick look.
// BENCH_JOURNAL_COST=1 also runs Barge with its journal off; BENCH_CHECK_COST=1 with Content-MD5 on
// every upload request and with no upload checksum. Not part of the tests: figures, not assertions.

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Engine } from '../../main/engine/engine.ts';
import { formatBytes } from '../../src/byte-units.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { startS3Server } from '../support/s3-server.ts';
import { bargeTool, peerTools, runsWorkload } from './peers.ts';
import { startCountingProxy } from './counting-proxy.ts';
import type { Tool, Workload, WorkloadArgs } from './peers.ts';
import { measure, median, writeRandomFile } from './bench-kit.ts';
import type { Measurement } from './bench-kit.ts';
import type { RowContext, RowResult } from './bench-row.ts';
import { autoLoopback } from './auto-loopback.ts';
import { hugeFile } from './huge-file.ts';
import { latencyGrid } from './latency-grid.ts';
import { manyKeysDown } from './many-keys-down.ts';
import { manySmall } from './many-small.ts';
import { throttled } from './throttled.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SMALL_FILES = 2_000;
const SMALL_FILE_BYTES = 64 * 1024;
const LARGE_FILE_BYTES = 1024 ** 3;
const LIST_KEYS = 20_000;
const SYNC_FILES = 20_000;
const SYNC_CHANGED = 200;
const SYNC_FILE_BYTES = 1024;
const ALL: Workload[] = ['small-up', 'large-up', 'large-down', 'list', 'delete', 'sync', 'server-copy', 'cross-copy'];
/** The rows of their own, in the order they run; each returns its table. */
const ROWS = {
  throttled,
  'auto-loopback': autoLoopback,
  'latency-grid': latencyGrid,
  'many-keys-down': manyKeysDown,
  'many-small': manySmall,
  'huge-file': hugeFile,
} satisfies Record<string, (ctx: RowContext) => Promise<RowResult>>;
type Row = keyof typeof ROWS;
/** Rows too long for the default run (each many minutes). */
const LONG_ROWS: Row[] = ['latency-grid', 'many-keys-down', 'many-small', 'huge-file'];
const DEFAULT_ROWS = (Object.keys(ROWS) as Row[]).filter((row) => !LONG_ROWS.includes(row));
const picked =
  process.env.BENCH_WORKLOADS === 'all'
    ? [...ALL, ...Object.keys(ROWS)]
    : (process.env.BENCH_WORKLOADS?.split(',') ?? [...ALL, ...DEFAULT_ROWS]);
const unknown = picked.filter((name) => !ALL.includes(name as Workload) && !Object.hasOwn(ROWS, name));
if (unknown.length > 0) throw new Error(`BENCH_WORKLOADS: unknown ${unknown.join(', ')}`);
const workloads = picked.filter((name): name is Workload => ALL.includes(name as Workload));
const rows = picked.filter((name): name is Row => Object.hasOwn(ROWS, name));

/** Put LIST_KEYS empty objects below `prefix`, fast, with Barge's engine in-process. */
async function seedKeys(
  engine: Engine,
  connection: S3Connection,
  bucket: string,
  seedDir: string,
  prefix: string,
): Promise<void> {
  const job = engine.upload(connection, { sources: [seedDir], bucket, destination: prefix });
  const end = await job.finished();
  if (end.state.status !== 'completed') throw new Error(`seeding failed: ${JSON.stringify(end.state)}`);
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'barge-bench-'));
  const server = await startS3Server('minio');
  const engine = new Engine({ settings: { threads: 128 } });
  const relay = await startCountingProxy(server.endpoint);
  // cross-copy: a second store, the copy's destination.
  const otherServer = workloads.includes('cross-copy') ? await startS3Server('minio') : undefined;
  try {
    const connection = await engine.connect({
      endpoint: server.endpoint,
      region: server.region,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
    });
    const bucket = 'bench';
    await createBucket(connection, bucket);
    const otherConnection =
      otherServer &&
      (await engine.connect({
        endpoint: otherServer.endpoint,
        region: otherServer.region,
        accessKeyId: otherServer.accessKeyId,
        secretAccessKey: otherServer.secretAccessKey,
      }));
    if (otherConnection) await createBucket(otherConnection, bucket);
    const dataDir = path.join(scratch, 'barge-data');
    // BENCH_JOURNAL_COST=1 adds Barge with its journal off, to measure what recording costs.
    const withoutJournal = process.env.BENCH_JOURNAL_COST ? [bargeTool(server, root, dataDir, false)] : [];
    // BENCH_CHECK_COST=1 adds Barge sending Content-MD5 on every upload request (as to a store that
    // ignores CRCs) and Barge sending no checksum, to measure what the upload checks cost.
    const checkCost = process.env.BENCH_CHECK_COST
      ? [bargeTool(server, root, dataDir, true, 'md5'), bargeTool(server, root, dataDir, true, 'off')]
      : [];
    const tools = [
      bargeTool(server, root, dataDir),
      ...withoutJournal,
      ...checkCost,
      ...(await peerTools(server, scratch)),
    ];
    // The same tools, through the relay that counts their bytes (server-copy only: it costs a hop).
    const relayed = { ...server, endpoint: relay.endpoint };
    const countedTools = [bargeTool(relayed, root, dataDir), ...(await peerTools(relayed, scratch))];
    console.log(
      `Tools: ${tools.map((t) => t.name).join(', ')}; ${ROUNDS} rounds each, alternating; MinIO at ${server.endpoint}; ${os.cpus().length} cores.`,
    );

    const smallDir = path.join(scratch, 'small');
    const largeFile = path.join(scratch, 'large.bin');
    const seedDir = path.join(scratch, 'seed');
    if (workloads.includes('small-up')) {
      await mkdir(smallDir);
      for (let i = 0; i < SMALL_FILES; i++)
        await writeRandomFile(path.join(smallDir, `f${String(i).padStart(5, '0')}.bin`), SMALL_FILE_BYTES);
    }
    const largeWorkloads: Workload[] = ['large-up', 'large-down', 'server-copy', 'cross-copy'];
    if (workloads.some((w) => largeWorkloads.includes(w))) await writeRandomFile(largeFile, LARGE_FILE_BYTES);
    if (workloads.some((w) => w === 'list' || w === 'delete')) {
      await mkdir(seedDir);
      for (let i = 0; i < LIST_KEYS; i++) await writeFile(path.join(seedDir, `k${String(i).padStart(6, '0')}`), '');
    }
    if (workloads.some((w) => w === 'large-down' || w === 'server-copy' || w === 'cross-copy')) {
      const up = await engine
        .upload(connection, { sources: [largeFile], bucket, destination: 'large/source.bin' })
        .finished();
      if (up.state.status !== 'completed') throw new Error('could not upload the download source');
    }
    if (workloads.includes('list')) await seedKeys(engine, connection, bucket, seedDir, 'listing/');
    // Sync: a folder of small files, copied once into each tool's own prefix (untimed).
    const syncDir = path.join(scratch, 'files');
    if (workloads.includes('sync')) {
      await mkdir(syncDir);
      for (let i = 0; i < SYNC_FILES; i++) await writeRandomFile(path.join(syncDir, syncFileName(i)), SYNC_FILE_BYTES);
      for (const tool of tools) await seedKeys(engine, connection, bucket, syncDir, `sync/${tool.name}/`);
    }

    const results: { workload: Workload; tool: string; m: Measurement[] }[] = [];
    for (const workload of workloads) {
      const these = (workload === 'server-copy' ? countedTools : tools).filter((t) => runsWorkload(t, workload));
      const runs = new Map<string, Measurement[]>(these.map((t) => [t.name, []]));
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate the order, so no tool always runs on a warm (or cold) server.
        const order = round % 2 === 0 ? these : [...these].reverse();
        // The same 200 files change for every tool: another size (and a newer time) each round.
        if (workload === 'sync')
          for (let i = 0; i < SYNC_CHANGED; i++)
            await writeRandomFile(
              path.join(syncDir, syncFileName(i * (SYNC_FILES / SYNC_CHANGED))),
              SYNC_FILE_BYTES + round + 1,
            );
        for (const tool of order) {
          const tag = `${tool.name}-${round}`;
          let args: WorkloadArgs;
          switch (workload) {
            case 'small-up':
              args = { bucket, local: smallDir, key: `small/${tag}/` };
              break;
            case 'large-up':
              args = { bucket, local: largeFile, key: `large/${tag}.bin` };
              break;
            case 'large-down':
              args = { bucket, local: path.join(scratch, 'download.bin'), key: 'large/source.bin' };
              break;
            case 'list':
              args = { bucket, local: '', key: 'listing/' };
              break;
            case 'delete':
              await seedKeys(engine, connection, bucket, seedDir, `delete/${tag}/`);
              args = { bucket, local: '', key: `delete/${tag}/` };
              break;
            case 'sync':
              args = { bucket, local: syncDir, key: `sync/${tool.name}/files/` };
              if (tool.name === 'barge')
                process.stderr.write(`  sync barge round ${round + 1}: ${await bargePlan(tool, args)}\n`);
              break;
            case 'server-copy':
              args = { bucket, local: '', key: 'large/source.bin', copyTo: `copies/${tag}.bin` };
              break;
            case 'cross-copy':
              args = {
                bucket,
                local: '',
                key: 'large/source.bin',
                copyTo: `copies/${tag}.bin`,
                otherEndpoint: otherServer!.endpoint,
              };
              break;
          }
          try {
            relay.reset();
            const measured = await measure(tool, tool.args(workload, args), scratch);
            const m = workload === 'server-copy' ? { ...measured, clientBytes: { ...relay.counts } } : measured;
            runs.get(tool.name)!.push(m);
            process.stderr.write(`  ${workload} ${tool.name} round ${round + 1}: ${m.seconds.toFixed(2)} s\n`);
          } catch (error) {
            // One tool failing (a peer's quirk) must not cost the rest of the run; it shows as failed.
            process.stderr.write(
              `  ${workload} ${tool.name} round ${round + 1}: FAILED: ${(error as Error).message}\n`,
            );
          }
          // Keep the disk from filling: the large objects and downloads go after each run.
          if (workload === 'large-up') await engine.delete(connection, { bucket, keys: [args.key] }).finished();
          if (workload === 'small-up') await engine.delete(connection, { bucket, prefixes: [args.key] }).finished();
          if (workload === 'large-down') await rm(args.local, { force: true });
          if (workload === 'server-copy') await engine.delete(connection, { bucket, keys: [args.copyTo!] }).finished();
          if (workload === 'cross-copy')
            await engine.delete(otherConnection!, { bucket, keys: [args.copyTo!] }).finished();
        }
      }
      for (const tool of these) results.push({ workload, tool: tool.name, m: runs.get(tool.name)! });
    }

    // A memory check of its own: 1 GiB up at 32 threads with 64 MiB parts (goal: under 300 MiB).
    let memoryCheck: Measurement | undefined;
    if (workloads.includes('large-up')) {
      const barge = tools[0]!;
      const cli = [
        path.join(root, 'app', 'dist', 'barge.mjs'),
        '--quiet',
        'cp',
        '--threads',
        '32',
        '--part-size',
        '64MiB',
        largeFile,
        `s3://${bucket}/memory-check.bin`,
      ];
      memoryCheck = await measure(barge, cli, scratch);
    }
    const rowResults: Record<string, RowResult> = {};
    const ctx: RowContext = { server, engine, connection, bucket, scratch, root, dataDir, rounds: ROUNDS };
    for (const row of rows) {
      rowResults[row] = await ROWS[row](ctx);
      // Said as soon as it ends (on stderr, beside the runs): a long run stopped later keeps the rows it finished.
      process.stderr.write(`\n${rowResults[row]!.table}\n\n`);
    }
    if (results.length > 0) printTable(results, memoryCheck);
    for (const row of rows) console.log(`\n${rowResults[row]!.table}`);
    await mkdir(path.join(root, 'test-results'), { recursive: true });
    const figures = Object.fromEntries(rows.map((row) => [row, rowResults[row]!.figures]));
    await writeFile(
      path.join(root, 'test-results', 'bench.json'),
      JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, results, memoryCheck, rows: figures }, null, 2),
    );
  } finally {
    await engine.close();
    await relay.close();
    await server.stop();
    await otherServer?.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

function syncFileName(i: number): string {
  return `f${String(i).padStart(5, '0')}.bin`;
}

/** What Barge's sync will send, by its own dry run (untimed): the proof that it sends only what changed. */
async function bargePlan(tool: Tool, w: WorkloadArgs): Promise<string> {
  const [script, ...rest] = tool.args('sync', w);
  const args = [script!, ...rest.filter((arg) => arg !== '--quiet')];
  args.splice(args.indexOf('sync') + 1, 0, '--dry-run');
  const out = await new Promise<string>((resolve) => {
    const child = spawn(tool.command, args, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...tool.env },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.on('close', () => resolve(text));
  });
  return out.trim().split('\n').at(-1) ?? '';
}

function rateOf(workload: Workload, seconds: number): { value: number; unit: string } {
  switch (workload) {
    case 'sync':
      return { value: SYNC_FILES / seconds, unit: 'files/s' };
    case 'small-up':
      return { value: SMALL_FILES / seconds, unit: 'obj/s' };
    case 'large-up':
    case 'large-down':
    case 'server-copy':
    case 'cross-copy':
      return { value: LARGE_FILE_BYTES / seconds / 1e6, unit: 'MB/s' };
    case 'list':
    case 'delete':
      return { value: LIST_KEYS / seconds, unit: 'keys/s' };
  }
}

function printTable(
  results: { workload: Workload; tool: string; m: Measurement[] }[],
  memoryCheck: Measurement | undefined,
): void {
  const rows = [
    '| workload | tool | median time | rate | vs s5cmd | peak RSS | CPU time | client bytes sent / received |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const workload of new Set(results.map((r) => r.workload))) {
    const forWorkload = results.filter((r) => r.workload === workload);
    const s5 = forWorkload.find((r) => r.tool === 's5cmd');
    const s5Seconds = s5 && s5.m.length > 0 ? median(s5.m.map((m) => m.seconds)) : undefined;
    for (const r of forWorkload) {
      if (r.m.length === 0) {
        rows.push(`| ${workload} | ${r.tool} | failed | | | | | |`);
        continue;
      }
      const seconds = median(r.m.map((m) => m.seconds));
      const rate = rateOf(workload, seconds);
      const rss = r.m.every((m) => m.maxRssMiB !== undefined)
        ? `${Math.max(...r.m.map((m) => m.maxRssMiB!)).toFixed(0)} MiB`
        : 'n/a';
      const cpu = r.m.every((m) => m.cpuSeconds !== undefined)
        ? `${median(r.m.map((m) => m.cpuSeconds!)).toFixed(2)} s`
        : 'n/a';
      const ratio = s5Seconds ? `${(s5Seconds / seconds).toFixed(2)}x` : 'n/a';
      const bytes = r.m[0]?.clientBytes;
      const wire = bytes ? `${formatBytes(bytes.sent)} / ${formatBytes(bytes.received)}` : '';
      rows.push(
        `| ${workload} | ${r.tool} | ${seconds.toFixed(2)} s | ${rate.value.toFixed(0)} ${rate.unit} | ${ratio} | ${rss} | ${cpu} | ${wire} |`,
      );
    }
  }
  console.log(`\n${rows.join('\n')}`);
  if (memoryCheck) {
    const rss = memoryCheck.maxRssMiB;
    console.log(
      `\nMemory: Barge uploading 1 GiB at 32 threads x 64 MiB parts peaked at ${rss?.toFixed(0) ?? 'n/a'} MiB (goal: under 300 MiB) in ${memoryCheck.seconds.toFixed(2)} s.`,
    );
  }
}

await main();
