// barge ls: buckets, or the keys and folders of a prefix.


import { printableName } from '../../../src/s3-names.ts';
import { isS3Url, parseS3Url } from '../../../src/s3-url.ts';
import { toBargeError } from '../../engine/errors.ts';
import { listBuckets, listObjectPages } from '../../engine/s3/s3-listing.ts';
import type { S3Connection } from '../../engine/s3/s3-connection.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';

export async function ls(connection: S3Connection, cli: CliContext): Promise<number> {
  const { args, json, recursive } = cli.options;
  if (args.length > 1) throw usageError('ls takes at most one s3:// address.');
  if (args.length === 0) {
    let buckets;
    try {
      buckets = await listBuckets(connection);
    } catch (error) {
      throw toBargeError(error, 'list buckets');
    }
    for (const b of buckets) {
      cli.stdout.write(json ? `${JSON.stringify(b)}\n` : `${formatDate(b.createdAt)}  ${printableName(b.name)}\n`);
    }
    return 0;
  }
  const target = isS3Url(args[0]!) ? parseS3Url(args[0]!) : undefined;
  if (!target) throw usageError(`"${args[0]}" is not an s3:// address.`);
  try {
    for await (const page of listObjectPages(connection, { bucket: target.bucket, prefix: target.key, delimiter: recursive ? undefined : '/' })) {
      const lines: string[] = [];
      // Keys are shown with control characters escaped: a key must neither drive the terminal (ESC
      // sequences, OSC 52 to the clipboard) nor forge a row with a newline. --json keeps them exact.
      for (const prefix of page.prefixes) lines.push(json ? JSON.stringify({ prefix }) : `${''.padStart(19)}  ${'PRE'.padStart(10)}  ${printableName(prefix)}`);
      for (const o of page.objects) {
        lines.push(json ? JSON.stringify(o) : `${formatDate(o.lastModified)}  ${String(o.size).padStart(10)}  ${printableName(o.key)}`);
      }
      if (lines.length > 0) cli.stdout.write(`${lines.join('\n')}\n`);
    }
  } catch (error) {
    throw toBargeError(error, `list ${args[0]}`);
  }
  return 0;
}

function formatDate(ms: number | undefined): string {
  if (ms === undefined) return ''.padStart(19);
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

