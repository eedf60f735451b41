// The receipt of a job no journal records: what it stored or saved, object by object, with what the
// store said of each (ETag, version ID, checksum).
//
// A journaled job's receipt comes from the journal. One that is not (a browser's upload, whose staged
// files go with the host, so it cannot resume) had none: the window's Receipt saved a CSV of its
// header alone while Details listed every item. Its objects wait here instead, on a scratch file
// (~3 µs a row, flat memory however many), one line per key as the journal keeps them.

import type { ReceiptEntry } from '../../../src/receipt.ts';
import type { FinishedObject } from '../journal/job-journal.ts';
import { ScratchDatabase } from './scratch-database.ts';

const SCHEMA = 'CREATE TABLE objects (key TEXT PRIMARY KEY, line TEXT NOT NULL)';

export class ReceiptLog {
  private disk: ScratchDatabase | undefined;

  /** An object finished (a retry's line for the same key replaces the earlier one). */
  add(object: FinishedObject, finishedAt: number): void {
    const { key, path, size, etag, versionId, checksum, verified } = object;
    const entry: ReceiptEntry = { key, path, size, etag, versionId, checksum, verified, finishedAt };
    this.disk ??= new ScratchDatabase(SCHEMA);
    this.disk.statement('INSERT OR REPLACE INTO objects (key, line) VALUES (?, ?)').run(key, JSON.stringify(entry));
    this.disk.wrote();
  }

  /** Every object finished, by key (as a journal's receipt is ordered). */
  *all(): Generator<ReceiptEntry> {
    if (!this.disk) return;
    for (const row of this.disk.statement('SELECT line FROM objects ORDER BY key').iterate() as Iterable<{
      line: string;
    }>) {
      yield JSON.parse(row.line) as ReceiptEntry;
    }
  }

  close(): void {
    this.disk?.close();
    this.disk = undefined;
  }
}
