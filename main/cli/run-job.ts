// Run one engine job to the end from the command line: progress, Ctrl-C, summary, exit status.

import path from 'node:path';
import { formatBytes, formatDuration, formatObjectRate, formatRate } from '../../src/byte-units.ts';
import { receiptFormatFor } from '../../src/receipt.ts';
import { plural } from '../../src/plural.ts';
import { groupDigits } from '../../src/digit-groups.ts';
import { printable, printableJson } from '../../src/unsafe-text.ts';
import type { EarlierRun, ItemError, ItemList, JobSnapshot, JobSummary, JobUpdate } from '../../src/jobs.ts';
import { isFinished } from '../../src/jobs.ts';
import { silentProgress, terminalProgress } from './progress-line.ts';
import { rerunAdvice } from './rerun-advice.ts';
import { LimitTally } from './limit-tally.ts';
import type { CliContext } from './context.ts';

/** A run last heard of longer ago than this is started afresh, not resumed. */
export const RESUME_WITHIN_DAYS = 7;

/** How a run ended; `signal`: the signal that cancelled it (the exit status says which). */
export type RunEnd = JobSnapshot & { readonly signal?: NodeJS.Signals; readonly receiptMissing?: boolean };

/** Signals that cancel a run as Ctrl-C does: a plain kill, a timeout, a service stop, a closed terminal. */
const CANCELLING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Start a job through the service and follow it to its end. Progress is listened to before the job
 * starts: a job that ends at once is not missed.
 */
/**
 * `whileKept`: what to read of the ended job before it is forgotten (a dry run's matches, from its
 * items); it runs before the summary is written.
 */
