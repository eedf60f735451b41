// barge: the command line over the transfer engine.

import { main } from './main.ts';

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

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
