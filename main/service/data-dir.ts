// Where Barge keeps its state on this machine: saved connections, secrets, the job journal.
//
// BARGE_DATA_DIR wins (tests, portable installs); otherwise the XDG convention, ~/.config/barge.
// The Electron shell passes its own app.getPath('userData') instead.

import os from 'node:os';
import path from 'node:path';
import { DEFAULT_RETENTION, Journal } from '../engine/engine.ts';
import type { HistoryRetention } from '../engine/engine.ts';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BARGE_DATA_DIR) return env.BARGE_DATA_DIR;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'barge');
}

/** The job journal's file in a data folder. */
export function journalFile(dataDir: string): string {
  return path.join(dataDir, 'journal.sqlite');
}

/**
 * The data folder's journal, or undefined (with the reason told) when it cannot be opened: Barge
 * still works then, only without resume after a crash.
 */
export async function openJournalIn(
  dataDir: string,
  warn: (message: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Journal | undefined> {
  const file = journalFile(dataDir);
  try {
    return await Journal.open(file, { warn, retention: historyRetention(env, warn) });
  } catch (error) {
    warn(
      `Jobs will not be resumable after a crash: the journal ${file} cannot be opened (${(error as Error).message}).`,
    );
    return undefined;
  }
}

/**
 * How long the history keeps ended jobs: BARGE_HISTORY_DAYS and BARGE_HISTORY_JOBS, each a whole
 * number (0 keeps none); a value that is not one is said and the default kept.
 */
export function historyRetention(env: NodeJS.ProcessEnv, warn: (message: string) => void): HistoryRetention {
  const read = (name: string, fallback: number): number => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    if (/^\d{1,9}$/.test(text.trim())) return Number(text.trim());
    warn(`${name} takes a whole number, not "${text.slice(0, 40)}": the history keeps ${fallback} then.`);
    return fallback;
  };
  return {
    days: read('BARGE_HISTORY_DAYS', DEFAULT_RETENTION.days),
    jobs: read('BARGE_HISTORY_JOBS', DEFAULT_RETENTION.jobs),
  };
}
