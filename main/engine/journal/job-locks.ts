// Who runs a journaled job: the process that holds its lock.
//
// A lock the kernel drops when its process dies, however it dies: a SQLite database per job, held in
// an EXCLUSIVE transaction for as long as the process runs the job. SQLite's locks are POSIX advisory
// locks on the file, released when the process exits (even by SIGKILL, before it is reaped: a zombie
// holds none), so a crashed run's job is free at once, and a pid reused after a reboot means nothing.
// A pid is written beside the lock, only to name the holder in a message.

import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** The file's inode number, or undefined when it is not there. */
function inode(file: string): number | undefined {
  return statSync(file, { throwIfNoEntry: false })?.ino;
}

/** A lock's file left behind is harmless (the next run of its job takes it): a failed delete is let be. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Left for the next run of the job.
  }
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
    const lockFile = file(id, 'lock');
    // Made first, so that it can be told apart from a file made later at the same path; made by SQLite,
    // since closing a plain handle on the file would drop every lock this process holds on it (POSIX).
    if (!existsSync(lockFile)) new Database(lockFile).close();
    const opened = inode(lockFile);
    const db = new Database(lockFile, { timeout: 0 });
    try {
      // An EXCLUSIVE transaction holds an exclusive lock on the file until it ends: another process's
      // BEGIN EXCLUSIVE fails at once with "database is locked". It writes no page, so a holder killed
      // mid-transaction leaves nothing to recover (the empty journal beside it is cleared by the next).
      db.exec('BEGIN EXCLUSIVE');
    } catch {
      db.close();
      return undefined;
    }
    // A holder that discards the job deletes the file, and another process may then make a new one.
    // A lock taken on the deleted file (opened before it went) would keep out no one: it is given back.
    if (opened !== undefined && inode(lockFile) === opened) return db;
    db.exec('ROLLBACK');
    db.close();
    return undefined;
  };

  return {
    acquire(id) {
      if (held.has(id)) return true;
      const db = tryLock(id);
      if (!db) return false;
      held.set(id, db);
      try {
        writeFileSync(file(id, 'pid'), String(process.pid), { mode: 0o600 });
      } catch {
        // The pid only names the holder in a message; the lock is what counts.
      }
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
      // Only with the lock in hand: the files are never deleted from under another process that holds it.
      if (!held.has(id)) {
        if (!existsSync(file(id, 'lock'))) return;
        const db = lockOnce(id);
        if (!db) return;
        held.set(id, db);
      }
      const removeFiles = () => [file(id, 'pid'), file(id, 'lock')].forEach(removeQuietly);
      // On POSIX the files go before the lock is let go: a process that took it in between would pass
      // lockOnce's check, then hold it on a deleted file. Windows cannot delete a file still open (here,
      // or by another process about to lock it), so there they go after, and only if no one has them.
      if (process.platform === 'win32') {
        this.release(id);
        removeFiles();
      } else {
        removeFiles();
        this.release(id);
      }
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
