// barge mb, rb, abort-uploads: buckets and leftovers.

import { formatAge } from '../../../src/byte-units.ts';
import { plural } from '../../../src/plural.ts';
import { printable, printableJson, printableName } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { exitStatus, s3Location } from './job-command.ts';
import { runJob } from '../run-job.ts';
import { createInterface } from 'node:readline';

function oneBucket(cli: CliContext, command: string): string {
  if (cli.options.args.length !== 1) throw usageError(`${command} takes one s3://bucket address.`);
  const location = s3Location(cli.options.args[0]!);
  if (location.key !== '') throw usageError(`${command} takes a bucket, not a key: s3://${location.bucket}`);
  return location.bucket;
}

export async function mb(cli: CliContext): Promise<number> {
  const bucket = oneBucket(cli, 'mb');
  await cli.service.call('buckets.create', { connectionId: cli.connectionId, name: bucket });
  if (!cli.options.quiet)
    cli.stdout.write(cli.options.json ? `${printableJson({ created: bucket })}\n` : `Created s3://${bucket}\n`);
  return 0;
}

export async function rb(cli: CliContext): Promise<number> {
  const bucket = oneBucket(cli, 'rb');
  if (cli.options.force) return emptyAndDelete(cli, bucket);
  if (cli.options.yes)
    throw usageError('--yes confirms rb --force (empty the bucket, then delete it); rb alone asks nothing.');
  await cli.service.call('buckets.delete', { connectionId: cli.connectionId, name: bucket });
  if (!cli.options.quiet)
    cli.stdout.write(cli.options.json ? `${printableJson({ deleted: bucket })}\n` : `Deleted s3://${bucket}\n`);
  return 0;
}

/**
 * rb --force: the engine's Empty and delete (every object, every version, every unfinished upload,
 * then the bucket), as one job with its progress. Confirmed as the window confirms it, by typing the
 * bucket's name, unless --yes; with no terminal to type in and no --yes, refused.
 */
async function emptyAndDelete(cli: CliContext, bucket: string): Promise<number> {
  if (!cli.options.yes) {
    const what =
      `rb --force empties s3://${bucket} (every object, every version and every unfinished upload) ` +
      `and then deletes it`;
    if (!process.stdin.isTTY || !cli.stderr.isTTY)
      throw usageError(
        `${what}: run it in a terminal to confirm by typing the bucket's name, or add --yes to confirm it here.`,
      );
    const typed = await ask(cli, `${what}.\nType the bucket's name to confirm: `);
    if (typed !== bucket && typed !== printable(bucket)) {
      cli.stderr.write(`"${printable(typed)}" is not the bucket's name: nothing was deleted.\n`);
      return 1;
    }
  }
  const end = await runJob(cli, () =>
    cli.service.call('buckets.emptyAndDelete', { connectionId: cli.connectionId, name: bucket }),
  );
  if (end.state.status === 'completed' && !cli.options.quiet)
    cli.stdout.write(cli.options.json ? `${printableJson({ deleted: bucket })}\n` : `Deleted s3://${bucket}\n`);
  return exitStatus(end);
}

/** One line typed at the terminal, after a question on standard error. */
export async function ask(cli: CliContext, question: string): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: cli.stderr, terminal: false });
  try {
    cli.stderr.write(question);
    for await (const line of lines) return line.trim();
    return '';
  } finally {
    lines.close();
  }
}

export async function abortUploads(cli: CliContext): Promise<number> {
  if (cli.options.args.length !== 1) throw usageError('abort-uploads takes one s3://bucket[/prefix] address.');
  const location = s3Location(cli.options.args[0]!);
  const olderThanMs = cli.options.olderThanSeconds === undefined ? undefined : cli.options.olderThanSeconds * 1000;
  const now = Date.now();
  const result = await cli.service.call('uploads.abortIncomplete', {
    connectionId: cli.connectionId,
    bucket: location.bucket,
    prefix: location.key,
    dryRun: cli.options.dryRun,
    olderThanMs,
  });
  for (const upload of result.aborted) {
    const age =
      upload.initiated === undefined
        ? 'begun at an unknown time'
        : `begun ${formatAge((now - upload.initiated) / 1000)} ago`;
    cli.stdout.write(
      cli.options.json
        ? `${printableJson({ ...upload, aborted: !cli.options.dryRun })}\n`
        : `${cli.options.dryRun ? 'Would abort' : 'Aborted'} ${printableName(upload.key)} (upload ` +
            `${upload.uploadId.slice(0, 16)}…, ${age})\n`,
    );
  }
  for (const failure of result.failed)
    cli.stderr.write(`error: ${printable(failure.upload.key)}: ${printable(failure.error.message)}\n`);
  if (!cli.options.json && result.aborted.length === 0 && result.failed.length === 0 && result.younger === 0)
    cli.stdout.write('No incomplete multipart uploads.\n');
  // Said, not hidden: an upload left alone may be another process's, sending now.
  if (!cli.options.json && result.younger > 0)
    cli.stdout.write(
      `${plural(result.younger, 'younger upload')} (begun less than --older-than ago, or at an unknown time) ` +
        `${result.younger === 1 ? 'was' : 'were'} left alone.\n`,
    );
  return result.failed.length > 0 ? 1 : 0;
}
