// What every bench row shares: a command run and measured from outside (wall time, and peak memory and CPU
// from GNU time), medians, random files, and Barge's and s5cmd's command lines for an endpoint.
//
// Figures, not assertions: a row reports ratios against a peer measured in the same run, since the
// machine is shared and its speed drifts.

import { spawn } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { S3ServerInfo } from '../support/s3-server.ts';
import { bargeEnv, findBinary } from './peers.ts';

export interface Measurement {
  readonly seconds: number;
  readonly maxRssMiB: number | undefined;
  readonly cpuSeconds: number | undefined;
  /** server-copy: the client's bytes to the store and back, counted on the wire. */
  readonly clientBytes?: { readonly sent: number; readonly received: number };
  /** What the command printed on stdout (its last 64 KiB), where asked for: Barge's `--json` end. */
  readonly stdout?: string;
  /** The command's exit code, where a failure was accepted (`acceptExit`): 0 otherwise. */
  readonly exitCode?: number;
}

/** A command with its environment: a tool as one row runs it. */
export interface Runner {
  readonly name: string;
  readonly command: string;
  readonly env: NodeJS.ProcessEnv;
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const KEPT_OUTPUT_CHARS = 64 * 1024;

/** Run a command once; wall time, and peak memory and CPU from GNU time where it is installed. */
export async function measure(
  runner: Runner,
  args: string[],
  scratch: string,
  options: { keepStdout?: boolean; acceptExit?: readonly number[] } = {},
): Promise<Measurement> {
  const timeFile = path.join(scratch, 'time.out');
  const [command, fullArgs] = TIME
    ? [TIME, ['-f', '%M %U %S', '-o', timeFile, runner.command, ...args]]
    : [runner.command, args];
  const started = process.hrtime.bigint();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) => {
      const child = spawn(command, fullArgs, {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...runner.env },
        stdio: ['ignore', options.keepStdout ? 'pipe' : 'ignore', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout?.on('data', (c: Buffer) => {
        out = (out + c.toString()).slice(-KEPT_OUTPUT_CHARS);
      });
      child.stderr?.on('data', (c: Buffer) => {
        err = (err + c.toString()).slice(-2000);
      });
      child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0 && !options.acceptExit?.includes(code ?? -1))
    throw new Error(`${runner.name} ${args.join(' ')} exited ${code}: ${stderr}`);
  const kept = { ...(options.keepStdout ? { stdout } : {}), ...(code !== 0 ? { exitCode: code! } : {}) };
  if (!TIME) return { seconds, maxRssMiB: undefined, cpuSeconds: undefined, ...kept };
  const [rssKiB, user, sys] = (await readFile(timeFile, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number);
  return { seconds, maxRssMiB: rssKiB! / 1024, cpuSeconds: user! + sys!, ...kept };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function writeRandomFile(file: string, size: number): Promise<void> {
  const handle = await open(file, 'w');
  const chunk = Buffer.alloc(Math.min(size, 8 * 1024 * 1024));
  for (let written = 0; written < size; written += chunk.length) {
    randomFillSync(chunk);
    await handle.write(chunk, 0, Math.min(chunk.length, size - written));
  }
  await handle.close();
}

/** A folder of `count` random files of `size` bytes each (made once: an existing folder is kept). */
export async function randomFolder(dir: string, count: number, size: number): Promise<string> {
  if (existsSync(dir)) return dir;
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++) await writeRandomFile(path.join(dir, `f${String(i).padStart(5, '0')}.bin`), size);
  return dir;
}

/** Barge's command line against `server` (or a proxy in front of it): `node barge.mjs --quiet ...`. */
export function bargeRunner(server: S3ServerInfo, root: string, dataDir: string, name = 'barge') {
  return {
    name,
    command: process.execPath,
    env: bargeEnv(server, dataDir),
    /** The arguments of one run: `barge --quiet <args>`. */
    args: (...rest: string[]) => [path.join(root, 'app', 'dist', 'barge.mjs'), '--quiet', ...rest],
  };
}
export type BargeRunner = ReturnType<typeof bargeRunner>;

/** s5cmd against `server` (or a proxy in front of it), or undefined where it is not installed. */
export function s5cmdRunner(server: S3ServerInfo) {
  const binary = findBinary('s5cmd');
  if (!binary) return undefined;
  return {
    name: 's5cmd',
    command: binary,
    env: {
      AWS_ACCESS_KEY_ID: server.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
      AWS_REGION: server.region,
    },
    args: (...rest: string[]) => ['--endpoint-url', server.endpoint, ...rest],
  };
}
export type S5cmdRunner = NonNullable<ReturnType<typeof s5cmdRunner>>;

/** Barge's Auto flags (§1 of issue 29): threads and part size chosen by the engine. */
export const AUTO_FLAGS = ['--threads', 'auto', '--part-size', 'auto'];

/**
 * Whether this build of Barge takes `--threads auto --part-size auto`: a CLI that does not know Auto refuses
 * them as a usage error (exit 2). The copy's source is `file` with `.absent` added: a file that is not there
 * fails the copy after the options are read (exit 1), with nothing sent. (`cp` has no --dry-run: a probe with
 * it was refused as a usage error by every build, and the rows left Auto out.)
 */
export async function bargeTakesAuto(barge: BargeRunner, bucket: string, file: string): Promise<boolean> {
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(barge.command, barge.args('cp', ...AUTO_FLAGS, `${file}.absent`, `s3://${bucket}/auto-probe`), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...barge.env },
      stdio: 'ignore',
    });
    child.on('close', resolve);
  });
  const takes = code !== 2;
  if (!takes) process.stderr.write('  this build of Barge has no Auto (--threads auto): its columns are left out\n');
  return takes;
}

/** Runs each tool once a round, alternating the order, so no tool always runs on a warm (or cold) store. */
export function alternate<T>(tools: readonly T[], round: number): readonly T[] {
  return round % 2 === 0 ? tools : [...tools].reverse();
}

/** A figure as a percentage, or "n/a". */
export function percent(part: number | undefined, whole: number | undefined): string {
  return part === undefined || whole === undefined || whole === 0 ? 'n/a' : `${((part / whole) * 100).toFixed(0)}%`;
}

/** The peak of the runs' peak memory, in MiB, or "n/a" without GNU time. */
export function peakRss(runs: readonly Measurement[]): string {
  return runs.length > 0 && runs.every((m) => m.maxRssMiB !== undefined)
    ? `${Math.max(...runs.map((m) => m.maxRssMiB!)).toFixed(0)} MiB`
    : 'n/a';
}

/** The median CPU time of the runs, or "n/a". */
export function medianCpu(runs: readonly Measurement[]): string {
  return runs.length > 0 && runs.every((m) => m.cpuSeconds !== undefined)
    ? `${median(runs.map((m) => m.cpuSeconds!)).toFixed(2)} s`
    : 'n/a';
}

/** One run, its failure reported and not thrown: one tool's quirk must not cost the rest of the run. */
export async function tryMeasure(
  label: string,
  run: () => Promise<Measurement>,
  into: Measurement[],
): Promise<Measurement | undefined> {
  try {
    const m = await run();
    into.push(m);
    process.stderr.write(`  ${label}: ${m.seconds.toFixed(2)} s\n`);
    return m;
  } catch (error) {
    process.stderr.write(`  ${label}: FAILED: ${(error as Error).message}\n`);
    return undefined;
  }
}
