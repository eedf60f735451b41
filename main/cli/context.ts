// What a command gets: its options, the service and its connection, and the streams to write to
// (injected, so tests can capture them).

import type { CliOptions } from './options.ts';
import type { CliService } from './service-call.ts';

export interface CliContext {
  readonly options: CliOptions;
  readonly stdout: NodeJS.WritableStream;
  /** pipe's input (the process's standard input when absent). */
  readonly stdin?: AsyncIterable<Buffer>;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  readonly service: CliService;
  /** The session connection the command's flags and environment describe. */
  readonly connectionId: string;
  /** cp and mv between s3:// addresses: the session connection --source-* describe, if given. */
  readonly sourceConnectionId?: string;
  /** The command's job is recorded, so running the command again goes on from it (and retries what failed). */
  readonly journaled: boolean;
}
