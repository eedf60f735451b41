// barge: the command line over the transfer engine.
//
// This file is the whole of what runs before the command is known: it loads the dispatcher and,
// through it, only what the command needs (see main.ts).

import { enableCompileCache } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { capYoungGeneration } from './young-generation.ts';

// V8 keeps the code it compiled for each module, and later runs load it instead of compiling the
// source again (NODE_DISABLE_COMPILE_CACHE=1 turns it off). In the user's own cache folder, not
// Node's default in the shared temporary folder, where another user could plant code.
enableCompileCache(
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'barge', 'compile-cache'),
);

capYoungGeneration();

// `barge ls | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// A terminal that goes away (its window closed, an SSH session dropped) fails every later write
// with EIO, and the hangup that comes with it (SIGHUP) cancels the run and cleans up: a write that
// cannot reach the terminal must not end the process first and leave the leftovers behind.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EIO' && error.code !== 'EPIPE') throw error;
  });
}

const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
