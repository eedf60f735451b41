// barge rm: delete keys, whole prefixes with --recursive (as folders: "logs" never matches "logs2"),
// wildcards (s3://b/logs/*.tmp), what a filter keeps of them, or the keys a file lists (--from).

import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { runJob } from '../run-job.ts';
import { exitStatus, rerun, s3Location } from './job-command.ts';
import { formatBytes } from '../../../src/byte-units.ts';
import { plural } from '../../../src/plural.ts';
import { isMatching, matchedWhat, namedObjects, printMatches } from '../matches.ts';
import type { NamedObjects } from '../matches.ts';
import { keysFromList } from '../key-list.ts';

export async function rm(cli: CliContext): Promise<number> {
  if (cli.options.expireOnServer) return (await import('./lifecycle.ts')).expireOnServer(cli);
  if (cli.options.yes)
    throw usageError('--yes confirms rm --expire-on-server (a rule for the store); rm itself asks nothing.');
  const { dryRun, allVersions, json, filter, from } = cli.options;
  const { bucket, named } = from === undefined ? fromArguments(cli) : await fromList(cli, from);
  if (from !== undefined && named.keys.length === 0) {
    cli.stdout.write(`${from === '-' ? 'Standard input' : from} lists no keys: nothing was deleted.\n`);
    return 0;
  }
  const end = await runJob(
    cli,
    () =>
      cli.service.call('jobs.delete', {
        connectionId: cli.connectionId,
        bucket,
        ...named,
        filter,
        allVersions,
        dryRun,
        ...rerun(cli),
      }),
    undefined,
    dryRun ? (id) => printMatches(cli, id, bucket, 'would delete') : undefined,
  );
  const completed = end.state.status === 'completed';
  // A wildcard or a filter that matched nothing says so: nothing was deleted, and that is no failure.
  if (completed && !json && isMatching(named, filter) && end.progress.objectsTotal === 0) {
    cli.stdout.write(`No objects match ${matchedWhat(bucket, named, filter)}: nothing was deleted.\n`);
    return exitStatus(end);
  }
  if (!dryRun && !json && cli.journaled) await sayHowToUndo(cli, end.id);
  // A count that did not complete is no count: only the failure is said.
  if (dryRun && !json && completed) {
    cli.stdout.write(
      `Would delete ${plural(end.progress.objectsDone, allVersions ? 'version' : 'object')} ` +
        `(${formatBytes(end.progress.bytesDone)}); nothing was deleted.\n`,
    );
  }
  return exitStatus(end);
}

/** The addresses typed: keys, folders with --recursive, wildcards; one bucket. */
function fromArguments(cli: CliContext): { bucket: string; named: NamedObjects } {
  const { args, recursive, raw } = cli.options;
  if (args.length === 0) throw usageError('rm needs at least one s3:// address, or --from FILE.');
  const locations = args.map(s3Location);
  const bucket = locations[0]!.bucket;
  if (locations.some((l) => l.bucket !== bucket)) throw usageError('Delete from one bucket at a time.');
  if (!recursive) {
    const prefix = locations.find((l) => l.key === '' || (l.key.endsWith('/') && (raw || !/[*?]/.test(l.key))));
    if (prefix)
      throw usageError(`s3://${bucket}/${prefix.key} is a prefix: add --recursive to delete everything below it.`);
  }
  return { bucket, named: namedObjects(cli, locations, 'delete') };
}

/** The keys a file or standard input lists (--from), in the bucket the one address names or each line's own. */
async function fromList(cli: CliContext, from: string): Promise<{ bucket: string; named: NamedObjects }> {
  const { args, recursive, filter } = cli.options;
  if (recursive || filter !== undefined)
    throw usageError(
      '--from deletes exactly the keys its list names: it takes no --recursive and no filter (--include, ' +
        '--older-than…).',
    );
  if (args.length > 1) throw usageError('rm --from FILE takes at most one address: s3://bucket, for the bare keys.');
  const location = args[0] === undefined ? undefined : s3Location(args[0]);
  if (location && location.key !== '')
    throw usageError(
      `rm --from FILE takes the bucket alone (s3://${location.bucket}), not a key or prefix: each line of the ` +
        `list is a whole key or an s3:// URL.`,
    );
  const { bucket, keys } = await keysFromList(from, location?.bucket);
  return { bucket, named: { keys, prefixes: [], patterns: [] } };
}

/** After a delete: the command that takes it back, or plainly why nothing can. */
async function sayHowToUndo(cli: CliContext, id: string): Promise<void> {
  const job = await cli.service.call('history.job', { id }).catch(() => undefined);
  if (!job || job.removed === 0) return;
  const undo = `barge undo ${id.slice(0, 8)}`;
  cli.stderr.write(
    !job.undo.possible
      ? job.versioning === 'off'
        ? `This delete cannot be undone: the bucket keeps no versions (versioning never enabled or off).\n`
        : `This delete cannot be undone: ${job.undo.why}\n`
      : job.versioning === 'suspended'
        ? `Versioning is suspended in this bucket: what was written while it was suspended is gone for good; ` +
          `an undo brings back only objects with an older version (${undo}).\n`
        : `To undo this delete (remove the delete markers it made): ${undo}\n`,
  );
}
