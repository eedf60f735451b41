// Test this endpoint: the speed test of the connection's store in the bucket on screen, in a dialog.
//
// Opening it shows the last result saved for the endpoint (speedtest.saved), with its date; Run (again)
// starts a test (speedtest.start) whose progress and outcome come as `speedtest` events. Cancel, Escape
// or closing the dialog stop it: the test still deletes its objects, and the dialog says so.

import { create } from 'zustand';
import type { ApiEvent } from '../../src/contract/api.ts';
import { DEFAULT_SPEED_TEST_BUDGET_MS } from '../../src/speed-test.ts';
import type { SavedSpeedTest, SpeedTestOutcome, SpeedTestProgress, SpeedTestResult } from '../../src/speed-test.ts';
import { request } from './api.ts';

export interface SpeedTestTarget {
  readonly connectionId: string;
  readonly bucket: string;
  /** The folder on screen ("" the bucket's top): the test's own prefix goes below it. */
  readonly prefix: string;
}

/** The budgets the window offers, in ms. */
export const SPEED_TEST_BUDGETS_MS: readonly number[] = [15_000, 30_000, 60_000, 120_000, 300_000];

interface SpeedTestState {
  /** The dialog's place; undefined when it is closed. */
  readonly target: SpeedTestTarget | undefined;
  /** The last result saved for the endpoint: undefined while asked, null when there is none. */
  readonly saved: SavedSpeedTest | null | undefined;
  readonly budgetMs: number;
  /** The run under way, and where it stands. */
  readonly running: { readonly runId: string | undefined; readonly progress?: SpeedTestProgress } | undefined;
  readonly cancelling: boolean;
  /** How the last run here ended. */
  readonly outcome: SpeedTestOutcome | undefined;
  readonly error: string | undefined;
  open(target: SpeedTestTarget): Promise<void>;
  setBudget(ms: number): void;
  run(): Promise<void>;
  cancel(): void;
  close(): void;
  received(event: Extract<ApiEvent, { type: 'speedtest' }>): void;
}

/** What the dialog shows: the run just measured, else the one saved. */
export function shownResult(state: Pick<SpeedTestState, 'outcome' | 'saved'>): SpeedTestResult | undefined {
  if (state.outcome?.state === 'done') return state.outcome.result;
  return state.saved?.result;
}

export const useSpeedTest = create<SpeedTestState>((set, get) => ({
  target: undefined,
  saved: undefined,
  budgetMs: DEFAULT_SPEED_TEST_BUDGET_MS,
  running: undefined,
  cancelling: false,
  outcome: undefined,
  error: undefined,

  async open(target) {
    set({ target, saved: undefined, outcome: undefined, error: undefined, running: undefined, cancelling: false });
    try {
      const saved = await request('speedtest.saved', { connectionId: target.connectionId });
      if (get().target === target) set({ saved });
    } catch (error) {
      if (get().target === target) set({ saved: null, error: (error as Error).message });
    }
  },

  setBudget(ms) {
    set({ budgetMs: ms });
  },

  async run() {
    const { target, budgetMs, running } = get();
    if (!target || running) return;
    set({ running: { runId: undefined }, outcome: undefined, error: undefined, cancelling: false });
    try {
      const { runId } = await request('speedtest.start', { ...target, budgetMs });
      // Closed or cancelled before the host answered: stopped at once.
      if (get().target !== target || get().cancelling) void request('speedtest.cancel', { runId });
      if (get().running) set({ running: { ...get().running, runId } });
    } catch (error) {
      set({ running: undefined, error: (error as Error).message });
    }
  },

  cancel() {
    const { running } = get();
    if (!running) return;
    set({ cancelling: true });
    if (running.runId !== undefined) void request('speedtest.cancel', { runId: running.runId });
  },

  close() {
    get().cancel();
    set({ target: undefined });
  },

  received(event) {
    const { running, target } = get();
    if (!running || running.runId !== event.runId) return;
    if ('progress' in event) {
      set({ running: { ...running, progress: event.progress } });
      return;
    }
    set({ running: undefined, cancelling: false, outcome: event.outcome });
    // A measured result is the endpoint's saved one now.
    if (event.outcome.state === 'done' && target)
      void request('speedtest.saved', { connectionId: target.connectionId }).then(
        (saved) => get().target === target && set({ saved }),
        () => undefined,
      );
  },
}));
