// Who runs a journaled job: the process that holds its lock.
//
// A lock the kernel drops when its process dies, however it dies: a SQLite database per job, held in
// an EXCLUSIVE transaction for as long as the process runs the job. SQLite's locks are POSIX advisory
// locks on the file, released when the process exits (even by SIGKILL, before it is reaped: a zombie
// holds none), so a crashed run's job is free at once, and a pid reused after a reboot means nothing.
// A pid is written beside the lock, only to name the holder in a message.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

type DatabaseClass = typeof DatabaseSync;

/**
 * A lock found taken is tried again a few times, a few milliseconds apart: another process may only be
 * looking (heldElsewhere takes it for an instant), while one that runs the job holds it as long as it
 * runs. Without this, two commands started at the same moment could each see the other's look and
 * both refuse to run (seen in the tests).
 */
const TRIES = 20;
const TRY_AGAIN_MS = 10;

/** Waits without returning to the event loop: taking a lock is synchronous. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export interface JobLocks {
  /** Take the job's lock; false when another process holds it. Taking one this process holds is true. */
  acquire(id: string): boolean;
  /** Whether another process holds the job's lock now. */
  heldElsewhere(id: string): boolean;
  /** This process holds it (a job of its own, running). */
  heldHere(id: string): boolean;
  /** The pid of the process that last took the lock (to name it), if known. */
  holder(id: string): number | undefined;
  release(id: string): void;
  /** Release, and remove the lock's files (unless another process holds it): the job is gone from the journal. */
  discard(id: string): void;
  releaseAll(): void;
}

/** Locks in a folder beside the journal. */
export function folderLocks(folder: string, Database: DatabaseClass): JobLocks {
  const held = new Map<string, DatabaseSync>();
  const file = (id: string, ending: string) => path.join(folder, `${id.replace(/[^A-Za-z0-9-]/g, '_')}.${ending}`);

  const tryLock = (id: string): DatabaseSync | undefined => {
    for (let attempt = 1; ; attempt++) {
      const db = lockOnce(id);
      if (db || attempt === TRIES) return db;
      pause(TRY_AGAIN_MS);
    }
  };

  const lockOnce = (id: string): DatabaseSync | undefined => {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const db = new Database(file(id, 'lock'), { timeout: 0 });
    try {
      // An EXCLUSIVE transaction holds an exclusive lock on the file until it ends: another process's
      // BEGIN EXCLUSIVE fails at once with "database is locked". It writes nothing, so a holder killed
      // mid-transaction leaves no journal behind to recover.
      db.exec('BEGIN EXCLUSIVE');
      return db;
    } catch {
      db.close();
      return undefined;
    }
  };

  return {
    acquire(id) {
      if (held.has(id)) return true;
      const db = tryLock(id);
      if (!db) return false;
      held.set(id, db);
      writeFileSync(file(id, 'pid'), String(process.pid), { mode: 0o600 });
      return true;
    },
    heldHere: (id) => held.has(id),
    heldElsewhere(id) {
      if (held.has(id)) return false;
      const db = tryLock(id);
      if (!db) return true;
      db.exec('ROLLBACK');
      db.close();
      return false;
    },
    holder(id) {
      try {
        const pid = Number(readFileSync(file(id, 'pid'), 'utf8'));
        return Number.isInteger(pid) && pid > 0 ? pid : undefined;
      } catch {
        return undefined;
      }
    },
    release(id) {
      const db = held.get(id);
      if (!db) return;
      held.delete(id);
      db.exec('ROLLBACK');
      db.close();
    },
    discard(id) {
      // The files go while this process holds the lock, never after it lets go: a process that took
      // the lock in between would hold it on a deleted file, which keeps out no one who opens the path
      // afresh. Taken after, it is refused: SQLite will not lock a file that is gone. Nor do they go
      // from under another process that runs the job.
      if (!held.has(id)) {
        if (!existsSync(file(id, 'lock'))) return;
        const db = lockOnce(id);
        if (!db) return;
        held.set(id, db);
      }
      for (const ending of ['lock', 'pid']) rmSync(file(id, ending), { force: true });
      this.release(id);
    },
    releaseAll() {
      for (const id of [...held.keys()]) this.release(id);
    },
  };
}

/** Locks for a journal that lives in memory: one process, so only this process's own. */
export function memoryLocks(): JobLocks {
  const held = new Set<string>();
  return {
    acquire: (id) => (held.add(id), true),
    heldElsewhere: () => false,
    heldHere: (id) => held.has(id),
    holder: () => process.pid,
    release: (id) => void held.delete(id),
    discard: (id) => void held.delete(id),
    releaseAll: () => held.clear(),
  };
}
