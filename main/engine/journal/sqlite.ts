// node:sqlite without its start-up warning.
//
// Node 24 prints "SQLite is an experimental feature" on stderr when the module loads; on the command
// line that line would land among a command's output. The module is stable enough for a journal
// (Electron 45 ships it too), so that one warning is dropped; every other warning passes through.

import type * as Sqlite from 'node:sqlite';

const SQLITE_WARNING = 'SQLite is an experimental feature';

export async function loadSqlite(): Promise<typeof Sqlite> {
  return loadSqliteNow();
}

/**
 * The module at once, for a caller that cannot wait (a job's item list moving to disk in the middle
 * of a synchronous record). A built-in: loading it reads nothing from disk.
 */
export function loadSqliteNow(): typeof Sqlite {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith(SQLITE_WARNING)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}
