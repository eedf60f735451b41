// barge rm: delete keys, or whole prefixes with --recursive (as folders: "logs" never matches "logs2").

import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { runJob } from '../run-job.ts';
import { exitStatus, rerun, s3Location } from './cp.ts';
import { formatBytes } from '../../../src/byte-units.ts';
import { plural } from '../../../src/plural.ts';

export async function rm(cli: CliContext): Promise<number> {
  const { args, recursive, dryRun, allVersions, json } = cli.options;
  if (args.length === 0) throw usageError('rm needs at least one s3:// address.');
  const locations = args.map(s3Location);
  const bucket = locations[0]!.bucket;
  if (locations.some((l) => l.bucket !== bucket)) throw usageError('Delete from one bucket at a time.');
  if (!recursive) {
    const prefix = locations.find((l) => l.key === '' || l.key.endsWith('/'));
    if (prefix)
      throw usageError(`s3://${bucket}/${prefix.key} is a prefix: add --recursive to delete everything below it.`);
  }
  const end = await runJob(
    cli,
    () =>
      cli.service.call('jobs.delete', {
        connectionId: cli.connectionId,
        bucket,
        keys: recursive ? [] : locations.map((l) => l.key),
        prefixes: recursive ? locations.map((l) => l.key) : [],
        allVersions,
        dryRun,
        ...rerun(cli),
      }),
    dryRun ? 'Counted' : undefined,
  );
  // A count that did not complete is no count: only the failure is said.
  if (dryRun && !json && end.state.status === 'completed') {
    cli.stdout.write(
      `Would delete ${plural(end.progress.objectsDone, allVersions ? 'version' : 'object')} (${formatBytes(end.progress.bytesDone)}); nothing was deleted.\n`,
    );
  }
  return exitStatus(end);
}
