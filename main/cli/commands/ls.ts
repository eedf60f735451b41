// barge ls: buckets, or the keys and folders of a prefix; the objects a wildcard or a filter keeps.

import { printableJson, printableName } from '../../../src/unsafe-text.ts';
import { unreadableKeyWarning } from '../../../src/unreadable-key.ts';
import { isS3Url, parseS3Url } from '../../../src/s3-url.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { notS3Address } from './job-command.ts';
import { isPattern } from '../filter-options.ts';
import { describeFilter, isFiltering, wildcardPrefix } from '../../../src/object-filter.ts';

/** Keys a listing asks for at a time: S3's largest page. */
const PAGE_SIZE = 1000;

export async function ls(cli: CliContext): Promise<number> {
  const { args, json, recursive } = cli.options;
  const { service, connectionId } = cli;
  if (args.length > 1) throw usageError('ls takes at most one s3:// address.');
  if (args.length === 0 && cli.options.filter !== undefined)
    throw usageError(
      'A filter keeps objects, and buckets are listed: give the bucket to list (barge ls s3://bucket/ …).',
    );
  if (args.length === 0) {
    const buckets = await service.call('buckets.list', { connectionId });
    for (const b of buckets) {
      cli.stdout.write(json ? `${printableJson(b)}\n` : `${formatDate(b.createdAt)}  ${printableName(b.name)}\n`);
    }
    return 0;
  }
  const target = isS3Url(args[0]!) ? parseS3Url(args[0]!) : undefined;
  if (!target) throw usageError(notS3Address(args[0]!));
  const { filter, raw } = cli.options;
  if (cli.options.versions) {
    if (isFiltering(filter) || isPattern(target.key, raw))
      throw usageError('ls --versions lists a prefix as it is: it takes no wildcard and no filter.');
    const { listVersions } = await import('./ls-versions.ts');
    return listVersions(cli, target.bucket, target.key);
  }
  // A wildcard lists everything below its literal part, as s5cmd's does ("*" spans "/").
  const pattern = isPattern(target.key, raw) ? target.key : undefined;
  let token: string | undefined;
  let shown = 0;
  do {
    const page = await service.call('objects.list', {
      connectionId,
      bucket: target.bucket,
      prefix: pattern === undefined ? target.key : wildcardPrefix(pattern),
      recursive: recursive || pattern !== undefined,
      token,
      pageSize: PAGE_SIZE,
      pattern,
      filter,
    });
    shown += page.objects.length + page.prefixes.length;
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
  // A wildcard or filter that matched nothing says so, and the answer is "no" (1), as s5cmd's and aws s3 ls's.
  if (shown === 0 && (pattern !== undefined || isFiltering(filter))) {
    const how = describeFilter(filter);
    cli.stderr.write(`No objects match s3://${target.bucket}/${target.key}${how ? ` with ${how}` : ''}.\n`);
    return 1;
  }
  return 0;
}

function formatDate(ms: number | undefined): string {
  if (ms === undefined) return ''.padStart(19);
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
