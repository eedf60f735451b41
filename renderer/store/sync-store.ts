// Sync… in the window: the comparison first (a dry run of the sync job, read back from its details), then the job.
//
// The comparison is the engine's own plan (jobs.sync with dryRun), so the window shows exactly what
// the command line's --dry-run prints; it is a preview, never listed as a transfer, and forgotten
// once read. The sync itself is one job in the transfers panel.

import { create } from 'zustand';
import type { JobState, JobSummary } from '../../src/jobs.ts';
import { isFinished } from '../../src/jobs.ts';
import type { MethodParams } from '../../src/contract/api.ts';
import { request } from './api.ts';
import { useJobs } from './jobs-store.ts';

export type SyncRequest = MethodParams<'jobs.sync'>;
export type SyncReason = 'new' | 'changed' | 'extra';

/** One key of the plan: why, where from and to, how big. */
export interface PlannedItem {
  readonly reason: SyncReason;
  readonly source: string;
  readonly destination: string;
  readonly size: number;
  readonly why: string;
}

export interface SyncPlan {
  readonly totals: Readonly<Record<SyncReason, { readonly count: number; readonly bytes: number }>>;
  /** The first MAX_LISTED_ITEMS keys, in key order. */
  readonly items: readonly PlannedItem[];
  /**
   * Why the extras would not be deleted even when asked ("/path holds nothing": the engine refuses
   * to empty a destination from an empty source), or undefined when they would be.
   */
  readonly extrasKept: string | undefined;
}

/** Keys the dialog lists at most; the totals count them all. */
export const MAX_LISTED_ITEMS = 1_000;
/** Items read a call. */
const PAGE_ITEMS = 1_000;

interface SyncState {
  /** Compare a folder and a prefix (nothing is sent); rejects with the reason it was refused or failed. */
  compare(params: Omit<SyncRequest, 'dryRun' | 'delete'>): Promise<SyncPlan>;
  /** Start the sync as one job; resolves with it. */
  run(params: Omit<SyncRequest, 'dryRun'>): Promise<JobSummary>;
}

export const useSync = create<SyncState>()(() => ({
  async compare(params) {
    const { id } = await startPreview(params);
    const state = await finished(id);
    try {
      if (state.status !== 'completed')
        throw new Error(state.status === 'failed' ? state.error.message : 'The comparison was cancelled.');
      return await readPlan(id);
    } finally {
      await request('jobs.forget', { id }).catch(() => undefined);
    }
  },
  async run(params) {
    const job = await request('jobs.sync', { ...params, dryRun: false });
    useJobs.getState().apply([job]);
    return job;
  },
}));

async function startPreview(params: Omit<SyncRequest, 'dryRun' | 'delete'>): Promise<JobSummary> {
  // Planned with delete, so the plan says whether the extras would go (the dialog still asks first).
  const job = await request('jobs.sync', { ...params, dryRun: true, delete: true });
  useJobs.setState((s) => ({ previews: new Set([...s.previews, job.id]) }));
  useJobs.getState().apply([job]);
  return job;
}

/** The job's state once it has ended, as the jobs store hears of it. */
function finished(id: string): Promise<JobState> {
  return new Promise((resolve) => {
    let stop: (() => void) | undefined;
    const check = () => {
      const job = useJobs.getState().jobs.get(id);
      if (!job || !isFinished(job.state)) return;
      stop?.();
      stop = undefined;
      resolve(job.state);
    };
    stop = useJobs.subscribe(check);
    check();
  });
}

async function readPlan(id: string): Promise<SyncPlan> {
  const totals = { new: { count: 0, bytes: 0 }, changed: { count: 0, bytes: 0 }, extra: { count: 0, bytes: 0 } };
  const items: PlannedItem[] = [];
  let extrasKept: string | undefined;
  for (let offset = 0; ; offset += PAGE_ITEMS) {
    const page = await request('jobs.details', { id, filter: 'all', offset, limit: PAGE_ITEMS });
    for (const item of page.items) {
      const note = item.message ?? '';
      const reason = note.split(':')[0] as SyncReason;
      if (!(reason in totals)) continue;
      totals[reason].count += 1;
      totals[reason].bytes += item.size ?? 0;
      const why = note.includes(':') ? note.slice(note.indexOf(':') + 1).trim() : '';
      // The dry run's own words, "not deleted (s3://… holds nothing)": kept is what is in brackets.
      const kept = reason === 'extra' ? /^not deleted \((.*)\)$/.exec(why) : null;
      if (kept) extrasKept = kept[1];
      if (items.length < MAX_LISTED_ITEMS)
        items.push({ reason, source: item.source, destination: item.destination, size: item.size ?? 0, why });
    }
    if (page.items.length < PAGE_ITEMS) break;
  }
  return { totals, items, extrasKept };
}