export async function runJob(
  cli: CliContext,
  start: () => Promise<JobSummary>,
  verb?: string,
  whileKept?: (id: string, end: JobUpdate) => Promise<void>,
): Promise<RunEnd> {
  const view =
    !cli.options.json && !cli.options.quiet && cli.stderr.isTTY ? terminalProgress(cli.stderr) : silentProgress;
  // Unknown until the service answers the start: progress may come first.
  let id: string | undefined = undefined;
  /** What arrived before the job's ID was known. */
  const early = new Map<string, JobUpdate>();
  let settle: (end: JobUpdate) => void = () => undefined;
  const ended = new Promise<JobUpdate>((resolve) => {
    settle = resolve;
  });
  // What limits the run, read from the engine's stats once a second (the progress line shows it now,
  // --json the one named most often).
  const limits = new LimitTally();
  const seen = (snapshot: JobUpdate) => {
    view.update(snapshot, limits.now);
    if (isFinished(snapshot.state)) settle(snapshot);
  };
  const stop = cli.service.subscribe((event) => {
    if (event.type === 'stats') limits.add(event.stats.limit);
    if (event.type !== 'jobs') return;
    for (const snapshot of event.jobs) {
      if (id === undefined) early.set(snapshot.id, snapshot);
      else if (snapshot.id === id) seen(snapshot);
    }
  });
  let first: JobSummary;
  try {
    first = await start();
  } catch (error) {
    stop();
    throw error;
  }
  const jobId = first.id;
  id = jobId;
  seen(early.get(jobId) ?? first);
  early.clear();
  // Ctrl-C, kill, timeout or a service stop cancels: requests in flight stop, multipart uploads
  // are aborted, partial files removed, and the run is not resumed (it is over, not interrupted).
  let signal: NodeJS.Signals | undefined;
  const onInterrupt = (received: NodeJS.Signals) => {
    if (signal) {
      // A second one means now: the default action ends the process (the journal keeps what a
      // later run needs to clean up or go on).
      for (const each of CANCELLING_SIGNALS) process.off(each, onInterrupt);
      process.kill(process.pid, received);
      return;
    }
    signal = received;
    cli.stderr.write(
      `\n${received === 'SIGINT' ? 'Cancelling' : `${received} received: cancelling`} (cleaning up incomplete ` +
        `uploads and partial files; nothing will be left to resume)...\n`,
    );
    void cli.service.call('jobs.cancel', { id: jobId });
  };
  for (const each of CANCELLING_SIGNALS) process.on(each, onInterrupt);
  if (first.earlierRun && !cli.options.quiet && !cli.options.json)
    cli.stderr.write(`${earlierRunLine(first.earlierRun)}\n`);
  const started = Date.now();
  let last: JobUpdate;
  try {
    last = await ended;
  } finally {
    for (const each of CANCELLING_SIGNALS) process.off(each, onInterrupt);
    stop();
    view.done();
  }
  const seconds = (Date.now() - started) / 1000;
  const end: JobSnapshot = {
    ...first,
    ...last,
    itemErrors: await items(cli, jobId, 'errors'),
    itemWarnings: await items(cli, jobId, 'warnings'),
  };
  // Written whatever the outcome: what landed, and what failed with why (the status column).
  // A receipt that cannot be written after all (the disk filled meanwhile) is said after the
  // summary, and fails the run: what was asked for is missing, though the transfer is done.
  const receiptError =
    cli.options.receipt === undefined
      ? undefined
      : await cli.service
          .call('jobs.saveReceipt', {
            id: jobId,
            path: path.resolve(cli.options.receipt),
            format: receiptFormatFor(cli.options.receipt),
          })
          .then(
            () => undefined,
            (error: unknown) => error as Error,
          );
  await whileKept?.(jobId, end);
  // A finished run is done with its journal; a failed one stays, for the same command to go on.
  if (end.state.status === 'completed' || end.state.status === 'cancelled')
    await cli.service.call('jobs.forget', { id: jobId });
  if (cli.options.json) {
    const limit = limits.mostNamed();
    cli.stdout.write(
      `${printableJson({ ...end, seconds, tuning: await tuningUsed(cli), stats: limit ? { limit } : {} })}
`,
    );
  } else {
    for (const error of end.itemErrors) cli.stderr.write(`error: ${printable(error.message)}\n`);
    if (end.progress.objectsFailed > end.itemErrors.length)
      cli.stderr.write(
        `… and ${plural(end.progress.objectsFailed - end.itemErrors.length, 'more error', 'more errors')}\n`,
      );
    const sizeOnly = end.progress.objectsSizeOnly ?? 0;
    const warnings = end.itemWarnings ?? [];
    for (const warning of warnings) cli.stderr.write(`warning: ${printable(warning.message)}\n`);
    const sizeOnlyShown = warnings.filter((warning) => warning.code === 'SizeOnly').length;
    if (sizeOnly > sizeOnlyShown) cli.stderr.write(`… and ${sizeOnly - sizeOnlyShown} more checked for size only\n`);
    const said = cli.options.dryRun ? dryRunSummary(end) : summary(end, seconds, verb);
    if (!cli.options.quiet && said !== undefined) cli.stderr.write(`${said}\n`);
    // The command line's "Retry failed items": the same command again, which skips what was done,
    // advised only where it can help (rerun-advice.ts).
    if (cli.journaled) for (const line of rerunAdvice(end)) cli.stderr.write(`${line}\n`);
  }
  if (receiptError) cli.stderr.write(`error: ${printable(receiptError.message)}\n`);
  const outcome: RunEnd = receiptError ? { ...end, receiptMissing: true } : end;
  return signal ? { ...outcome, signal } : outcome;
}

/**
 * The threads and part size the run used, for --json: each knob's setting (auto or the number pinned),
 * the threads at the end and at their most, the last part size chosen, and Auto's reasons.
 */
async function tuningUsed(cli: CliContext): Promise<Record<string, unknown>> {
  const [settings, stats] = await Promise.all([
    cli.service.call('settings.get', {}),
    cli.service.call('engine.stats', {}),
  ]);
  const auto = stats.auto;
  return {
    threadsSetting: settings.threads,
    threads: auto?.threads,
    peakThreads: auto?.peakThreads,
    partSizeSetting: settings.partSizeBytes,
    partSizeBytes: auto?.partSizeBytes,
    reason: auto?.reason,
    partSizeReason: auto?.partSizeReason,
  };
}

/** The job's item errors or warnings, as far as it kept them (the first thousand; the counts go on). */
async function items(cli: CliContext, id: string, list: ItemList): Promise<ItemError[]> {
  return (await cli.service.call('jobs.items', { id, list })).items;
}

/**
 * What a run says of the recorded run it goes on from (or replaced, being too old): which, from when, and what is
 * checked.
 */
