// barge du: how much a prefix holds, objects and bytes per storage class (--versions: noncurrent too);
// a wildcard in the address and the filter flags count only what they select.
//
// The count comes a stretch at a time (objects.size), so running totals show while a prefix of millions
// is listed; Ctrl-C stops it between stretches and says what was counted so far.

import { formatBytes } from '../../../src/byte-units.ts';
import { addPrefixSize, EMPTY_PREFIX_SIZE, sizeTotals } from '../../../src/prefix-size.ts';
import type { PrefixSize } from '../../../src/prefix-size.ts';
import { isS3Url, parseS3Url } from '../../../src/s3-url.ts';
import { describeFilter, wildcardPrefix } from '../../../src/object-filter.ts';
import { printableJson, printableName } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { isPattern } from '../filter-options.ts';
import { usageError } from '../options.ts';
import { notS3Address } from './job-command.ts';
import { untilInterrupted } from '../interrupt.ts';

export async function du(cli: CliContext): Promise<number> {
  const { args, json, versions, quiet } = cli.options;
  if (args.length !== 1) throw usageError('du takes one s3:// address: barge du s3://bucket/prefix.');
  const target = isS3Url(args[0]!) ? parseS3Url(args[0]!) : undefined;
  if (!target) throw usageError(notS3Address(args[0]!));
  const pattern = isPattern(target.key, cli.options.raw) ? target.key : undefined;
  const { filter } = cli.options;
  const showProgress = !json && !quiet && cli.stderr.isTTY === true;
  let total: PrefixSize = EMPTY_PREFIX_SIZE;
  const interrupted = await untilInterrupted(async (stopped) => {
    do {
      const stretch = await cli.service.call('objects.size', {
        connectionId: cli.connectionId,
        bucket: target.bucket,
        prefix: pattern === undefined ? target.key : wildcardPrefix(pattern),
        ...(pattern === undefined ? {} : { pattern }),
        ...(filter === undefined ? {} : { filter }),
        versions,
        token: total.nextToken,
      });
      total = addPrefixSize(total, stretch);
      if (json && total.nextToken !== undefined) cli.stdout.write(`${jsonLine(total, false)}\n`);
      if (showProgress) cli.stderr.write(`\r\x1b[2KCounting... ${summary(total)}`);
    } while (total.nextToken !== undefined && !stopped());
  });
  if (showProgress) cli.stderr.write('\r\x1b[2K');
  const totals = sizeTotals(total);
  if ((pattern !== undefined || filter !== undefined) && totals.objects + totals.noncurrentObjects === 0)
    cli.stderr.write(`No object matches ${[args[0]!, describeFilter(filter)].filter(Boolean).join(', ')}.\n`);
  if (json) cli.stdout.write(`${jsonLine(total, !interrupted)}\n`);
  else cli.stdout.write(table(total, versions));
  if (interrupted) {
    cli.stderr.write(`Stopped: counted so far ${summary(total)}; the prefix holds more.\n`);
    return 130;
  }
  return 0;
}

function jsonLine(size: PrefixSize, done: boolean): string {
  const { nextToken: _token, ...counted } = size;
  return printableJson({ ...counted, totals: sizeTotals(size), done });
}

function summary(size: PrefixSize): string {
  const totals = sizeTotals(size);
  return (
    `${count(totals.objects + totals.noncurrentObjects, 'object')}, ` +
    `${formatBytes(totals.bytes + totals.noncurrentBytes)}`
  );
}

function count(n: number, what: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? what : `${what}s`}`;
}

/** One line per storage class, then the total; with versions, the noncurrent ones and delete markers beside. */
function table(size: PrefixSize, versions: boolean): string {
  const rows = size.classes.map((entry) => ({ name: printableName(entry.storageClass), ...entry }));
  rows.push({ name: 'total', storageClass: 'total', ...sizeTotals(size) });
  const width = Math.max(...rows.map((row) => row.name.length));
  const lines = rows.map((row) => {
    const current =
      `${row.name.padEnd(width)}  ${count(row.objects, 'object').padStart(16)}  ` +
      `${formatBytes(row.bytes).padStart(10)}`;
    return versions
      ? `${current}  + ${count(row.noncurrentObjects, 'noncurrent version').padStart(24)}  ` +
          `${formatBytes(row.noncurrentBytes).padStart(10)}`
      : current;
  });
  if (versions) lines.push(`${count(size.deleteMarkers, 'delete marker')}`);
  return `${lines.join('\n')}\n`;
}
