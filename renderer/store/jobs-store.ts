// Jobs as the window shows them, with a short speed history each for the graphs.
//
// Progress arrives in batches of numbers (at most ten a second); the store applies what arrived
// once per animation frame, so a thousand jobs reporting at once cost one render, not a thousand.
// A job itself (its name, its questions) arrives when it appears or changes, and its item errors
// and warnings once each, as they happen: they are kept here, bounded.

import { create } from 'zustand';
import type { MethodParams } from '../../src/contract/api.ts';
import type { EngineStats } from '../../src/contract/models.ts';
import type { ConflictChoice } from '../../src/if-exists.ts';
import type { HistoryEntry } from '../../src/history.ts';
import type { ItemError, JobSummary, JobUpdate } from '../../src/jobs.ts';
import { saveFile } from '../save-file.ts';
import { request } from './api.ts';
import { useJobDetails } from './job-details-store.ts';

/** What the buttons of one job (or, without an id, of all jobs) do. */
export type JobAction = 'pause' | 'resume' | 'cancel' | 'retry';
export type DownloadRequest = MethodParams<'jobs.download'>;
export type DeleteRequest = MethodParams<'jobs.delete'>;
export type CopyRequest = MethodParams<'jobs.copy'>;
export type RestoreRequest = MethodParams<'jobs.restore'>;

/** Points kept per speed graph (one per progress batch or stats tick). */
export const HISTORY_POINTS = 60;
/** Item errors and warnings kept per job (the engine keeps as many; the counts go on). */
export const MAX_ITEMS = 1000;

/** A job as a row shows it: the job, and its item errors and warnings as far as they arrived. */
export interface JobView extends JobSummary {
  readonly itemErrors: readonly ItemError[];
  readonly itemWarnings: readonly ItemError[];
}

interface JobsState {
  readonly jobs: ReadonlyMap<string, JobView>;
  /** Newest first. */
  readonly order: readonly string[];
  readonly history: ReadonlyMap<string, readonly number[]>;
  readonly overall: readonly number[];
  readonly stats: EngineStats | undefined;
  /** Counts a delete dialog runs before anything is deleted: previews, not transfers (never listed as one). */
  readonly previews: ReadonlySet<string>;
  /**
   * Numbers (or whole jobs) to merge in at the next frame. With `live`, the batch is news (an
   * engine event, not a snapshot): the jobs it says completed are told to `onJobsCompleted`'s
   * listeners once merged.
   */
  apply(batch: readonly (JobUpdate | JobSummary)[], options?: { readonly live?: boolean }): void;
  /** Item errors and warnings a job kept, as they happened. */
  addItems(id: string, errors: readonly ItemError[], warnings: readonly ItemError[]): void;
  replaceAll(jobs: readonly JobSummary[]): void;
  remove(ids: readonly string[]): void;
  setStats(stats: EngineStats): void;
  /** Every job the engine knows, merged in (events that arrived meanwhile are kept). */
  /** The host's jobs, taken in; `replace`: they are all there is (a host started again has only its own). */
  load(options?: { readonly replace?: boolean }): Promise<void>;
  /** Pause, resume, cancel or retry one job, or every job without an id. */
  control(action: JobAction, id?: string): Promise<void>;
  /** Remove finished jobs; the list becomes what the engine kept. */
  clearFinished(): Promise<void>;
  /** The user's word on a file already there: for this one, or every one of the job's. */
  resolveConflict(id: string, conflictId: string, choice: ConflictChoice, applyToAll: boolean): Promise<void>;
  /** Save a finished job's receipt (CSV) as a file. */
  saveReceipt(id: string): Promise<void>;
  /** Start a download; resolves with its job, rejects with the reason it was refused. */
  download(params: DownloadRequest): Promise<JobSummary>;
  /** Start a delete (or, with dryRun, a count of what it would delete); rejects with the reason it was refused. */
  delete(params: DeleteRequest): Promise<JobSummary>;
  /**
   * Copy (move: true, a move; a rename is a move to a new name) objects and folders in the store, the
   * window's drag, rename, Copy to… and Move to…; rejects with the reason it was refused.
   */
  copy(params: CopyRequest): Promise<JobSummary>;
  /** Whether each finished delete can be undone, as the history says (asked once per job, by learnUndo). */
  readonly undoable: ReadonlyMap<string, HistoryEntry['undo']>;
  /** Ask the history once whether a finished delete can be undone (its row's Undo shows when it can). */
  learnUndo(id: string): Promise<void>;
  /** Undo a delete: its delete markers removed, as a job of its own (listed here like any job). */
  undo(id: string): Promise<JobSummary>;
  /** Restore a folder to a moment (its dry run is no transfer, and never listed); rejects with the refusal. */
  restore(params: RestoreRequest): Promise<JobSummary>;
}

/** Deletes whose undo was asked about (or is being): each is asked once, however often its row renders. */
const undoAsked = new Set<string>();

/**
 * A count before a delete (a dry run): no transfer, so never listed as one. Known by its summary
 * (whichever window or run started it) as well as by the previews this window asked for.
 */
