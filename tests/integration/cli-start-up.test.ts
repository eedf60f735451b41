// What a one-file `barge cp` does before and after its one request: a small transfer is mostly start-up
// (issue 29 §4), so what it need not load it does not. Told by tests/support/start-up-trap.ts, loaded before
// the command line.

import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { setUpEngine } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

const TRAP = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'support', 'start-up-trap.ts');

it('a one-file cp up and down formats no number by locale (which loads ICU data): its summary still groups digits', async () => {
  const t = await setUpEngine();
  try {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-start-up-'));
    const file = path.join(dir, 'one.txt');
    await writeFile(file, 'one small file');
    const env = { NODE_OPTIONS: `--import=${TRAP}` };
    const up = await runCli(['cp', file, `s3://${t.bucket}/one.txt`], { env });
    expect(up.code).toBe(0);
    expect(up.stderr).toMatch(/^Uploaded 1 of 1 object, 14 B in /m);
    const down = await runCli(['cp', `s3://${t.bucket}/one.txt`, path.join(dir, 'back.txt')], { env });
    expect(down.code).toBe(0);
    expect(await readFile(path.join(dir, 'back.txt'), 'utf8')).toBe('one small file');
    expect(`${up.stderr}${down.stderr}`).not.toContain('start-up trap');
  } finally {
    await t.close();
  }
});
