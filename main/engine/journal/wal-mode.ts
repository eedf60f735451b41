// Switching a journal file to WAL, with a second process doing the same.
//
// A file not yet in WAL (a new journal) is switched in a short write in the old (rollback) mode. A
// second connection that asks for the switch while that write is open fails at once with "database is
// locked": SQLite does not wait on a writer there (it could deadlock), whatever the busy timeout. Two
// commands started together on a new journal met this about one time in ten (measured), and the loser
// ran without its journal: no resume after a crash, and no lock to keep it from running the same job
// as the other. So the switch is asked again, a few milliseconds apart, until the busy timeout has
// passed (one try may itself wait on a reader for up to that long).

import type { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';

/** SQLite's code for a file held by another connection. */
const SQLITE_BUSY = 5;
const TRY_AGAIN_MS = 10;

export async function switchToWal(db: DatabaseSync, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await sleep(TRY_AGAIN_MS);
    }
  }
}

function isBusy(error: unknown): boolean {
  // An extended code (SQLITE_BUSY_RECOVERY, ...) keeps SQLITE_BUSY in its low byte.
  const code = (error as { errcode?: unknown }).errcode;
  return typeof code === 'number' && (code & 0xff) === SQLITE_BUSY;
}
