// The command line's dispatcher: parse, connect, run one command, turn errors into one clear line.
//
// Start-up is part of every command's time: a one-file cp is mostly start-up. So what a command
// does not need is not loaded: the service, the engine and the SDK, the journal (node:sqlite), the
// contract's schemas and each command's module come by dynamic import once the arguments are
// parsed, and `barge --help` loads none of them (the build splits them into chunks of their own).

import type { BargeService } from '../service/barge-service.ts';
import { BargeError } from '../../src/errors.ts';
import { printable } from '../../src/unsafe-text.ts';
import type { CliContext } from './context.ts';
import { parseCli, usageError, USAGE } from './options.ts';

type Command = (cli: CliContext) => Promise<number>;

/** Each command's module, loaded when it runs. */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  ls: async () => (await import('./commands/ls.ts')).ls,
  cp: async () => (await import('./commands/cp.ts')).cp,
  rm: async () => (await import('./commands/rm.ts')).rm,
  sync: async () => (await import('./commands/sync.ts')).sync,
  mv: async () => (await import('./commands/s3-copy.ts')).mv,
  mb: async () => (await import('./commands/buckets.ts')).mb,
  rb: async () => (await import('./commands/buckets.ts')).rb,
  mkdir: async () => (await import('./commands/mkdir.ts')).mkdir,
  'abort-uploads': async () => (await import('./commands/buckets.ts')).abortUploads,
  du: async () => (await import('./commands/du.ts')).du,
  cat: async () => (await import('./commands/cat.ts')).cat,
  pipe: async () => (await import('./commands/pipe.ts')).pipe,
  stat: async () => (await import('./commands/stat.ts')).stat,
  presign: async () => (await import('./commands/presign.ts')).presign,
  history: async () => (await import('./commands/history.ts')).history,
  undo: async () => (await import('./commands/history.ts')).undo,
  restore: async () => (await import('./commands/restore.ts')).restore,
  lifecycle: async () => (await import('./commands/lifecycle.ts')).lifecycle,
  speedtest: async () => (await import('./commands/speedtest.ts')).speedtest,
};

// speedtest: the journal keeps each endpoint's last result.
const JOURNALED_COMMANDS = new Set(['cp', 'mv', 'rm', 'sync', 'history', 'undo', 'restore', 'speedtest']);

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
    // `barge help speedtest` as git and aws read it: the usage, whose lines name every command's options.
    const asked = options.help || options.command === 'help';
    const about = options.command === 'help' ? options.args[0] : undefined;
    if (about !== undefined && !Object.hasOwn(COMMANDS, about)) throw usageError(`Unknown command "${about}".`);
    if (asked || options.command === undefined) {
      streams.stdout.write(`${USAGE}\n`);
      return asked ? 0 : 2;
    }
    const loadCommand = Object.hasOwn(COMMANDS, options.command) ? COMMANDS[options.command] : undefined;
    if (loadCommand === undefined) throw usageError(`Unknown command "${options.command}".`);
    const [command, { createRuntime }, { defaultDataDir }, { cliService }] = await Promise.all([
      loadCommand(),
      import('../service/runtime.ts'),
      import('../service/data-dir.ts'),
      import('./service-call.ts'),
    ]);
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
    const source = options.sourceConnection && (await calls.call('connections.open', options.sourceConnection));
    const cli: CliContext = {
      options,
      ...streams,
      service: calls,
      connectionId: connection.id,
      ...(source ? { sourceConnectionId: source.id } : {}),
      journaled: journal,
    };
    return await command(cli);
  } catch (error) {
    // Usage errors and the service's answers are already said in words; anything else is put in
    // words by the service (loaded only then: --help must not pay for it).
    const failure =
      error instanceof BargeError ? error : (await import('../service/barge-service.ts')).describeError(error);
    // Messages carry server text and names: shown escaped, line by line (a usage error has two).
    streams.stderr.write(`barge: ${failure.message.split('\n').map(printable).join('\n')}\n`);
    if (streams.env.BARGE_DEBUG) streams.stderr.write(`${(error as Error).stack ?? ''}\n`);
    return failure.code === 'UsageError' ? 2 : 1;
  } finally {
    await service?.close();
  }
}
