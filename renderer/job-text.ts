// What a job's row says about its pace: live throughput and ETA while it runs, its average,
// duration and end time once it has finished. Never "?": a job still counting says so.

import type { JobSummary } from '../src/jobs.ts';
import { isFinished } from '../src/jobs.ts';
import { plural } from '../src/plural.ts';
import { formatDuration, formatRate } from './format.ts';

export interface JobPace {
  /** Throughput: live while running, the average once finished ("" when there is none to tell). */
  readonly rate: string;
  /** ETA while running; "took 4.2s, ended 14:03:12" once finished. */
  readonly timing: string;
}

/** "0.4s", "4.2s", "42s", "3m05s": tenths below ten seconds, where a short job's time is all there is. */
export function formatElapsed(seconds: number): string {
  return seconds < 10 ? `${seconds.toFixed(1)}s` : formatDuration(seconds);
}

/** "14:03:12" today, "2026-03-01 14:03" another day. */
export function formatEnd(ms: number, nowMs: number): string {
  const end = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(end.getHours())}:${pad(end.getMinutes())}:${pad(end.getSeconds())}`;
  return end.toDateString() === new Date(nowMs).toDateString() ? time : `${end.getFullYear()}-${pad(end.getMonth() + 1)}-${pad(end.getDate())} ${time.slice(0, 5)}`;
}

export function jobPace(job: Pick<JobSummary, 'state' | 'progress' | 'startedAt' | 'endedAt'>, nowMs: number = Date.now()): JobPace {
  const p = job.progress;
  const status = job.state.status;
  if (isFinished(job.state)) {
    if (job.startedAt === undefined || job.endedAt === undefined) return { rate: '', timing: status };
    const seconds = Math.max(0, (job.endedAt - job.startedAt) / 1000);
    // Bytes for transfers; objects for a delete (it moves no bytes).
    const rate = seconds <= 0 ? '' : p.bytesTotal > 0 ? `avg ${formatRate(p.bytesDone / seconds)}` : p.objectsDone > 0 ? `avg ${plural(Math.round(p.objectsDone / seconds), 'object')}/s` : '';
    return { rate, timing: `took ${formatElapsed(seconds)}, ended ${formatEnd(job.endedAt, nowMs)}` };
  }
  if (status === 'queued') return { rate: '', timing: 'waiting to start' };
  if (status === 'paused') return { rate: '', timing: 'paused' };
  const rate = formatRate(p.bytesPerSecond);
  if (!p.totalsKnown) {
    // The ETA of what is found so far is a lower bound: a range with no upper end yet.
    return { rate, timing: p.etaSeconds === undefined ? 'counting…' : `ETA ${formatDuration(p.etaSeconds)} or more (counting…)` };
  }
  return { rate, timing: p.etaSeconds === undefined ? 'ETA: measuring…' : `ETA ${formatDuration(p.etaSeconds)}` };
}
