// When a job's end is news worth a notification, in what words, and how far the jobs under way are
// (a taskbar or dock icon's progress bar). Pure, fed the contract's events: the web host's window
// tells through the browser's Notification API, the desktop app through Electron's, and both say
// the same of the same jobs.
//
// A job that ends within NOTICE_AFTER_MS was watched as it ran: telling of it would be noise. A
// count (a delete's dry run) is no transfer, and a job the user cancelled ended because they said
// so: neither is told.

import type { ApiEvent } from './contract/api.ts';
import { formatBytes, formatDuration } from './byte-units.ts';
import type { JobSummary, JobUpdate } from './jobs.ts';
import { isFinished, JOB_KIND_NAMES, progressFraction } from './jobs.ts';
import { plural } from './plural.ts';
import { printable } from './unsafe-text.ts';

/** A job that runs longer than this is told of when it ends. */
export const NOTICE_AFTER_MS = 10_000;

export interface JobNotice {
  /** The job's ID (a notification per job: a newer one replaces the older). */
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

/** The notice for a job that has just ended, or undefined when its end is no news. */
export function jobEndNotice(job: JobSummary): JobNotice | undefined {
  const status = job.state.status;
  if (job.dryRun || (status !== 'completed' && status !== 'failed')) return undefined;
  if (job.startedAt === undefined || job.endedAt === undefined) return undefined;
  const ms = job.endedAt - job.startedAt;
  if (ms <= NOTICE_AFTER_MS) return undefined;
  const p = job.progress;
  const took = formatDuration(ms / 1000);
  if (job.state.status === 'completed') {
    const moved =
      job.kind === 'delete'
        ? plural(p.objectsDone, 'object')
        : `${plural(p.objectsDone, 'object')}, ${formatBytes(p.bytesDone)}`;
    return {
      id: job.id,
      title: `${JOB_KIND_NAMES[job.kind]} finished`,
      body: `${printable(job.name)}\n${moved} in ${took}.`,
    };
  }
  const why =
    p.objectsFailed > 0
      ? `${p.objectsFailed.toLocaleString('en-US')} of ${plural(p.objectsTotal, 'object')} failed.`
      : job.state.error.message;
  // A name (a key, a file) is shown escaped: a notification is one more screen it must not reorder.
  return { id: job.id, title: `${JOB_KIND_NAMES[job.kind]} failed`, body: `${printable(job.name)}\n${printable(why)}` };
}

/**
 * Follows the contract's events: which jobs just ended (each run told once: a retry is a new run),
 * and how far those under way are. Jobs are known from their 'job' event (their name and kind); a
 * job first seen already ended (in a snapshot, after a restart) is not news.
 */
export class JobWatcher {
  private readonly jobs = new Map<string, { job: JobSummary; running: boolean }>();

  /** One event in; the notices it brings out. */
  take(event: ApiEvent): JobNotice[] {
    switch (event.type) {
      case 'job':
        return this.seen([event.job], true);
      case 'jobs':
        return this.seen(event.jobs, false);
      case 'jobs-removed':
        for (const id of event.ids) this.jobs.delete(id);
        return [];
      default:
        return [];
    }
  }

  /** How far the jobs under way are together, 0 to 1 (by bytes where they have any), or -1 when none is. */
  progress(): number {
    const active = [...this.jobs.values()]
      .map((watched) => watched.job)
      .filter((job) => !job.dryRun && !isFinished(job.state));
    if (active.length === 0) return -1;
    const bytesTotal = active.reduce((sum, job) => sum + job.progress.bytesTotal, 0);
    if (bytesTotal > 0) return Math.min(1, active.reduce((sum, job) => sum + job.progress.bytesDone, 0) / bytesTotal);
    return active.reduce((sum, job) => sum + progressFraction(job), 0) / active.length;
  }

  private seen(updates: readonly (JobUpdate | JobSummary)[], whole: boolean): JobNotice[] {
    const notices: JobNotice[] = [];
    for (const update of updates) {
      const known = this.jobs.get(update.id);
      if (!known && !whole) continue;
      const job = { ...known?.job, ...update } as JobSummary;
      const ended = isFinished(job.state);
      if (ended && known?.running) {
        const notice = jobEndNotice(job);
        if (notice) notices.push(notice);
      }
      this.jobs.set(job.id, { job, running: !ended });
    }
    return notices;
  }
}
