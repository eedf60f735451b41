// barge lifecycle ls|rm, and rm -r --expire-on-server: a bucket's lifecycle rules, and the rule that
// has the store delete a prefix too big for one machine (src/lifecycle-rules.ts).
//
// Adding the rule is a delete that cannot be stopped from here once the store runs it: it is
// confirmed as rb --force is, by typing the address, unless --yes; with no terminal and no --yes,
// refused. What the store kept is printed as it read it back, and what it dropped said plainly.

import { describeRule, EXPIRY_RUNS_LATER, versioningNote } from '../../../src/lifecycle-rules.ts';
import type { ExpiryOnServer } from '../../../src/lifecycle-rules.ts';
import { printable, printableJson, printableName } from '../../../src/unsafe-text.ts';
import { asFolderPrefix } from '../../../src/s3-url.ts';
import { shellOperands } from '../../../src/shell-word.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { isPattern } from '../filter-options.ts';
import { ask } from './buckets.ts';
import { s3Location } from './job-command.ts';

export async function lifecycle(cli: CliContext): Promise<number> {
  const [sub, ...rest] = cli.options.args;
  if (sub === 'ls') return listRules(cli, rest);
  if (sub === 'rm') return removeRule(cli, rest);
  throw usageError(
    `lifecycle takes ls or rm${sub === undefined ? '' : `, not "${printable(sub)}"`}: barge lifecycle ls ` +
      's3://bucket, or barge lifecycle rm s3://bucket RULE_ID.',
  );
}

function bucketOf(address: string | undefined, command: string): string {
  if (address === undefined) throw usageError(`${command} takes an s3://bucket address.`);
  const location = s3Location(address);
  if (location.key !== '') throw usageError(`${command} takes a bucket, not a key: s3://${location.bucket}`);
  return location.bucket;
}

async function listRules(cli: CliContext, args: readonly string[]): Promise<number> {
  if (args.length !== 1) throw usageError('lifecycle ls takes one s3://bucket address.');
  const bucket = bucketOf(args[0], 'lifecycle ls');
  const rules = await cli.service.call('buckets.lifecycle', { connectionId: cli.connectionId, name: bucket });
  if (cli.options.json) {
    for (const rule of rules) cli.stdout.write(`${printableJson({ ...rule, description: describeRule(rule) })}\n`);
    return 0;
  }
  if (rules.length === 0) {
    cli.stdout.write(`s3://${bucket} has no lifecycle rules.\n`);
    return 0;
  }
  const width = Math.min(60, Math.max(2, ...rules.map((rule) => printable(rule.id).length)));
  cli.stdout.write(`${'ID'.padEnd(width)}  ${'STATUS'.padEnd(8)}  WHAT IT DOES\n`);
  for (const rule of rules)
    cli.stdout.write(
      `${printable(rule.id).padEnd(width)}  ${(rule.enabled ? 'enabled' : 'disabled').padEnd(8)}  ` +
        `${printable(describeRule(rule))}\n`,
    );
  return 0;
}

async function removeRule(cli: CliContext, args: readonly string[]): Promise<number> {
  if (args.length !== 2) throw usageError('lifecycle rm takes an s3://bucket address and a rule ID.');
  const bucket = bucketOf(args[0], 'lifecycle rm');
  const id = args[1]!;
  await cli.service.call('buckets.removeLifecycleRule', { connectionId: cli.connectionId, name: bucket, id });
  if (!cli.options.quiet)
    cli.stdout.write(
      cli.options.json
        ? `${printableJson({ bucket, removed: id })}\n`
        : `Removed lifecycle rule ${printable(id)} from s3://${bucket}; its other rules are as they were.\n`,
    );
  return 0;
}

/** rm -r --expire-on-server s3://bucket/prefix/: the expiry rule added, confirmed first, shown as read back. */
export async function expireOnServer(cli: CliContext): Promise<number> {
  const { args, recursive, dryRun, allVersions, filter, from, raw } = cli.options;
  if (from !== undefined) throw usageError('--expire-on-server expires a prefix: it takes no --from list.');
  if (!recursive) throw usageError('--expire-on-server expires everything below a prefix: add --recursive (rm -r).');
  if (dryRun)
    throw usageError(
      '--expire-on-server adds a rule and deletes nothing from here, so it has no dry run: count what is below ' +
        'the prefix with barge du, or barge rm -r --dry-run.',
    );
  if (allVersions)
    throw usageError('--expire-on-server always expires every version and delete marker: leave out --all-versions.');
  if (filter !== undefined)
    throw usageError(
      '--expire-on-server expires everything below a prefix: a lifecycle rule takes no filter (--include, ' +
        '--older-than…). Delete what a filter keeps with barge rm -r instead.',
    );
  if (args.length !== 1) throw usageError('--expire-on-server takes one s3://bucket/prefix/ address.');
  const location = s3Location(args[0]!);
  if (isPattern(location.key, raw))
    throw usageError('--expire-on-server expires a prefix: a lifecycle rule takes no wildcard.');
  const prefix = asFolderPrefix(location.key);
  const address = `s3://${location.bucket}/${prefix}`;
  if (!cli.options.yes) {
    const what =
      prefix === ''
        ? `rm --expire-on-server has the store delete everything in s3://${location.bucket}`
        : `rm --expire-on-server has the store delete everything below ${printableName(address)}`;
    const consequences = `${what} (every version, delete marker and unfinished upload), in its own time, for good`;
    if (!process.stdin.isTTY || !cli.stderr.isTTY)
      throw usageError(
        `${consequences}: run it in a terminal to confirm by typing the address, or add --yes to confirm it here.`,
      );
    const typed = await ask(cli, `${consequences}.\nType ${printableName(address)} to confirm: `);
    if (typed !== address && typed !== printable(address)) {
      cli.stderr.write(`"${printable(typed)}" is not ${printableName(address)}: no rule was added.\n`);
      return 1;
    }
  }
  const expiry = await cli.service.call('buckets.expirePrefix', {
    connectionId: cli.connectionId,
    name: location.bucket,
    prefix,
  });
  cli.stdout.write(cli.options.json ? jsonOf(location.bucket, expiry) : textOf(location.bucket, prefix, expiry));
  return 0;
}

function jsonOf(bucket: string, expiry: ExpiryOnServer): string {
  return `${printableJson({ bucket, ...expiry, description: describeRule(expiry.rule), runs: 'asynchronously' })}\n`;
}

function textOf(bucket: string, prefix: string, { rule, dropped, versioning, already }: ExpiryOnServer): string {
  return [
    already
      ? `Lifecycle rule ${printable(rule.id)} was in s3://${bucket} already (nothing changed); as the store reads it:`
      : `Added lifecycle rule ${printable(rule.id)} to s3://${bucket}; as the store reads it back:`,
    `  ${printable(describeRule(rule))}`,
    ...droppedLines(bucket, prefix, dropped),
    versioningNote(versioning),
    EXPIRY_RUNS_LATER,
    `To take it back before the store acts: barge lifecycle rm ${shellOperands([`s3://${bucket}`, rule.id])}`,
    '',
  ].join('\n');
}

/** What the store did not keep, said plainly, with what to do instead. */
function droppedLines(bucket: string, prefix: string, dropped: readonly string[]): string[] {
  if (dropped.length === 0) return [];
  const uploads = dropped.includes('the abort of incomplete uploads')
    ? [`  Abort the incomplete uploads from here: barge abort-uploads s3://${bucket}/${prefix}`]
    : [];
  return [`The store did not keep part of the rule: ${dropped.join(', ')}. It does the rest.`, ...uploads];
}
