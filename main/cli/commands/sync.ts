// barge sync: make a prefix hold what a folder holds, or a folder what a prefix holds, sending only what differs.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../../../src/byte-units.ts';
import { isS3Url } from '../../../src/s3-url.ts';
import type { JobItem } from '../../../src/jobs.ts';
import { printable } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { runJob } from '../run-job.ts';
import { exitStatus, rerun, s3Location } from './job-command.ts';

/** Items read a call while printing a dry run's plan. */
const PLAN_PAGE_ITEMS = 1_000;

export async function sync(cli: CliContext): Promise<number> {
  const { args, dryRun, json } = cli.options;
  if (args.length !== 2) throw usageError('sync needs a source and a destination: a folder and an s3:// prefix.');
  const [source, destination] = args as [string, string];
  if (isS3Url(source) && isS3Url(destination))
    throw usageError('sync from S3 to S3 is not supported yet: sync a folder with a prefix.');
  if (!isS3Url(source) && !isS3Url(destination))
    throw usageError('sync needs one s3:// address: a folder to a prefix, or a prefix to a folder.');
  const direction = isS3Url(destination) ? 'upload' : 'download';
  const remote = s3Location(direction === 'upload' ? destination : source);
  const folder = path.resolve(direction === 'upload' ? source : destination);
  if (direction === 'upload') {
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) throw usageError(`${source} is not a folder: sync sends a folder's files to a prefix.`);
  }
  const prefix = remote.key === '' || remote.key.endsWith('/') ? remote.key : `${remote.key}/`;
  if (cli.options.delete && direction === 'upload' && prefix === '' && !dryRun && !cli.options.yes)
    throw usageError(
      `sync --delete to the top of bucket ${remote.bucket} deletes every object in the bucket that ${source} ` +
        `does not hold: add --yes to confirm (or look first with --dry-run).`,
    );
  const tally = new Map<string, { count: number; bytes: number }>();
  const printPlan = async (id: string) => {
    for (let offset = 0; ; offset += PLAN_PAGE_ITEMS) {
      const page = await cli.service.call('jobs.details', { id, filter: 'all', offset, limit: PLAN_PAGE_ITEMS });
      for (const item of page.items) planLine(cli, item, tally);
      if (page.items.length < PLAN_PAGE_ITEMS) break;
    }
  };
  const end = await runJob(
    cli,
    () =>
      cli.service.call('jobs.sync', {
        connectionId: cli.connectionId,
        direction,
        folder,
        bucket: remote.bucket,
        prefix,
        delete: cli.options.delete,
        dryRun,
        checksum: cli.options.syncChecksum,
        followSymlinks: cli.options.followSymlinks,
        confirmed: cli.options.yes,
        ...rerun(cli),
      }),
    undefined,
    dryRun ? printPlan : undefined,
  );
  if (dryRun && !json && end.state.status === 'completed') {
    const totals = ['new', 'changed', 'extra'].map((reason) => {
      const { count, bytes } = tally.get(reason) ?? { count: 0, bytes: 0 };
      return `${count.toLocaleString('en-US')} ${reason} (${formatBytes(bytes)})`;
    });
    const extras = cli.options.delete ? 'extra ones would be deleted' : 'extra ones are kept (no --delete)';
    cli.stdout.write(`Would sync: ${totals.join(', ')}; ${extras}. Nothing was changed.\n`);
  }
  return exitStatus(end);
}

/** One line of the plan: the reason, the size, and the key or file it concerns. */
function planLine(cli: CliContext, item: JobItem, tally: Map<string, { count: number; bytes: number }>): void {
  const note = item.message ?? '';
  const reason = note.split(':')[0]!;
  const counted = tally.get(reason) ?? { count: 0, bytes: 0 };
  tally.set(reason, { count: counted.count + 1, bytes: counted.bytes + (item.size ?? 0) });
  if (cli.options.json) {
    cli.stdout.write(
      `${JSON.stringify({ reason, source: item.source, destination: item.destination, size: item.size, note })}\n`,
    );
    return;
  }
  const where = item.destination === '' ? item.source : `${item.source} -> ${item.destination}`;
  const detail = note.includes(':') ? ` (${note.slice(note.indexOf(':') + 1).trim()})` : '';
  cli.stdout.write(`${reason.padEnd(7)} ${formatBytes(item.size ?? 0).padStart(10)}  ${printable(where)}${detail}\n`);
}
