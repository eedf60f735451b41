// Run the real `barge` command line in a child process against the test server.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
/** The bundled command line, as it ships (the integration setup builds it). */
export const BARGE = path.join(root, 'app', 'dist', 'barge.mjs');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number } = {}): Promise<CliResult> {
  const s3 = inject('s3');
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_ENDPOINT_URL: s3.endpoint,
    AWS_REGION: s3.region,
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BARGE, ...args], { env, uid: options.uid, gid: options.gid, cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