export function isPreview(job: Pick<JobSummary, 'id' | 'dryRun'> | undefined, previews: ReadonlySet<string>): boolean {
  return job !== undefined && (job.dryRun === true || previews.has(job.id));
}

export function pushBounded(values: readonly number[], value: number, limit = HISTORY_POINTS): number[] {
  const next = values.length >= limit ? values.slice(values.length - limit + 1) : values.slice();
  next.push(value);
  return next;
}

function isSummary(update: JobUpdate | JobSummary): update is JobSummary {
  return 'kind' in update;
}

/**
 * Merge `batch` into the job map, newest jobs first in `order`. Numbers for a job the window does
 * not know yet are left out (and reported in `unknown`, to be loaded whole). Pure, for the store and its tests.
 */
export function mergeJobs(
  jobs: ReadonlyMap<string, JobView>,
  order: readonly string[],
  history: ReadonlyMap<string, readonly number[]>,
  batch: readonly (JobUpdate | JobSummary)[],
) {
  const nextJobs = new Map(jobs);
  const nextHistory = new Map(history);
  const added: string[] = [];
  let unknown = false;
  for (const update of batch) {
    const known = nextJobs.get(update.id);
    if (!known && !isSummary(update)) {
      unknown = true;
      continue;
    }
    if (!known) added.push(update.id);
    nextJobs.set(update.id, { itemErrors: [], itemWarnings: [], ...known, ...update } as JobView);
    if (update.progress)
      nextHistory.set(update.id, pushBounded(nextHistory.get(update.id) ?? [], update.progress.bytesPerSecond));
  }
  added.sort((a, b) => nextJobs.get(b)!.createdAt - nextJobs.get(a)!.createdAt);
  return { jobs: nextJobs, order: added.length > 0 ? [...added, ...order] : order, history: nextHistory, unknown };
}

/** Whether a job has item errors or warnings to show (its counts say so). */
function hasItems(job: JobSummary): boolean {
  const p = job.progress;
  return p.objectsFailed > 0 || (p.objectsSkipped ?? 0) > 0 || (p.objectsSizeOnly ?? 0) > 0 || (p.objectsKept ?? 0) > 0;
}

function appendBounded(kept: readonly ItemError[], more: readonly ItemError[]): readonly ItemError[] {
  return more.length === 0 || kept.length >= MAX_ITEMS ? kept : [...kept, ...more].slice(0, MAX_ITEMS);
}

// What arrived since the last frame, per job (a hidden window gets no frames: this stays bounded by
// the number of jobs, not the number of updates). A whole job is kept whole; numbers go over it.
let queued = new Map<string, JobUpdate | JobSummary>();
/** Items of jobs the window does not show yet (waiting for the next frame, or a hidden tab's): kept, bounded. */
const itemsWaiting = new Map<string, { errors: readonly ItemError[]; warnings: readonly ItemError[] }>();
let frame: number | undefined;
/** Jobs an event said completed, told to the listeners at the next frame (when their summaries are merged). */
let completedNow = new Set<string>();
const completedListeners = new Set<(jobs: readonly JobView[]) => void>();

/**
 * Hear of jobs as they complete (the browser lists its folder again when a job changed it); returns the unsubscribe.
 */
export function onJobsCompleted(listener: (jobs: readonly JobView[]) => void): () => void {
  completedListeners.add(listener);
  return () => completedListeners.delete(listener);
}

