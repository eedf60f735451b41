// The job details view: which job is open, which of its items (every one, or the failed ones), and
// the pages of them fetched so far.
//
// The list is virtualised: the rows on screen ask for their pages, PAGE_SIZE items a call, and only
// the pages near them are kept, so a job of a million items costs a few pages here. A job still
// running is read again as it moves on, one call at a time (a change while one is out is read once
// it answers): progress ten times a second never piles up calls.

import { create } from 'zustand';
import type { ConflictChoice } from '../../src/if-exists.ts';
import type { ItemFilter, JobItem } from '../../src/jobs.ts';
import { plural } from '../../src/plural.ts';
import { saveFile } from '../save-file.ts';
import { request } from './api.ts';

/** Items a call fetches. */
export const PAGE_SIZE = 200;
/** Pages kept either side of those on screen; the rest are dropped (and fetched again if scrolled back to). */
const PAGES_AROUND = 4;

interface JobDetailsState {
  /** The job whose details are open, if any. */
  readonly jobId: string | undefined;
  readonly filter: ItemFilter;
  /** Items in the list (of the filter); undefined until the first page answers. */
  readonly total: number | undefined;
  /** Items the job ended past the most it lists (failures are always listed). */
  readonly unlisted: number;
  /** Pages fetched, by their number (page n holds items n * PAGE_SIZE onwards). */
  readonly pages: ReadonlyMap<number, readonly JobItem[]>;
  /** What was refused (a page, the export, the retry), in words. */
  readonly error: string | undefined;
  /** What the last action did ("Retrying the failed items…"), until it is over ("The retry ended: …"). */
  readonly notice: string | undefined;
  /**
   * The question a retry of the failed items waits on: some failed because their file was already
   * there, and the same answer would fail them again (the service's ChoiceNeeded, in its words).
   */
  readonly choice: string | undefined;
  /** An export or a retry is on its way. */
  readonly busy: boolean;
  /** Open a job's details (its failed items, with filter "failed"). */
  open(id: string, filter?: ItemFilter): void;
  close(): void;
  setFilter(filter: ItemFilter): void;
  /** Rows `first` to `last` are on screen: fetch the pages they are on that are not here yet. */
  show(first: number, last: number): void;
  /** The job moved on: read the pages on screen again. */
  refresh(): void;
  /** Save the list (every item, or the failed ones) as a CSV file. */
  exportCsv(): Promise<void>;
  /**
   * Run exactly the failed items again, within the job; `answer`: what to do with those whose file
   * was already there (asked for through `choice` when some were).
   */
  /**
   * Retry the failed items (with another answer for those already there); `run` is the start of the
   * run they failed in where the caller knows it (a row's Retry, before this view has seen the job).
   */
  retryFailed(answer?: ConflictChoice, run?: number): Promise<void>;
  /** Put the question of a retry away unanswered. */
  dismissChoice(): void;
  /**
   * Where the job is (`startedAt`: its current run's start): a retry under way is said to have ended
   * once a run begun after it asked has finished, however quickly (a window may never see it running).
   */
  jobMoved(
    job: { readonly finished: boolean; readonly failed: number; readonly startedAt: number | undefined } | undefined,
  ): void;
}

// Which open view an answer is for: answers to a view since closed or refiltered are dropped.
let generation = 0;
/** The rows on screen, as pages. */
let onScreen = { first: 0, last: 0 };
/** Pages asked for and not yet answered; and whether the job moved on meanwhile. */
const asked = new Set<number>();
let staleWhileAsked = false;
/** The run of the open job last seen (its start), and the run a retry asked for goes on from. */
let seenRun: number | undefined;
let retry: { readonly from: number | undefined } | undefined;

function pageOf(row: number): number {
  return Math.floor(row / PAGE_SIZE);
}

