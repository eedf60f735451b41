// barge speedtest s3://bucket[/prefix]: the endpoint measured in the user's own bucket (src/speed-test.ts's
// grid, the engine's jobs/speed-test.ts), within --budget; a table, or --json; saved for the endpoint.
//
// A progress line on a terminal's stderr (none with --json, --quiet or off a terminal). Ctrl-C cancels:
// the test still empties its prefix, and the command says so before it exits with 130.

import { cleanupInWords, formatSpeedTestTable } from '../../../src/speed-test.ts';
import type { SpeedTestOutcome, SpeedTestProgress } from '../../../src/speed-test.ts';
import { isS3Url, parseS3Url } from '../../../src/s3-url.ts';
import { printable, printableJson } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { untilInterrupted } from '../interrupt.ts';
import { usageError } from '../options.ts';
import { notS3Address } from './job-command.ts';

const BAR_WIDTH = 24;

export async function speedtest(cli: CliContext): Promise<number> {
  const { args, json, quiet, budgetMs } = cli.options;
  if (args.length !== 1) throw usageError('speedtest takes one s3:// address: barge speedtest s3://bucket[/prefix].');
  const target = isS3Url(args[0]!) ? parseS3Url(args[0]!) : undefined;
  if (!target) throw usageError(notS3Address(args[0]!));
  const showProgress = !json && !quiet && cli.stderr.isTTY === true;
  let runId: string | undefined;
  let outcome: SpeedTestOutcome | undefined;
  const ended = new Promise<SpeedTestOutcome>((resolve) => {
    const stop = cli.service.subscribe((event) => {
      if (event.type !== 'speedtest' || event.runId !== runId) return;
      if ('progress' in event) {
        if (showProgress) cli.stderr.write(`\r\x1b[2K${progressText(event.progress, cli.stderr.columns)}`);
        return;
      }
      stop();
      resolve(event.outcome);
    });
  });
  const interrupted = await untilInterrupted(async (_stopped, signal) => {
    const started = await cli.service.call('speedtest.start', {
      connectionId: cli.connectionId,
      bucket: target.bucket,
      prefix: target.key,
      ...(budgetMs === undefined ? {} : { budgetMs }),
    });
    runId = started.runId;
    // A Ctrl-C that came while it started (the bucket's first look, the credentials) cancels it now.
    const cancel = () => void cli.service.call('speedtest.cancel', { runId: started.runId });
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
    outcome = await ended;
  });
  // Cancelled: the test cleans up before it says it ended.
  if (interrupted && runId !== undefined && outcome === undefined) outcome = await ended;
  if (showProgress) cli.stderr.write('\r\x1b[2K');
  if (!outcome) return interrupted ? 130 : 1;
  const left = cleanupInWords(outcome.cleanup);
  if (json) cli.stdout.write(`${printableJson(outcome)}\n`);
  else if (outcome.state === 'done') cli.stdout.write(formatSpeedTestTable(outcome.result));
  if (left) cli.stderr.write(`barge: ${printable(left)}\n`);
  if (outcome.state === 'failed') {
    if (!json) cli.stderr.write(`barge: ${printable(outcome.error.message)}\n`);
    return 1;
  }
  if (outcome.state === 'cancelled') {
    if (!json)
      cli.stderr.write(`Stopped: nothing was saved; ${left ? 'see above' : 'the test objects are deleted'}.\n`);
    return 130;
  }
  return left ? 1 : 0;
}

/** "[######..........]  42%  PUT 256 KiB objects, 64 threads  (17/70 cells)". */
export function progressText(progress: SpeedTestProgress, columns = 100): string {
  const filled = Math.round(progress.fraction * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
  const doing =
    progress.phase === 'cleaning' ? `Deleting the test objects in ${printable(progress.place)}` : (progress.cell ?? '');
  const cells = `(${progress.cellsDone}/${progress.cellsTotal} cells)`;
  const line = `${bar} ${Math.floor(progress.fraction * 100)}%  ${doing}  ${cells}`;
  return line.length > columns - 1 ? line.slice(0, columns - 1) : line;
}