export const useJobs = create<JobsState>((set, get) => ({
  jobs: new Map(),
  order: [],
  history: new Map(),
  overall: [],
  stats: undefined,
  previews: new Set(),
  undoable: new Map(),
  apply(batch, options) {
    for (const job of batch) {
      const waiting = queued.get(job.id);
      queued.set(job.id, waiting ? { ...waiting, ...job } : job);
      if (options?.live && job.state.status === 'completed') completedNow.add(job.id);
    }
    frame ??= requestAnimationFrame(() => {
      frame = undefined;
      const pending = [...queued.values()];
      queued = new Map();
      const completed = completedNow;
      completedNow = new Set();
      const { jobs, order, history } = get();
      const { unknown, ...merged } = mergeJobs(jobs, order, history, pending);
      for (const [id, items] of itemsWaiting) {
        const job = merged.jobs.get(id);
        if (!job) continue;
        merged.jobs.set(id, {
          ...job,
          itemErrors: appendBounded(job.itemErrors, items.errors),
          itemWarnings: appendBounded(job.itemWarnings, items.warnings),
        });
        itemsWaiting.delete(id);
      }
      set(merged);
      const done = [...completed].flatMap((id) => {
        const job = merged.jobs.get(id);
        return job?.state.status === 'completed' ? [job] : [];
      });
      if (done.length > 0) for (const listener of completedListeners) listener(done);
      // A job started elsewhere (another window, one brought back after a restart): loaded whole.
      if (unknown) void get().load();
    });
  },
  addItems(id, errors, warnings) {
    const job = get().jobs.get(id);
    if (!job) {
      // A job that appeared but is not shown yet: its items wait for it.
      const waiting = itemsWaiting.get(id) ?? { errors: [], warnings: [] };
      itemsWaiting.set(id, {
        errors: appendBounded(waiting.errors, errors),
        warnings: appendBounded(waiting.warnings, warnings),
      });
      return;
    }
    const next = new Map(get().jobs);
    next.set(id, {
      ...job,
      itemErrors: appendBounded(job.itemErrors, errors),
      itemWarnings: appendBounded(job.itemWarnings, warnings),
    });
    set({ jobs: next });
  },
  replaceAll(jobs) {
    const kept = new Set(jobs.map((j) => j.id));
    for (const id of [...queued.keys()]) if (!kept.has(id)) queued.delete(id);
    const before = get().jobs;
    const { unknown: _unknown, ...merged } = mergeJobs(new Map(), [], new Map(), jobs);
    // The items already received stay with the jobs that stay.
    for (const [id, job] of merged.jobs) {
      const known = before.get(id);
      if (known) merged.jobs.set(id, { ...job, itemErrors: known.itemErrors, itemWarnings: known.itemWarnings });
    }
    set(merged);
  },
  remove(ids) {
    const gone = new Set(ids);
    for (const id of gone) {
      queued.delete(id);
      itemsWaiting.delete(id);
    }
    const { jobs, order, history } = get();
    set({
      jobs: new Map([...jobs].filter(([id]) => !gone.has(id))),
      order: order.filter((id) => !gone.has(id)),
      history: new Map([...history].filter(([id]) => !gone.has(id))),
    });
  },
  setStats(stats) {
    set({ stats, overall: pushBounded(get().overall, stats.bytesPerSecond) });
  },
  async load(options) {
    const jobs = await request('jobs.snapshot', {});
    if (options?.replace) get().replaceAll(jobs);
    else get().apply(jobs);
    // Items went out once, as they happened: a window that was not there (a reload, a job brought
    // back after a restart) asks for the lists of the jobs that have any.
    await Promise.all(
      jobs.filter(hasItems).map(async (job) => {
        const [errors, warnings] = await Promise.all([
          request('jobs.items', { id: job.id, list: 'errors' }),
          request('jobs.items', { id: job.id, list: 'warnings' }),
        ]);
        const shown = get().jobs.get(job.id);
        // Replaced, not appended: these are the whole lists (as far as the engine keeps them).
        const base = shown ? { ...shown, itemErrors: [], itemWarnings: [] } : undefined;
        if (base) {
          const next = new Map(get().jobs);
          next.set(job.id, base);
          set({ jobs: next });
        }
        get().addItems(job.id, errors.items, warnings.items);
      }),
    );
  },
  async control(action, id) {
    // A failed job whose files were already there would fail them the same way again: its details
    // ask what to do with them instead (when every failure is listed there, so none is left out).
    const job = id === undefined ? undefined : get().jobs.get(id);
    if (
      action === 'retry' &&
      job?.state.status === 'failed' &&
      job.progress.totalsKnown &&
      job.itemErrors.length === job.progress.objectsFailed &&
      job.itemErrors.some((error) => error.rerun === 'needs-choice')
    ) {
      const details = useJobDetails.getState();
      details.open(job.id, 'failed');
      return details.retryFailed(undefined, job.startedAt);
    }
    await request(`jobs.${action}`, { id });
  },
  async clearFinished() {
    get().replaceAll(await request('jobs.clearFinished', {}));
  },
  async resolveConflict(id, conflictId, choice, applyToAll) {
    await request('jobs.resolveConflict', { id, conflictId, choice, applyToAll });
  },
  async saveReceipt(id) {
    const receipt = await request('jobs.receipt', { id, format: 'csv' });
    saveFile(receipt.fileName, receipt.text, 'text/csv');
  },
  async download(params) {
    const job = await request('jobs.download', params);
    get().apply([job]);
    return job;
  },
  async delete(params) {
    const job = await request('jobs.delete', params);
    if (params.dryRun) set({ previews: new Set([...get().previews, job.id]) });
    get().apply([job]);
    return job;
  },
  async copy(params) {
    const job = await request('jobs.copy', params);
    get().apply([job]);
    return job;
  },
  async learnUndo(id) {
    if (undoAsked.has(id)) return;
    undoAsked.add(id);
    try {
      const entry = await request('history.job', { id });
      // Not recorded as ended yet (its end was told before the journal had it): asked again next time.
      if (entry.status === 'active') undoAsked.delete(id);
      else set({ undoable: new Map(get().undoable).set(id, entry.undo) });
    } catch {
      // A history that will not say (none kept, or cleared) offers no undo.
    }
  },
  async undo(id) {
    const job = await request('history.undo', { id });
    set({
      undoable: new Map(get().undoable).set(id, { possible: false, why: `Undone by job ${job.id}.` }),
    });
    get().apply([job]);
    return job;
  },
  async restore(params) {
    const job = await request('jobs.restore', params);
    if (params.dryRun) set({ previews: new Set([...get().previews, job.id]) });
    get().apply([job]);
    return job;
  },
}));
