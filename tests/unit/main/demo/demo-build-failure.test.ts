// "Open the demo store" on a machine without Go. The installer says why it cannot build MinIO
// ("Go is needed … https://go.dev/dl/") on the host's stderr, where a browser's user never looks:
// the failure demo.open answers (and the window shows) carries the installer's reason and the way out.

import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { buildFailure, ensureMinio } from '../../../../main/demo/demo-server.ts';

const saved = { PATH: process.env.PATH, BARGE_TOOLS_DIR: process.env.BARGE_TOOLS_DIR };
let tools: string | undefined;

afterEach(async () => {
  process.env.PATH = saved.PATH;
  if (saved.BARGE_TOOLS_DIR === undefined) delete process.env.BARGE_TOOLS_DIR;
  else process.env.BARGE_TOOLS_DIR = saved.BARGE_TOOLS_DIR;
  if (tools) await rm(tools, { recursive: true, force: true });
});

// (Where Go is on the bare PATH the build would really start: not this test's business.)
it.skipIf(existsSync('/usr/bin/go') || existsSync('/bin/go'))(
  'says why the demo store cannot be built, and what to do, where the window shows it',
  async () => {
    tools = await mkdtemp(path.join(os.tmpdir(), 'barge-r14-tools-'));
    process.env.BARGE_TOOLS_DIR = tools;
    process.env.PATH = '/usr/bin:/bin';
    const said: string[] = [];
    const failure = await ensureMinio((line) => said.push(line)).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toMatch(/Go is needed/);
    expect(failure!.message).toContain('Install Go (https://go.dev/dl/)');
    expect(failure!.message).not.toContain('install-s3-server.sh');
  },
);

it("says the installer's last line when another step fails, and where the whole log is", () => {
  const message = buildFailure('Building MinIO RELEASE…\ngo: github.com/minio/minio: connection refused\n\n', 1);
  expect(message).toContain('go: github.com/minio/minio: connection refused');
  expect(message).toContain('output of the Barge host');
  expect(buildFailure('', 9)).toContain('the installer stopped (exit 9)');
});
