// What a command gets: its options and the streams to write to (injected, so tests can capture them).

import type { CliOptions } from './options.ts';

export interface CliContext {
  readonly options: CliOptions;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
}
