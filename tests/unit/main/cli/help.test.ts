// The usage: asked for with --help or `barge help [command]`, it is the answer (exit 0); a bare `barge`
// gets it as a usage error (exit 2); an unknown command is named, asked about or run.

import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { main } from '../../../../main/cli/main.ts';
import { USAGE } from '../../../../main/cli/options.ts';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  (stderr as unknown as PassThrough).on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const code = await main(argv, { stdout, stderr, env: {} });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

it('prints the usage and succeeds for --help, `help` and `help COMMAND`', async () => {
  for (const argv of [['--help'], ['help'], ['help', 'speedtest'], ['cp', '--help']]) {
    const { code, stdout } = await run(argv);
    expect({ argv, code }).toEqual({ argv, code: 0 });
    expect(stdout).toBe(`${USAGE}\n`);
  }
});

it('gives the usage as an error with no command, and names an unknown one', async () => {
  expect(await run([])).toMatchObject({ code: 2, stdout: `${USAGE}\n` });
  for (const argv of [['hepl'], ['help', 'hepl']]) {
    const unknown = await run(argv);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "hepl"');
  }
});
