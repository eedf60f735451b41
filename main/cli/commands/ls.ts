// barge ls: buckets, or the keys and folders of a prefix.

import { printableJson, printableName } from '../../../src/unsafe-text.ts';
import { unreadableKeyWarning } from '../../../src/unreadable-key.ts';
import { isS3Url, parseS3Url } from '../../../src/s3-url.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { notS3Address } from './cp.ts';

/** Keys a listing asks for at a time: S3's largest page. */
const PAGE_SIZE = 1000;

export async function ls(cli: CliContext): Promise<number> {
  const { args, json, recursive } = cli.options;
  const { service, connectionId } = cli;
  if (args.length > 1) throw usageError('ls takes at most one s3:// address.');
  if (args.length === 0) {
    const buckets = await service.call('buckets.list', { connectionId });
    for (const b of buckets) {
      cli.stdout.write(json ? `${printableJson(b)}\n` : `${formatDate(b.createdAt)}  ${printableName(b.name)}\n`);
    }
    return 0;
  }
  const target = isS3Url(args[0]!) ? parseS3Url(args[0]!) : undefined;
  if (!target) throw usageError(notS3Address(args[0]!));
  let token: string | undefined;
  do {
    const page = await service.call('objects.list', {
      connectionId,
      bucket: target.bucket,
      prefix: target.key,
      recursive,
      token,
      pageSize: PAGE_SIZE,
    });
    token = page.nextToken;
    const lines: string[] = [];
    // Keys are shown with control characters escaped: a key must neither drive the terminal (ESC
    // sequences, OSC 52 to the clipboard) nor forge a row with a newline. --json keeps them exact
    // (as \u escapes: the same value to a parser, nothing raw on a screen).
    for (const prefix of page.prefixes)
      lines.push(
        json ? printableJson({ prefix }) : `${''.padStart(19)}  ${'PRE'.padStart(10)}  ${printableName(prefix)}`,
      );
    for (const o of page.objects) {
      lines.push(
        json
          ? printableJson(o)
          : `${formatDate(o.lastModified)}  ${String(o.size).padStart(10)}  ${printableName(o.key)}`,
      );
    }
    if (lines.length > 0) cli.stdout.write(`${lines.join('\n')}\n`);
    // Left out, said, and the listing goes on: one key a faulty store mangled ends nothing.
    for (const sent of page.unreadable ?? []) cli.stderr.write(`warning: ${unreadableKeyWarning(sent)}\n`);
  } while (token !== undefined);
  return 0;
}

function formatDate(ms: number | undefined): string {
  if (ms === undefined) return ''.padStart(19);
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
