// Jobs as the window shows them, with a short speed history each for the graphs.
//
// Progress arrives in batches (at most ten a second); the store applies what arrived once per
// animation frame, so a thousand jobs reporting at once cost one render, not a thousand.

import { create } from 'zustand';
import type { MethodParams } from '../../src/contract/api.ts';
import type { EngineStats } from '../../src/contract/models.ts';
import type { ConflictChoice } from '../../src/if-exists.ts';
import type { JobSnapshot } from '../../src/jobs.ts';
import { saveFile } from '../save-file.ts';
import { request } from './api.ts';

/** What the buttons of one job (or, without an id, of all jobs) do. */
export type JobAction = 'pause' | 'resume' | 'cancel' | 'retry';
export type DownloadRequest = MethodParams<'jobs.download'>;
export type DeleteRequest = MethodParams<'jobs.delete'>;

/** Points kept per speed graph (one per progress batch or stats tick). */
export const HISTORY_POINTS = 60;

interface JobsState {
  readonly jobs: ReadonlyMap<string, JobSnapshot>;
  /** Newest first. */
  readonly order: readonly string[];
  readonly history: ReadonlyMap<string, readonly number[]>;
  readonly overall: readonly number[];
  readonly stats: EngineStats | undefined;
  apply(batch: readonly JobSnapshot[]): void;
  replaceAll(jobs: readonly JobSnapshot[]): void;
  remove(ids: readonly string[]): void;
  setStats(stats: EngineStats): void;
  /** Every job the engine knows, merged in (events that arrived meanwhile are kept). */
  load(): Promise<void>;
  /** Pause, resume, cancel or retry one job, or every job without an id. */
  control(action: JobAction, id?: string): Promise<void>;
  /** Remove finished jobs; the list becomes what the engine kept. */
  clearFinished(): Promise<void>;
  /** The user's word on a file already there: for this one, or every one of the job's. */
  resolveConflict(id: string, conflictId: string, choice: ConflictChoice, applyToAll: boolean): Promise<void>;
  /** Save a finished job's receipt (CSV) as a file. */
  saveReceipt(id: string): Promise<void>;
  /** Start a download; resolves with its job, rejects with the reason it was refused. */
  download(params: DownloadRequest): Promise<JobSnapshot>;
  /** Start a delete (or, with dryRun, a count of what it would delete); rejects with the reason it was refused. */
  delete(params: DeleteRequest): Promise<JobSnapshot>;
}

export function pushBounded(values: readonly number[], value: number, limit = HISTORY_POINTS): number[] {
  const next = values.length >= limit ? values.slice(values.length - limit + 1) : values.slice();
  next.push(value);
  return next;
}

/** Merge `batch` into the job map, newest jobs first in `order`. Pure, for the store and its tests. */
export function mergeJobs(jobs: ReadonlyMap<string, JobSnapshot>, order: readonly string[], history: ReadonlyMap<string, readonly number[]>, batch: readonly JobSnapshot[]) {
  const nextJobs = new Map(jobs);
  const nextHistory = new Map(history);
  const added: string[] = [];
  for (const job of batch) {
    if (!nextJobs.has(job.id)) added.push(job.id);
    nextJobs.set(job.id, job);
    nextHistory.set(job.id, pushBounded(nextHistory.get(job.id) ?? [], job.progress.bytesPerSecond));
  }
  added.sort((a, b) => nextJobs.get(b)!.createdAt - nextJobs.get(a)!.createdAt);
  return { jobs: nextJobs, order: added.length > 0 ? [...added, ...order] : order, history: nextHistory };
}

// The newest snapshot per job since the last frame (a hidden window gets no frames: this stays
// bounded by the number of jobs, not the number of updates).
let queued = new Map<string, JobSnapshot>();
let frame: number | undefined;

export const useJobs = create<JobsState>((set, get) => ({
  jobs: new Map(),
  order: [],
  history: new Map(),
  overall: [],
  stats: undefined,
  apply(batch) {
    for (const job of batch) queued.set(job.id, job);
    frame ??= requestAnimationFrame(() => {
      frame = undefined;
      const pending = [...queued.values()];
      queued = new Map();
      const { jobs, order, history } = get();
      set(mergeJobs(jobs, order, history, pending));
    });
  },
  replaceAll(jobs) {
    const kept = new Set(jobs.map((j) => j.id));
    for (const id of [...queued.keys()]) if (!kept.has(id)) queued.delete(id);
    set(mergeJobs(new Map(), [], new Map(), jobs));
  },
  remove(ids) {
    const gone = new Set(ids);
    for (const id of gone) queued.delete(id);
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
  async load() {
    get().apply(await request('jobs.snapshot', {}));
  },
  async control(action, id) {
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
  download(params) {
    return request('jobs.download', params);
  },
  delete(params) {
    return request('jobs.delete', params);
  },
}));
