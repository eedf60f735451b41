// Holds one job's lock, the way a running `barge` does, until killed (or for <ms>, as another process
// only looking at it does); says "locked" once it holds it.
//
//   node tests/support/hold-job-lock.ts <locks folder> <job id> [ms]

import { folderLocks } from '../../main/engine/journal/job-locks.ts';
import { loadSqlite } from '../../main/engine/journal/sqlite.ts';

const [folder, id, forMs] = process.argv.slice(2);
const { DatabaseSync } = await loadSqlite();
const locks = folderLocks(folder!, DatabaseSync);
if (!locks.acquire(id!)) throw new Error('could not take the lock');
process.stdout.write('locked\n');
if (forMs)
  setTimeout(() => {
    locks.release(id!);
    process.exit(0);
  }, Number(forMs));
// The interval keeps `locks` reachable: a lock whose database is garbage-collected is released.
setInterval(() => locks.holder(id!), 1_000);
// Never outlives a test that forgot it.
setTimeout(() => process.exit(0), 60_000);
