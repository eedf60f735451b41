// A job's items as CSV: where each came from and went, its size, and what became of it (with why).
// Pure formatting; the engine's item log supplies the lines. Fields are written as receipts write
// them (receipt.ts): quoted where needed, and a field a spreadsheet would run as a formula made text.

import type { ItemFilter, JobItem, JobKind } from './jobs.ts';
import { csvField } from './receipt.ts';

// New columns go at the end, so readers that go by position keep working.
const COLUMNS = ['source', 'destination', 'size', 'state', 'code', 'message'] as const;

/** The CSV line by line (a million items never sit in one array of lines). */
export function* formatItemsCsv(items: Iterable<JobItem>): Generator<string> {
  yield `${COLUMNS.join(',')}\n`;
  for (const item of items) {
    const fields: Record<(typeof COLUMNS)[number], string> = {
      source: item.source,
      destination: item.destination,
      size: item.size === undefined ? '' : String(item.size),
      state: item.state,
      code: item.code ?? '',
      message: item.message ?? '',
    };
    yield `${COLUMNS.map((column) => csvField(fields[column])).join(',')}\n`;
  }
}

/** "barge-errors-upload-1a2b3c4d.csv" for the failed items, "barge-items-…" for all of them. */
export function itemsFileName(kind: JobKind, id: string, filter: ItemFilter): string {
  return `barge-${filter === 'failed' ? 'errors' : 'items'}-${kind}-${id.slice(0, 8)}.csv`;
}
