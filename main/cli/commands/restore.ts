// barge restore s3://bucket[/prefix] --to TIME: bring a prefix back to how it was at a moment, from the
// versions its bucket keeps (restore-job.ts); --dry-run lists each change and makes none.

import { asFolderPrefix } from '../../../src/s3-url.ts';
import { plural } from '../../../src/plural.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { runJob } from '../run-job.ts';
import { exitStatus, rerun, s3Location } from './job-command.ts';
import { printable, printableJson, printableName } from '../../../src/unsafe-text.ts';

export async function restore(cli: CliContext): Promise<number> {
  const { args, restoreTo, dryRun, json } = cli.options;
  if (args.length !== 1)
    throw usageError('restore takes one s3:// address: barge restore s3://bucket/prefix --to TIME.');
  if (restoreTo === undefined)
    throw usageError('restore needs --to TIME: a date such as 2026-11-25T14:00:00Z, or an age such as 2h.');
  const { bucket, key } = s3Location(args[0]!);
  const prefix = key === '' ? '' : asFolderPrefix(key);
  const end = await runJob(
    cli,
    () =>
      cli.service.call('jobs.restore', {
        connectionId: cli.connectionId,
        bucket,
        prefix,
        to: restoreTo,
        dryRun,
        ...rerun(cli),
      }),
    dryRun ? 'Would change' : 'Restored',
    dryRun ? (id) => printChanges(cli, id) : undefined,
  );
  if (end.state.status === 'completed' && !json && end.progress.objectsTotal === 0)
    cli.stdout.write(
      `s3://${bucket}/${prefix} is as it was at ${new Date(restoreTo).toISOString()}: nothing to change.\n`,
    );
  else if (dryRun && !json && end.state.status === 'completed')
    cli.stdout.write(`Would make ${plural(end.progress.objectsDone, 'change')}; nothing was changed.\n`);
  return exitStatus(end);
}

/** Every change the dry run found, a line each (a restore's plan is read whole before it is run). */
async function printChanges(cli: CliContext, id: string): Promise<void> {
  const pageSize = 1000;
  for (let offset = 0; ; offset += pageSize) {
    const page = await cli.service.call('jobs.details', { id, filter: 'all', offset, limit: pageSize });
    const lines = page.items
      .filter((item) => item.state === 'done')
      .map((item) =>
        cli.options.json
          ? printableJson({ change: item.source, what: item.message })
          : `${printableName(item.source)}: ${printable(item.message ?? '')}`,
      );
    if (lines.length > 0) cli.stdout.write(`${lines.join('\n')}\n`);
    if (page.items.length < pageSize) return;
  }
}
