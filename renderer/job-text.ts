// What a job's row says about its pace: live throughput and ETA while it runs, its average,
// duration and end time once it has finished. Never "?": a job still counting says so.

import type { JobSummary } from '../src/jobs.ts';
import { isFinished } from '../src/jobs.ts';
import { formatDuration, formatObjectRate, formatRate } from './format.ts';

export interface JobPace {
  /** Throughput: live while running, the average once finished ("" when there is none to tell). */
  readonly rate: string;
  /** ETA while running; "took 4.2s, ended 14:03" once finished. */
  readonly timing: string;
  /** The timing in full, for a tooltip ("took 4.2s, ended 14:03:12"). */
  readonly detail: string;
}

/** "0.4s", "4.2s", "42s", "3m05s": tenths below ten seconds, where a short job's time is all there is. */
export function formatElapsed(seconds: number): string {
  return seconds < 10 ? `${seconds.toFixed(1)}s` : formatDuration(seconds);
}

/** "14:03" today, "2026-03-01 14:03" another day; with `seconds`, "14:03:12" (a tooltip has room). */
export function formatEnd(ms: number, nowMs: number, seconds = false): string {
  const end = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(end.getHours())}:${pad(end.getMinutes())}${seconds ? `:${pad(end.getSeconds())}` : ''}`;
  return end.toDateString() === new Date(nowMs).toDateString()
    ? time
    : `${end.getFullYear()}-${pad(end.getMonth() + 1)}-${pad(end.getDate())} ${time}`;
}

/**
 * The pace to show, in the units the job moves: bytes a second for one file; for many, objects a
 * second beside them (small files move objects more than bytes); for a delete, objects alone (the
 * sizes it counts are no bytes moved: "0.0 MiB/s" would say a fast delete was slow).
 */
function paceText(
  job: Pick<JobSummary, 'kind' | 'progress'>,
  bytesPerSecond: number,
  objectsPerSecond: number,
): string {
  const p = job.progress;
  if (job.kind === 'delete' || p.bytesTotal === 0) return formatObjectRate(objectsPerSecond);
  if (Math.max(p.objectsTotal, p.objectsDone) <= 1) return formatRate(bytesPerSecond);
  return `${formatRate(bytesPerSecond)}, ${formatObjectRate(objectsPerSecond)}`;
}

export function jobPace(
  job: Pick<JobSummary, 'kind' | 'state' | 'progress' | 'startedAt' | 'endedAt'>,
  nowMs: number = Date.now(),
): JobPace {
  const p = job.progress;
  const status = job.state.status;
  if (isFinished(job.state)) {
    if (job.startedAt === undefined || job.endedAt === undefined) return { rate: '', timing: status, detail: status };
    const seconds = Math.max(0, (job.endedAt - job.startedAt) / 1000);
    // Files kept as they were (already there) moved nothing: a job that kept all it found has no
    // average (it said "avg 5.6 KiB/s, 176 objects/s" of three files it never downloaded).
    const moved =
      p.objectsDone - (p.objectsKept ?? 0) > 0 ||
      (job.kind !== 'delete' && p.bytesDone > 0 && (p.objectsKept ?? 0) === 0);
    const rate = seconds <= 0 || !moved ? '' : `avg ${paceText(job, p.bytesDone / seconds, p.objectsDone / seconds)}`;
    const took = `took ${formatElapsed(seconds)}, ended`;
    return {
      rate,
      timing: `${took} ${formatEnd(job.endedAt, nowMs)}`,
      detail: `${took} ${formatEnd(job.endedAt, nowMs, true)}`,
    };
  }
  const live = (rate: string, timing: string): JobPace => ({ rate, timing, detail: timing });
  if (status === 'queued') return live('', 'waiting to start');
  if (status === 'paused') return live('', 'paused');
  const rate = paceText(job, p.bytesPerSecond, p.objectsPerSecond ?? 0);
  // The ETA of what is found so far is a lower bound: a range with no upper end yet.
  if (!p.totalsKnown)
    return live(
      rate,
      p.etaSeconds === undefined ? 'counting…' : `ETA ${formatDuration(p.etaSeconds)} or more (counting…)`,
    );
  return live(rate, p.etaSeconds === undefined ? 'ETA: measuring…' : `ETA ${formatDuration(p.etaSeconds)}`);
}