function earlierRunLine(earlier: EarlierRun): string {
  const when =
    `${new Date(earlier.createdAt).toLocaleString()}, ` +
    `${formatDuration((Date.now() - earlier.updatedAt) / 1000)} ago`;
  if (earlier.tooOld) {
    return (
      `A run of this command from ${when} was not finished; it is older than ${RESUME_WITHIN_DAYS} days, ` +
      `so this run starts afresh (its leftovers are cleaned up).`
    );
  }
  const what = earlier.status === 'failed' ? 'Retrying the failures of the run' : 'Resuming the interrupted run';
  return (
    `${what} of this command from ${when}: everything is listed again; what it finished and is unchanged ` +
    `on both sides is skipped.`
  );
}

/**
 * A dry run's end: nothing was moved, so no bytes, time or rate of a transfer (it said "21 B in 0.0s").
 *
 * A completed one says nothing here: the command prints what would happen ("Would delete 3 objects").
 */
function dryRunSummary(end: JobSnapshot): string | undefined {
  switch (end.state.status) {
    case 'completed':
      return undefined;
    case 'cancelled':
      return 'Cancelled: nothing was changed.';
    case 'failed':
      // Said once: a refusal may say it already.
      if (end.progress.objectsFailed === 0)
        return /Nothing was changed\.$/.test(end.state.error.message)
          ? `Failed: ${printable(end.state.error.message)}`
          : `Failed: ${printable(end.state.error.message)}\nNothing was changed.`;
      return `Failed: ${groupDigits(end.progress.objectsFailed)} failed (named above). Nothing was changed.`;
    default:
      return undefined;
  }
}

function summary(end: JobSnapshot, seconds: number, verb?: string): string {
  const p = end.progress;
  const done =
    verb ??
    {
      upload: 'Uploaded',
      download: 'Downloaded',
      delete: 'Deleted',
      sync: 'Synced (sent or deleted)',
      copy: 'Copied',
      undo: 'Brought back (delete markers removed)',
      restore: 'Restored',
    }[end.kind];
  // Many files: objects a second beside the bytes (a job of small files moves objects more than bytes).
  const objectRate = p.objectsDone > 1 ? `, ${formatObjectRate(p.objectsDone / seconds)}` : '';
  const kept = p.objectsKept ?? 0;
  // Bytes and a rate only where something moved: a job that kept every file it found moved none
  // (it said "14 B in 0.0s (1.2 KiB/s)"), and a key deleted by name has no size the delete knows
  // (it said "0 B" of an object of 34).
  const moved = p.objectsDone - kept > 0 && !(end.kind === 'delete' && p.bytesDone === 0);
  const rate =
    moved && seconds > 0 && end.kind !== 'delete' ? ` (${formatRate(p.bytesDone / seconds)}${objectRate})` : '';
  const took = seconds < 60 ? `${seconds.toFixed(1)}s` : formatDuration(seconds);
  // A file (an object, for an upload) kept as it was is not one transferred: said apart.
  const keptNote =
    kept > 0
      ? `; ${plural(kept, end.kind === 'upload' ? 'object' : 'file')} already there ${kept === 1 ? 'was' : 'were'} kept`
      : '';
  const what =
    `${done} ${groupDigits(p.objectsDone - kept)} of ` +
    `${plural(p.objectsTotal, 'object')}${moved ? `, ${formatBytes(p.bytesDone)}` : ''} in ${took}${rate}${keptNote}`;
  const sizeOnly = p.objectsSizeOnly ?? 0;
  const skipped = p.objectsSkipped ?? 0;
  switch (end.state.status) {
    case 'completed':
      if (skipped > 0)
        return (
          `${what}; ${plural(skipped, 'entry', 'entries')} skipped (named above: not files, or links not ` +
          `followed).`
        );
      // Said last and loudly: saved, but not proven intact (--require-verified refuses them).
      return sizeOnly > 0
        ? `${what}.\nWarning: ${plural(sizeOnly, 'object')} ${sizeOnly === 1 ? 'was' : 'were'} checked for ` +
            `size only, not for content (see above; --require-verified fails them).`
        : what;
    case 'cancelled':
      return `Cancelled. ${what}.`;
    case 'failed':
      // Item errors were printed above; a job-wide error is said here. Skipped entries are counted too.
      if (p.objectsFailed === 0) return `Failed: ${printable(end.state.error.message)}\n${what}.`;
      return (
        `Failed. ${what}; ${groupDigits(p.objectsFailed)} ` +
        `failed${skipped > 0 ? `, ${plural(skipped, 'entry', 'entries')} skipped (named above)` : ''}.`
      );
    default:
      return what;
  }
}
