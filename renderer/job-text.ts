// What a job's row says about its pace: live throughput and ETA while it runs, its average,
// duration and end time once it has finished. Never "?": a job still counting says so.

import type { JobSummary } from '../src/jobs.ts';
import { isFinished } from '../src/jobs.ts';
import { plural } from '../src/plural.ts';
import { formatDuration, formatRate } from './format.ts';

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
  return end.toDateString() === new Date(nowMs).toDateString() ? time : `${end.getFullYear()}-${pad(end.getMonth() + 1)}-${pad(end.getDate())} ${time}`;
}

export function jobPace(job: Pick<JobSummary, 'kind' | 'state' | 'progress' | 'startedAt' | 'endedAt'>, nowMs: number = Date.now()): JobPace {
  const p = job.progress;
  const status = job.state.status;
  if (isFinished(job.state)) {
    if (job.startedAt === undefined || job.endedAt === undefined) return { rate: '', timing: status, detail: status };
    const seconds = Math.max(0, (job.endedAt - job.startedAt) / 1000);
    // Bytes for transfers; objects for a delete (the bytes it counts are the objects' sizes, not
    // bytes moved: "avg 0.0 MiB/s" would say a fast delete was slow).
    const byObjects = job.kind === 'delete' || p.bytesTotal === 0;
    const rate = seconds <= 0 ? '' : !byObjects ? `avg ${formatRate(p.bytesDone / seconds)}` : p.objectsDone > 0 ? `avg ${plural(Math.round(p.objectsDone / seconds), 'object')}/s` : '';
    const took = `took ${formatElapsed(seconds)}, ended`;
    return { rate, timing: `${took} ${formatEnd(job.endedAt, nowMs)}`, detail: `${took} ${formatEnd(job.endedAt, nowMs, true)}` };
  }
  const live = (rate: string, timing: string): JobPace => ({ rate, timing, detail: timing });
  if (status === 'queued') return live('', 'waiting to start');
  if (status === 'paused') return live('', 'paused');
  // A running delete's pace is its count (objects done), not bytes a second.
  const rate = job.kind === 'delete' ? '' : formatRate(p.bytesPerSecond);
  // The ETA of what is found so far is a lower bound: a range with no upper end yet.
  if (!p.totalsKnown) return live(rate, p.etaSeconds === undefined ? 'counting…' : `ETA ${formatDuration(p.etaSeconds)} or more (counting…)`);
  return live(rate, p.etaSeconds === undefined ? 'ETA: measuring…' : `ETA ${formatDuration(p.etaSeconds)}`);
}
