// The History view: jobs every host ran, kept after they end (across restarts), a page at a time,
// newest first, with the kind and "failed only" filters; the job picked, read whole; and what can be
// done with it: export what it removed (CSV), undo a delete, retry the failed items.
//
// Paged, not held whole: the history keeps up to 10,000 jobs, and a page of them is all a screen shows.
// Answers to a view since refiltered or paged on are dropped (a slow page never replaces a newer one).

import { create } from 'zustand';
import type { HistoryEntry } from '../../src/history.ts';
import type { JobKind } from '../../src/jobs.ts';
import { saveFile } from '../save-file.ts';
import { request } from './api.ts';
import { useJobs } from './jobs-store.ts';

/** Jobs a page shows. */
export const HISTORY_PAGE_SIZE = 100;

/** The view's kind filter: every job, or one kind's. */
export type HistoryKinds = 'all' | Extract<JobKind, 'upload' | 'download' | 'delete'>;

interface HistoryState {
  readonly open: boolean;
  readonly kinds: HistoryKinds;
  readonly failedOnly: boolean;
  /** Where the page starts, in jobs from the newest. */
  readonly offset: number;
  readonly jobs: readonly HistoryEntry[];
  /** Jobs the filters match, undefined until the first page answers. */
  readonly total: number | undefined;
  /** The job picked, as history.job read it. */
  readonly selected: HistoryEntry | undefined;
  /** What was refused (a page, an export, an undo, a retry), in words. */
  readonly error: string | undefined;
  /** What the last action did ("Undo started: it is in Transfers."). */
  readonly notice: string | undefined;
  /** An export, an undo or a retry is on its way. */
  readonly busy: boolean;
  show(): Promise<void>;
  close(): void;
  setKinds(kinds: HistoryKinds): Promise<void>;
  setFailedOnly(failedOnly: boolean): Promise<void>;
  /** Go to the page starting `offset` jobs from the newest. */
  page(offset: number): Promise<void>;
  /** Read the page again (after an undo or a retry, which change the list). */
  reload(): Promise<void>;
  select(id: string): Promise<void>;
  /** Save what the picked job removed (each key and version, or the delete marker it made) as CSV. */
  exportRemovals(): Promise<void>;
  /** Undo the picked delete: its delete markers removed, as a job of its own (shown in Transfers). */
  undo(): Promise<void>;
  /** Run the picked job's failed items again (the job comes back into Transfers). */
  retry(): Promise<void>;
}

let generation = 0;

export const useHistory = create<HistoryState>((set, get) => {
  /** Fetch the page the view is on; only the newest ask's answer is kept. */
  const fetchPage = async () => {
    const mine = ++generation;
    const { kinds, failedOnly, offset } = get();
    try {
      const answer = await request('history.list', {
        ...(kinds === 'all' ? {} : { kinds: [kinds] }),
        failedOnly,
        offset,
        limit: HISTORY_PAGE_SIZE,
      });
      if (mine === generation) set({ jobs: answer.jobs, total: answer.total });
    } catch (error) {
      if (mine === generation) set({ error: (error as Error).message });
    }
  };

  /** Run an action on the picked job, saying what it did or why it was refused. */
  const act = async (action: (entry: HistoryEntry) => Promise<string>) => {
    const entry = get().selected;
    if (!entry) return;
    set({ busy: true, error: undefined, notice: undefined });
    try {
      set({ notice: await action(entry) });
    } catch (error) {
      set({ error: (error as Error).message });
    } finally {
      set({ busy: false });
    }
  };

  return {
    open: false,
    kinds: 'all',
    failedOnly: false,
    offset: 0,
    jobs: [],
    total: undefined,
    selected: undefined,
    error: undefined,
    notice: undefined,
    busy: false,
    async show() {
      set({ open: true, offset: 0, selected: undefined, error: undefined, notice: undefined, total: undefined });
      await fetchPage();
    },
    close() {
      generation++;
      set({ open: false, jobs: [], total: undefined, selected: undefined, error: undefined, notice: undefined });
    },
    async setKinds(kinds) {
      set({ kinds, offset: 0, error: undefined });
      await fetchPage();
    },
    async setFailedOnly(failedOnly) {
      set({ failedOnly, offset: 0, error: undefined });
      await fetchPage();
    },
    async page(offset) {
      set({ offset: Math.max(0, offset), error: undefined });
      await fetchPage();
    },
    reload: fetchPage,
    async select(id) {
      set({ error: undefined, notice: undefined });
      try {
        const entry = await request('history.job', { id });
        set({ selected: entry });
      } catch (error) {
        set({ error: (error as Error).message });
      }
    },
    exportRemovals: () =>
      act(async (entry) => {
        // Page by page, each kept as a Blob (which the browser may hold on disk), then one file.
        const parts: Blob[] = [];
        let offset: number | undefined = 0;
        let fileName = '';
        let total = 0;
        while (offset !== undefined) {
          const page: { fileName: string; text: string; total: number; next?: number } = await request(
            'history.removals',
            { id: entry.id, format: 'csv', offset },
          );
          parts.push(new Blob([page.text]));
          fileName = page.fileName;
          total = page.total;
          offset = page.next;
        }
        saveFile(fileName, parts, 'text/csv');
        return `Saved ${fileName} (${total.toLocaleString()} ${total === 1 ? 'object' : 'objects'}).`;
      }),
    undo: () =>
      act(async (entry) => {
        const job = await request('history.undo', { id: entry.id });
        useJobs.getState().apply([job]);
        await Promise.all([get().select(entry.id), fetchPage()]);
        return 'Undo started: it is in Transfers, and in this list once it ends.';
      }),
    retry: () =>
      act(async (entry) => {
        const job = await request('history.retry', { id: entry.id });
        useJobs.getState().apply([job]);
        return 'Retry started: the job is back in Transfers.';
      }),
  };
});
