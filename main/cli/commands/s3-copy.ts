// barge cp s3://… s3://… and barge mv: the store copies (and, for mv, then deletes each source once
// its copy is verified). Without --recursive each source is an object; with it, a prefix; a wildcard
// (either way) is a pattern, and the filter flags select what prefixes and patterns list. With
// --source-endpoint-url / --source-profile / --source-region the sources are on another connection,
// and their bytes stream through Barge.

import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { runJob } from '../run-job.ts';
import { exitStatus, rerun, s3Location } from './job-command.ts';
import { isS3Url } from '../../../src/s3-url.ts';
import { copyPlacesProblem } from '../../../src/copy-targets.ts';
import { namedObjects } from '../matches.ts';

const COPY_IF_EXISTS = ['overwrite', 'skip', 'newer', 'fail'] as const;
type CopyIfExists = (typeof COPY_IF_EXISTS)[number];

/** Copy (or move) `sources`, every one an s3:// address in one bucket, to `destination`. */
export async function copyInStore(
  cli: CliContext,
  sources: readonly string[],
  destination: string,
  move: boolean,
): Promise<number> {
  const verb = move ? 'mv' : 'cp';
  const { ifExists } = cli.options;
  const locations = sources.map(s3Location);
  const sourceBucket = locations[0]!.bucket;
  if (locations.some((l) => l.bucket !== sourceBucket))
    throw usageError(`${verb}: name sources in one bucket at a time.`);
  if (ifExists !== undefined && !(COPY_IF_EXISTS as readonly string[]).includes(ifExists))
    throw usageError(`${verb} between s3:// addresses takes --if-exists overwrite, skip, newer or fail.`);
  if (cli.options.requireVerified)
    throw usageError(`--require-verified is for downloads: every copy is checked against its source.`);
  // A wildcard is a pattern, with or without --recursive: its matches land below the destination folder
  // by their key below its folder. A filter selects what a folder or pattern lists.
  const { keys, prefixes, patterns } = namedObjects(cli, locations, move ? 'move' : 'copy', {
    folderKey: (key) => key.replace(/\/+$/, ''),
  });
  const prefix = keys.find((key) => key === '' || key.endsWith('/'));
  if (prefix !== undefined)
    throw usageError(
      `s3://${sourceBucket}/${prefix} is a prefix: add --recursive to ${move ? 'move' : 'copy'} everything below it.`,
    );
  const target = s3Location(destination);
  const places = {
    sourceBucket,
    keys: [...new Set(keys)],
    prefixes,
    patterns,
    bucket: target.bucket,
    destination: target.key,
  };
  // Refused as typed (exit 2), before anything is recorded or sent.
  // Two connections may be two stores (the service refuses a copy onto itself where they are one).
  const other = cli.sourceConnectionId !== undefined && cli.sourceConnectionId !== cli.connectionId;
  const problem = copyPlacesProblem(places, move ? 'move' : 'copy', !other);
  if (problem) throw usageError(problem);
  return exitStatus(
    await runJob(
      cli,
      () =>
        cli.service.call('jobs.copy', {
          connectionId: cli.connectionId,
          ...(other ? { sourceConnectionId: cli.sourceConnectionId } : {}),
          ...places,
          move,
          ifExists: ifExists as CopyIfExists | undefined,
          ...(cli.options.versionId === undefined ? {} : { sourceVersionId: cli.options.versionId }),
          filter: cli.options.filter,
          ...rerun(cli),
        }),
      move ? 'Moved' : 'Copied',
    ),
  );
}

/** barge mv: between s3:// addresses only (a local file is moved by the shell). */
export async function mv(cli: CliContext): Promise<number> {
  const { args } = cli.options;
  if (args.length < 2) throw usageError('mv needs at least one source and a destination.');
  if (!args.every(isS3Url))
    throw usageError(
      'mv moves objects between s3:// addresses; to move files, upload or download with cp, then delete.',
    );
  return copyInStore(cli, args.slice(0, -1), args.at(-1)!, true);
}