export const useJobDetails = create<JobDetailsState>((set, get) => {
  /** Fetch pages (again, with `force`) for the current view; their answers replace what is there. */
  const fetchPages = (pages: readonly number[], force: boolean) => {
    const { jobId, filter } = get();
    if (!jobId) return;
    const mine = generation;
    for (const page of pages) {
      if (asked.has(page) || (!force && get().pages.has(page))) continue;
      asked.add(page);
      void request('jobs.details', { id: jobId, filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE })
        .then(
          (answer) => {
            if (mine !== generation) return;
            const next = new Map(get().pages);
            next.set(page, answer.items);
            set({ pages: keepNear(next), total: answer.total, unlisted: answer.unlisted });
          },
          (error: unknown) => {
            if (mine === generation) set({ error: (error as Error).message });
          },
        )
        .finally(() => {
          if (mine !== generation) return;
          asked.delete(page);
          if (asked.size === 0 && staleWhileAsked) {
            staleWhileAsked = false;
            get().refresh();
          }
        });
    }
  };

  const reset = (jobId: string | undefined, filter: ItemFilter) => {
    generation += 1;
    asked.clear();
    staleWhileAsked = false;
    onScreen = { first: 0, last: 0 };
    retry = undefined;
    seenRun = undefined;
    set({
      jobId,
      filter,
      total: undefined,
      unlisted: 0,
      pages: new Map(),
      error: undefined,
      notice: undefined,
      choice: undefined,
      busy: false,
    });
    fetchPages([0], true);
  };

  return {
    jobId: undefined,
    filter: 'all',
    total: undefined,
    unlisted: 0,
    pages: new Map(),
    error: undefined,
    notice: undefined,
    choice: undefined,
    busy: false,
    open(id, filter = 'all') {
      reset(id, filter);
    },
    close() {
      reset(undefined, 'all');
    },
    setFilter(filter) {
      if (filter !== get().filter) reset(get().jobId, filter);
    },
    show(first, last) {
      onScreen = { first: pageOf(first), last: pageOf(Math.max(first, last)) };
      set({ pages: keepNear(get().pages) });
      fetchPages(pagesOnScreen(), false);
    },
    refresh() {
      if (asked.size > 0) {
        staleWhileAsked = true;
        return;
      }
      fetchPages(pagesOnScreen(), true);
    },
    async exportCsv() {
      const { jobId, filter } = get();
      if (!jobId) return;
      set({ busy: true, error: undefined, notice: undefined });
      try {
        // Page by page, each kept as a Blob (which the browser may hold on disk), then one file.
        const parts: Blob[] = [];
        let offset: number | undefined = 0;
        let fileName = '';
        while (offset !== undefined) {
          const page: { fileName: string; text: string; next?: number } = await request('jobs.detailsCsv', {
            id: jobId,
            filter,
            offset,
          });
          parts.push(new Blob([page.text]));
          fileName = page.fileName;
          offset = page.next;
        }
        saveFile(fileName, parts, 'text/csv');
        set({ notice: `Saved ${fileName}.` });
      } catch (error) {
        set({ error: (error as Error).message });
      } finally {
        set({ busy: false });
      }
    },
    async retryFailed(answer, run) {
      const { jobId } = get();
      if (!jobId) return;
      const mine = generation;
      set({ busy: true, error: undefined, notice: undefined, choice: undefined });
      // Before the call: the new run's first news may come before its answer.
      // The run they failed in: a view opened just now has not seen it yet, and would take that run,
      // finished, for the retry's end.
      retry = { from: run ?? seenRun };
      try {
        await request('jobs.retryFailed', answer === undefined ? { id: jobId } : { id: jobId, ifExists: answer });
        if (mine !== generation) return;
        if (retry) set({ notice: 'Retrying the failed items…' });
        get().refresh();
      } catch (error) {
        if (mine !== generation) return;
        retry = undefined;
        // The same answer would fail them again: ask for another instead of saying no.
        if ((error as { code?: string }).code === 'ChoiceNeeded') set({ choice: (error as Error).message });
        else set({ error: (error as Error).message });
      } finally {
        if (mine === generation) set({ busy: false });
      }
    },
    dismissChoice() {
      set({ choice: undefined });
    },
    jobMoved(job) {
      seenRun = job?.startedAt;
      if (!retry) return;
      if (!job) {
        retry = undefined;
        set({ notice: undefined });
      } else if (job.finished && job.startedAt !== retry.from) {
        retry = undefined;
        set({
          notice:
            job.failed === 0
              ? 'The retry ended: every item is done.'
              : `The retry ended: ${plural(job.failed, 'item')} failed again.`,
        });
      }
    },
  };
});

function pagesOnScreen(): number[] {
  const pages = [];
  for (let page = onScreen.first; page <= onScreen.last; page++) pages.push(page);
  return pages;
}

/** The pages near those on screen; the rest dropped. */
function keepNear(pages: ReadonlyMap<number, readonly JobItem[]>): Map<number, readonly JobItem[]> {
  return new Map(
    [...pages].filter(([page]) => page >= onScreen.first - PAGES_AROUND && page <= onScreen.last + PAGES_AROUND),
  );
}
