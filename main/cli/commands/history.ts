// barge history: the jobs every host ran, newest first; `history show JOB` one job whole, or with
// --keys each key and version it removed; `barge undo JOB` takes a delete back.
//
// The history is the journal's (BARGE_DATA_DIR): the app, the web host and every barge command
// write to it, so a delete made in the window is listed here too. A delete is undone on the
// connection it ran on: one made in the window, from the window (the command line's connection is
// its own session, and an undo elsewhere is refused, saying where it ran).

import { formatBytes } from '../../../src/byte-units.ts';
import type { HistoryEntry } from '../../../src/history.ts';
import { JOB_KIND_NAMES } from '../../../src/jobs.ts';
import { plural } from '../../../src/plural.ts';
import { printable, printableJson } from '../../../src/unsafe-text.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import { runJob } from '../run-job.ts';
import { exitStatus, rerun } from './job-command.ts';

/** Jobs listed when --limit is not given. */
const DEFAULT_LIMIT = 50;
/** An ID is shown by its start, as git shows commits: enough to name it. */
const SHORT_ID = 8;

export async function history(cli: CliContext): Promise<number> {
  const [sub, id, ...rest] = cli.options.args;
  if (sub === 'show') {
    if (id === undefined || rest.length > 0) throw usageError('history show takes one job: barge history show JOB.');
    return show(cli, id);
  }
  if (sub !== undefined) throw usageError(`history takes "show JOB", or nothing (to list jobs), not "${sub}".`);
  if (cli.options.keysFormat !== undefined)
    throw usageError('--keys goes with one job: barge history show JOB --keys csv.');
  const { jobs, total } = await cli.service.call('history.list', {
    ...(cli.options.kinds ? { kinds: [...cli.options.kinds] } : {}),
    failedOnly: cli.options.failedOnly,
    limit: Math.min(cli.options.limit ?? DEFAULT_LIMIT, 1000),
  });
  if (cli.options.json) {
    for (const job of jobs) cli.stdout.write(`${printableJson(job)}\n`);
    return 0;
  }
  if (jobs.length === 0) {
    cli.stdout.write('No jobs in the history (it keeps what ran in the last 90 days, up to 10,000 jobs).\n');
    return 0;
  }
  const rows = jobs.map((job) => [
    job.id.slice(0, SHORT_ID),
    when(job.endedAt ?? job.createdAt),
    JOB_KIND_NAMES[job.kind],
    outcome(job),
    job.host,
    printable(job.name),
  ]);
  const header = ['JOB', 'ENDED', 'KIND', 'OUTCOME', 'HOST', 'WHAT'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows])
    cli.stdout.write(
      `${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')}\n`,
    );
  if (total > jobs.length) cli.stdout.write(`… ${plural(total - jobs.length, 'more job')} (--limit N lists more).\n`);
  return 0;
}

async function show(cli: CliContext, id: string): Promise<number> {
  const job = await cli.service.call('history.job', { id });
  const format = cli.options.keysFormat;
  if (format !== undefined) {
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const page: { text: string; next?: number } = await cli.service.call('history.removals', {
        id: job.id,
        format,
        offset,
      });
      cli.stdout.write(page.text);
      offset = page.next;
    }
    return 0;
  }
  if (cli.options.json) {
    cli.stdout.write(`${printableJson(job)}\n`);
    return 0;
  }
  const p = job.progress;
  const lines: [string, string][] = [
    ['Job', job.id],
    ['Kind', JOB_KIND_NAMES[job.kind]],
    ['What', printable(job.name)],
    ['Asked', printable(JSON.stringify(job.spec))],
    ['Host', job.host],
    ['Connection', printable(job.connection)],
    ['Started', when(job.createdAt)],
    ['Ended', job.endedAt === undefined ? '(not ended)' : when(job.endedAt)],
    ['Outcome', outcome(job)],
  ];
  if (p)
    lines.push([
      'Objects',
      `${count(p.objectsDone)} done, ${count(p.objectsFailed)} failed, ${formatBytes(p.bytesDone)}`,
    ]);
  if (job.state?.status === 'failed') lines.push(['Error', printable(job.state.error.message)]);
  if (job.removed > 0)
    lines.push([
      'Removed',
      `${plural(job.removed, 'object')} (barge history show ${job.id.slice(0, SHORT_ID)} --keys csv lists them)`,
    ]);
  if (job.versioning) lines.push(['Versioning', `${job.versioning} (when it ran)`]);
  if (job.undoneBy) lines.push(['Undone by', job.undoneBy]);
  else if (job.kind === 'delete')
    lines.push([
      'Undo',
      job.undo.possible ? `barge undo ${job.id.slice(0, SHORT_ID)}` : `not possible: ${job.undo.why}`,
    ]);
  const width = Math.max(...lines.map(([label]) => label.length));
  for (const [label, value] of lines) cli.stdout.write(`${`${label}:`.padEnd(width + 2)}${value}\n`);
  return 0;
}

/** barge undo JOB: a job of its own, followed to its end as any job is. */
export async function undo(cli: CliContext): Promise<number> {
  const [id, ...rest] = cli.options.args;
  if (id === undefined || rest.length > 0)
    throw usageError('undo takes one job: barge undo JOB (barge history lists them).');
  const end = await runJob(cli, () =>
    cli.service.call('history.undo', { id, connectionId: cli.connectionId, ...rerun(cli) }),
  );
  return exitStatus(end);
}

function outcome(job: HistoryEntry): string {
  if (job.undoneBy) return 'undone';
  if (job.status === 'active') return 'unfinished';
  const failed = job.progress?.objectsFailed ?? 0;
  return job.status === 'failed' && failed > 0 ? `failed (${failed.toLocaleString('en-US')})` : job.status;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** A moment as UTC to the second, as the store's dates are. */
function when(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}
