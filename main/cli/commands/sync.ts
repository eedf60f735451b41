// barge sync: make a prefix hold what a folder or another prefix holds, or a folder what a prefix holds, sending
// only what differs; name filters and a wildcard in the source's URL select the keys on both sides, time, size and
// class filters only what is sent.

import { stat } from 'node:fs/promises';
import { systemPath } from '../system-path.ts';
import { formatBytes } from '../../../src/byte-units.ts';
import { filterBase } from '../../../src/object-filter.ts';
import { asFolderPrefix, isS3Url } from '../../../src/s3-url.ts';
import type { JobItem } from '../../../src/jobs.ts';
import { printable } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { isPattern } from '../filter-options.ts';
import { usageError } from '../options.ts';
import { runJob } from '../run-job.ts';
import { exitStatus, rerun, s3Location } from './job-command.ts';

/** Items read a call while printing a dry run's plan. */
const PLAN_PAGE_ITEMS = 1_000;

export async function sync(cli: CliContext): Promise<number> {
  const { args, dryRun, json } = cli.options;
  if (args.length !== 2)
    throw usageError(
      'sync needs a source and a destination: a folder or an s3:// prefix, and an s3:// prefix or a folder.',
    );
  const [source, destination] = args as [string, string];
  if (!isS3Url(source) && !isS3Url(destination))
    throw usageError(
      'sync needs an s3:// address: a folder to a prefix, a prefix to a folder, or a prefix to a prefix.',
    );
  const direction = !isS3Url(source) ? 'upload' : isS3Url(destination) ? 'copy' : 'download';
  const raw = cli.options.raw;
  const remoteSource = direction === 'upload' ? undefined : s3Location(source);
  const remoteTarget = direction === 'download' ? undefined : s3Location(destination);
  if (remoteTarget && isPattern(remoteTarget.key, raw))
    throw usageError(
      `${destination} holds a wildcard: a sync's destination is one prefix (a wildcard selects the source's keys; ` +
        `--raw takes * and ? as themselves).`,
    );
  const pattern = remoteSource && isPattern(remoteSource.key, raw) ? remoteSource.key : undefined;
  const folder = direction === 'copy' ? undefined : await systemPath(direction === 'upload' ? source : destination);
  if (direction === 'upload') {
    const info = await stat(folder!).catch(() => undefined);
    if (!info?.isDirectory()) throw usageError(`${source} is not a folder: sync sends a folder's files to a prefix.`);
  }
  // --storage-class is the class to store in on an upload, a filter of the objects on a download or a copy.
  const { storageClasses: _storedIn, ...fileFilter } = cli.options.filter ?? {};
  const filter = direction === 'upload' ? cli.options.filter && fileFilter : cli.options.filter;
  const { storageClass: _filtered, ...uploadOnly } = cli.options.uploadOptions ?? {};
  if (direction !== 'upload' && Object.keys(uploadOnly).length > 0)
    throw usageError(
      `The upload options (--metadata, --tags, --cache-control, ...) are for a sync that uploads: a sync that ` +
        `${direction === 'copy' ? 'copies keeps what each object holds' : 'downloads keeps the objects as they are'}.`,
    );
  const sourcePrefix =
    remoteSource === undefined
      ? undefined
      : pattern === undefined
        ? asFolderPrefix(remoteSource.key)
        : filterBase(pattern);
  const target = remoteTarget ?? remoteSource!;
  const prefix = remoteTarget ? asFolderPrefix(remoteTarget.key) : sourcePrefix!;
  if (cli.options.delete && remoteTarget && prefix === '' && !dryRun && !cli.options.yes)
    throw usageError(
      `sync --delete to the top of bucket ${target.bucket} deletes every object in the bucket that ${source} ` +
        `does not hold: add --yes to confirm (or look first with --dry-run).`,
    );
  const tally = new Map<string, { count: number; bytes: number; why?: string }>();
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
        ...(folder === undefined ? {} : { folder }),
        ...(direction === 'copy' ? { sourceBucket: remoteSource!.bucket, sourcePrefix } : {}),
        bucket: target.bucket,
        prefix,
        ...(pattern === undefined ? {} : { pattern }),
        ...(filter === undefined ? {} : { filter }),
        ...(direction === 'upload' && cli.options.uploadOptions ? { uploadOptions: cli.options.uploadOptions } : {}),
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
    // The engine's note on an extra it would not delete, from a source that holds nothing (sync-job.ts).
    const refusal = notDeleted(tally);
    const extras = !cli.options.delete
      ? 'extra ones are kept (no --delete)'
      : refusal === undefined
        ? 'extra ones would be deleted'
        : `nothing would be deleted: ${refusal}, so everything at the destination looks extra (a mistyped ` +
          `name?), and the sync refuses to delete (to empty the destination, delete it instead)`;
    cli.stdout.write(`Would sync: ${totals.join(', ')}; ${extras}. Nothing was changed.\n`);
  }
  return exitStatus(end);
}

/** The note on an extra the dry run would not delete ("extra: not deleted (SOURCE holds nothing)"). */
const NOT_DELETED_NOTE = /^extra: not deleted \((.*)\)$/;
/** Where the plan keeps the reason it would delete nothing, said once in the totals line. */
const NOT_DELETED_TALLY = 'not deleted';

/** Why the plan deletes none of its extras ("s3://b/p/ holds nothing"), or undefined when it deletes them. */
function notDeleted(tally: Map<string, { count: number; bytes: number; why?: string }>): string | undefined {
  return tally.get(NOT_DELETED_TALLY)?.why;
}

/** One line of the plan: the reason, the size, and the key or file it concerns. */
function planLine(
  cli: CliContext,
  item: JobItem,
  tally: Map<string, { count: number; bytes: number; why?: string }>,
): void {
  const note = item.message ?? '';
  const reason = note.split(':')[0]!;
  const refused = NOT_DELETED_NOTE.exec(note);
  if (refused) tally.set(NOT_DELETED_TALLY, { count: 0, bytes: 0, why: refused[1]! });
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
