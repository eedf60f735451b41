// barge cat: one object's bytes to standard output, in order, fetched as ranges in parallel and checked.
//
// The check is a download's: the object's checksum or ETag, computed as the bytes pass. Its last chunk
// is held back until they match, so a reader that takes the output whole never gets a wrong object
// whole; a mismatch fails the command (exit 1) with the reason.

import { pipeline } from 'node:stream/promises';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { untilInterrupted } from '../interrupt.ts';
import { s3Object } from './object-address.ts';

export async function cat(cli: CliContext): Promise<number> {
  const { args } = cli.options;
  if (args.length !== 1) throw usageError('cat takes one object: barge cat s3://bucket/key.');
  const { bucket, key } = s3Object(args[0]!, 'cat');
  const interrupted = await untilInterrupted(async (_stopped, signal) => {
    const opened = await cli.service.readObject({ connectionId: cli.connectionId, bucket, key }, signal);
    // The standard output is not ended: main's caller owns it (and a test's captured stream is reused).
    await pipeline(opened.body, cli.stdout, { signal, end: false });
  });
  return interrupted ? 130 : 0;
}
