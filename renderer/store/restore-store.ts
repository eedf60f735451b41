// Restore to…: bring a folder back to how it was at a moment. A dry run of the restore comes first
// (a job of its own, never listed in Transfers), and every change it would make is listed from its
// items; only then can the operator run it for real, at the very moment the list was made for.
//
// Refusals come as the dry run's error (versioning never enabled or suspended, dates the store cannot
// give); a moment in the future is refused here, before anything is asked of the host.

import { create } from 'zustand';
import type { JobItem, JobSummary } from '../../src/jobs.ts';
import { request } from './api.ts';
import { useJobs } from './jobs-store.ts';

/** Changes the list keeps (past them it says how many more there are): a dialog holds no million rows. */
export const PLAN_ROWS_KEPT = 10_000;
/** Items a details call fetches: the most jobs.details gives. */
const PLAN_PAGE_SIZE = 1000;

export interface RestoreTarget {
  readonly connectionId: string;
  readonly bucket: string;
  /** The folder ("logs/", "" for the whole bucket). */
  readonly prefix: string;
}

interface RestoreState {
  readonly target: RestoreTarget | undefined;
  /** The moment the plan is for (ms since 1970, UTC). */
  readonly to: number | undefined;
  /** The dry run listing the changes. */
  readonly planId: string | undefined;
  /** The changes listed (the first PLAN_ROWS_KEPT), once the dry run has ended. */
  readonly changes: readonly JobItem[];
  /** Changes the dry run counted. */
  readonly total: number;
  /** The dry run has ended and its changes are listed: the restore may run. */
  readonly planned: boolean;
  /** Why there is no plan, or why the restore was refused. */
  readonly error: string | undefined;
  /** Open the dialog for a folder. */
  open(target: RestoreTarget): void;
  close(): void;
  /** List what restoring to `to` would change (a dry run); `now`: the clock, for the future's refusal. */
  plan(to: number, now?: number): Promise<void>;
  /** The dry run moved on (the dialog watches it in the jobs store): once it has ended, list its changes. */
  planMoved(job: JobSummary): Promise<void>;
  /** Run the restore planned; resolves with its job (shown in Transfers). */
  run(): Promise<JobSummary | undefined>;
}

/** "2099-01-01 12:00 is in the future: …", or undefined for a moment that has passed. */
export function futureProblem(to: number, now: number): string | undefined {
  if (to <= now) return undefined;
  return (
    `${new Date(to).toLocaleString()} is in the future: a restore brings a folder back to how it was at a ` +
    `moment that has passed. Pick an earlier time.`
  );
}

const UNPLANNED = { to: undefined, planId: undefined, changes: [], total: 0, planned: false, error: undefined };

let generation = 0;

export const useRestore = create<RestoreState>((set, get) => {
  /** A plan nobody will read any more stops listing. */
  const dropPlan = () => {
    generation++;
    const { planId } = get();
    if (planId !== undefined && !get().planned) void request('jobs.cancel', { id: planId }).catch(() => undefined);
  };

  return {
    target: undefined,
    ...UNPLANNED,
    open(target) {
      dropPlan();
      set({ target, ...UNPLANNED });
    },
    close() {
      dropPlan();
      set({ target: undefined, ...UNPLANNED });
    },
    async plan(to, now = Date.now()) {
      const { target } = get();
      if (!target) return;
      dropPlan();
      const mine = generation;
      const problem = futureProblem(to, now);
      set({ ...UNPLANNED, to, error: problem });
      if (problem) return;
      try {
        const job = await useJobs.getState().restore({ ...target, to, dryRun: true });
        if (mine !== generation) {
          void request('jobs.cancel', { id: job.id }).catch(() => undefined);
          return;
        }
        set({ planId: job.id });
        await get().planMoved(job);
      } catch (error) {
        if (mine === generation) set({ error: (error as Error).message });
      }
    },
    async planMoved(job) {
      const mine = generation;
      if (job.id !== get().planId || get().planned) return;
      if (job.state.status === 'failed') {
        set({ error: job.state.error.message });
        return;
      }
      if (job.state.status === 'cancelled') {
        set({ error: 'The dry run was cancelled: nothing is listed, and nothing was changed.' });
        return;
      }
      if (job.state.status !== 'completed') return;
      const changes: JobItem[] = [];
      let total = 0;
      try {
        do {
          const page = await request('jobs.details', {
            id: job.id,
            filter: 'all',
            offset: changes.length,
            limit: PLAN_PAGE_SIZE,
          });
          if (mine !== generation) return;
          total = page.total;
          changes.push(...page.items.slice(0, PLAN_ROWS_KEPT - changes.length));
          if (page.items.length === 0) break;
        } while (changes.length < Math.min(total, PLAN_ROWS_KEPT));
        set({ changes, total, planned: true });
      } catch (error) {
        if (mine === generation) set({ error: (error as Error).message });
      }
    },
    async run() {
      const { target, to, planned } = get();
      if (!target || to === undefined || !planned) return undefined;
      try {
        return await useJobs.getState().restore({ ...target, to, dryRun: false });
      } catch (error) {
        set({ error: (error as Error).message });
        return undefined;
      }
    },
  };
});
