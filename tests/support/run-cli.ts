// Run the real `barge` command line in a child process against the test server.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, inject } from 'vitest';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
/** The bundled command line, as it ships (the integration setup builds it). */
export const BARGE = path.join(root, 'app', 'dist', 'barge.mjs');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A `barge` process still running: its output so far, and its end. */
export interface CliProcess {
  readonly child: ChildProcess;
  readonly output: { stdout: string; stderr: string };
  /** The standard output as bytes (`output.stdout` is it decoded as UTF-8). */
  readonly stdoutBytes: Buffer[];
  readonly done: Promise<CliResult>;
}

/** Each test run journals into its own folder, never the user's ~/.config/barge. */
const defaultDataDir = mkdtempSync(path.join(os.tmpdir(), 'barge-cli-data-'));

/** `wrap`: a program (and its arguments) that runs barge's command line, such as one that gives it a terminal. */
export function startCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number; cwd?: string; wrap?: readonly string[] } = {},
): CliProcess {
  const s3 = inject('s3');
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    BARGE_DATA_DIR: defaultDataDir,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_ENDPOINT_URL: s3.endpoint,
    AWS_REGION: s3.region,
    ...options.env,
  };
  const command = [...(options.wrap ?? []), process.execPath, BARGE, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    env,
    uid: options.uid,
    gid: options.gid,
    cwd: options.cwd ?? root,
  });
  const output = { stdout: '', stderr: '' };
  const stdoutBytes: Buffer[] = [];
  child.stdout!.on('data', (c: Buffer) => {
    stdoutBytes.push(c);
    output.stdout += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    output.stderr += c.toString();
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ...output }));
  });
  return { child, output, stdoutBytes, done };
}

export function runCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number; cwd?: string } = {},
): Promise<CliResult> {
  return startCli(args, options).done;
}

/** Every key in `bucket`, sorted, as `barge ls -r --json` lists them. */
export async function keysListedByCli(bucket: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  const listed = await runCli(['ls', '-r', '--json', `s3://${bucket}/`], { env });
  expect(listed.code).toBe(0);
  return listed.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { key: string }).key)
    .sort();
}
