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

/**
 * Which file is at a path now, or undefined when none is: its inode number with its birth time, since a
 * number freed by a delete is handed out again at once (ext4).
 */
function identity(file: string): string | undefined {
  const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
  return stat && `${stat.ino}:${stat.birthtimeNs}`;
}

/** Whether the file is gone; a lock's file left behind is harmless (the next run of its job takes it). */
function removeQuietly(file: string): boolean {
  try {
    rmSync(file, { force: true });
    return true;
  } catch {
    return false;
  }
}

/** Ends the lock's transaction, which lets go of the lock, and closes its file. */
function letGo(db: DatabaseSync): void {
  db.exec('ROLLBACK');
  db.close();
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
    // Which file is locked is known only by its path (node:sqlite shows no handle): it is noted before
    // the open (made first, so there is one) and checked after the lock. A file swapped in between
    // only makes the lock be given back.
    if (!existsSync(lockFile)) new Database(lockFile).close();
    const opened = identity(lockFile);
    const db = new Database(lockFile, { timeout: 0 });
    try {
      // An EXCLUSIVE transaction holds an exclusive lock on the file until it ends: another process's
      // BEGIN EXCLUSIVE fails at once with "database is locked". Nothing is written to the file, so a
      // holder killed mid-transaction leaves nothing to recover (the empty journal beside it is
      // cleared by the next holder).
      db.exec('BEGIN EXCLUSIVE');
    } catch {
      db.close();
      return undefined;
    }
    // A holder that discards the job deletes the file, and another process may then make a new one.
    // A lock taken on the deleted file (opened before it went) would keep out no one: it is given back,
    // as it is when the look fails (never left held by no one's job).
    try {
      if (opened !== undefined && identity(lockFile) === opened) return db;
    } catch {
      // Given back below.
    }
    letGo(db);
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
      letGo(db);
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
      letGo(db);
    },
    discard(id) {
      // Only with the lock in hand: the files are never deleted from under another process that holds it.
      if (!held.has(id)) {
        if (!existsSync(file(id, 'lock'))) return;
        const db = lockOnce(id);
        if (!db) return;
        held.set(id, db);
      }
      // The pid goes only with the lock's file: on Windows the next holder may have written its own.
      const removeFiles = () => removeQuietly(file(id, 'lock')) && removeQuietly(file(id, 'pid'));
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
