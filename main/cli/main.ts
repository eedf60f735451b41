// The command line's dispatcher: parse, connect, run one command, turn errors into one clear line.

import { defaultDataDir } from '../service/data-dir.ts';
import type { BargeService } from '../service/barge-service.ts';
import { createRuntime } from '../service/runtime.ts';
import { toBargeError } from '../engine/errors.ts';
import { printable } from '../../src/s3-names.ts';
import { abortUploads, mb, rb } from './commands/buckets.ts';
import { cp } from './commands/cp.ts';
import { ls } from './commands/ls.ts';
import { rm } from './commands/rm.ts';
import type { CliContext } from './context.ts';
import { parseCli, usageError, USAGE } from './options.ts';
import { cliService } from './service-call.ts';

const JOURNALED_COMMANDS = new Set(['cp', 'rm']);

export interface CliStreams {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
}

/** Run the command line; returns the exit status (0 ok, 1 failed, 2 usage, 130 cancelled). */
export async function main(argv: readonly string[], streams: CliStreams): Promise<number> {
  let service: BargeService | undefined;
  try {
    const options = parseCli(argv);
    if (options.version) {
      streams.stdout.write('barge 0.1.0\n');
      return 0;
    }
    if (options.help || options.command === undefined) {
      streams.stdout.write(`${USAGE}\n`);
      return options.help ? 0 : 2;
    }
    // Transfers are journaled, so running the same command again after a crash or a kill goes on
    // where it stopped.
    const journal = JOURNALED_COMMANDS.has(options.command) && !options.dryRun && !streams.env.BARGE_NO_JOURNAL;
    service = await createRuntime({
      host: 'cli',
      dataDir: defaultDataDir(streams.env),
      env: streams.env,
      settings: options.settings,
      journal,
      warn: (message) => streams.stderr.write(`barge: warning: ${message}\n`),
    });
    const calls = cliService(service);
    const connection = await calls.call('connections.open', options.connection);
    const cli: CliContext = { options, ...streams, service: calls, connectionId: connection.id };
    switch (options.command) {
      case 'ls':
        return await ls(cli);
      case 'cp':
        return await cp(cli);
      case 'rm':
        return await rm(cli);
      case 'mb':
        return await mb(cli);
      case 'rb':
        return await rb(cli);
      case 'abort-uploads':
        return await abortUploads(cli);
      default:
        throw usageError(`Unknown command "${options.command}".`);
    }
  } catch (error) {
    const failure = toBargeError(error);
    // Messages carry server text and names: shown escaped, line by line (a usage error has two).
    streams.stderr.write(`barge: ${failure.message.split('\n').map(printable).join('\n')}\n`);
    if (streams.env.BARGE_DEBUG) streams.stderr.write(`${(error as Error).stack ?? ''}\n`);
    return failure.code === 'UsageError' ? 2 : 1;
  } finally {
    await service?.close();
  }
}
