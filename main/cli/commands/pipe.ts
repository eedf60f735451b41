// barge pipe: standard input stored as one object, in parts of the part size, a few in flight.
//
// Memory stays at a few parts whatever the stream's length. Ctrl-C, or a failure, aborts the multipart
// upload before barge exits: no parts are left behind in the store.

import { formatBytes } from '../../../src/byte-units.ts';
import { printable, printableJson } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { untilInterrupted } from '../interrupt.ts';
import { s3Object } from './object-address.ts';

export async function pipe(cli: CliContext): Promise<number> {
  const { args, json, uploadOptions } = cli.options;
  if (args.length !== 1) throw usageError('pipe takes one object to write: ... | barge pipe s3://bucket/key.');
  const { bucket, key } = s3Object(args[0]!, 'pipe');
  const stdin = cli.stdin ?? process.stdin;
  let stored;
  let interrupted;
  try {
    interrupted = await untilInterrupted(async (_stopped, signal) => {
      stored = await cli.service.writeObject({ connectionId: cli.connectionId, bucket, key }, stdin, {
        uploadOptions,
        signal,
      });
    });
  } finally {
    // An input still open (a stop, a failure) would keep the process alive, reading on for no one.
    if (stdin === process.stdin && !process.stdin.readableEnded) process.stdin.destroy();
  }
  if (interrupted || stored === undefined) {
    cli.stderr.write(`Stopped: nothing was stored at s3://${printable(`${bucket}/${key}`)}, and no parts were left.\n`);
    return 130;
  }
  const { size, parts, etag, versionId } = stored;
  if (json) cli.stdout.write(`${printableJson({ bucket, key, size, parts, etag, versionId })}\n`);
  else
    cli.stderr.write(
      `Stored s3://${printable(`${bucket}/${key}`)} (${formatBytes(size)}${parts > 1 ? ` in ${parts} parts` : ''}).\n`,
    );
  return 0;
}
