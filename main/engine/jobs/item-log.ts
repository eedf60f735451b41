// A job's items one by one, for its details: where each came from and went, its size, and what
// became of it (done, failed with why, skipped, kept).
//
// A job of a million files must not hold a million records in memory (~250 bytes each, as objects):
// the first MEMORY_ITEMS are kept in an array, and past that every record moves to a scratch
// database (scratch-database.ts, as a download's claimed paths do), whose page cache is bounded. A
// million records cost 2.5 µs each and ~45 MiB of memory in all, and their last page is read in
// under a millisecond (measured with Node 24 on these machines). Records are appended in the order
// items end, each in a numbered slot, so a page of them is one range of slots. A retry of the
// failed items writes each one's new outcome over its slot: the list stays one line per item, and
// its failures are the ones that failed last.

import type { ItemFilter, JobItem } from '../../../src/jobs.ts';
import { ScratchDatabase } from './scratch-database.ts';

/** Records held in memory before they all move to disk. */
const MEMORY_ITEMS = 10_000;
/**
 * Records listed at most (on disk: ~150 MB). Past this, items that did not fail are counted, not
 * listed (a delete of ten million keys would fill a gigabyte of disk with the names it deleted);
 * failures are always listed.
 */
const MAX_LISTED_ITEMS = 1_000_000;

const SCHEMA = `CREATE TABLE items (slot INTEGER PRIMARY KEY, source TEXT NOT NULL, destination TEXT NOT NULL, size INTEGER, state TEXT NOT NULL, code TEXT, message TEXT);
CREATE INDEX items_by_state ON items (state, slot)`;

type Row = {
  slot: number;
  source: string;
  destination: string;
  size: number | null;
  state: JobItem['state'];
  code: string | null;
  message: string | null;
};

export interface ItemLogLimits {
  readonly memoryItems?: number;
  readonly maxListed?: number;
}

export class ItemLog {
  private memory: JobItem[] = [];
  private disk: ScratchDatabase | undefined;
  private listed = 0;
  private failed = 0;
  private notListed = 0;
  /** The slots of the items a retry is trying again, by source (a source named twice has two). */
  private retried = new Map<string, number[]>();

  private readonly memoryItems: number;
  private readonly maxListed: number;

  constructor(limits: ItemLogLimits = {}) {
    this.memoryItems = limits.memoryItems ?? MEMORY_ITEMS;
    this.maxListed = limits.maxListed ?? MAX_LISTED_ITEMS;
  }

  /** Whether the records are on disk now (for tests). */
  get spilled(): boolean {
    return this.disk !== undefined;
  }

  /** Items that ended and are not listed (past MAX_LISTED_ITEMS). */
  get unlisted(): number {
    return this.notListed;
  }

  /** An item ended: listed in its own slot, or over its slot when a retry was trying it again. */
  add(item: JobItem): void {
    const slots = this.retried.get(item.source);
    const slot = slots?.shift();
    if (slots?.length === 0) this.retried.delete(item.source);
    if (slot !== undefined) {
      if (item.state === 'failed') this.failed += 1;
      this.write(slot, item);
      return;
    }
    if (item.state !== 'failed' && this.listed >= this.maxListed) {
      this.notListed += 1;
      return;
    }
    if (item.state === 'failed') this.failed += 1;
    if (!this.disk && this.listed >= this.memoryItems) this.spill();
    const next = this.listed;
    this.listed += 1;
    if (this.disk) this.insert(this.disk, next, item);
    else this.memory.push(item);
  }

  /** A retry of the failed items begins: each is "retrying" until its new outcome is written over it. */
  retrying(): void {
    this.retried = new Map();
    const mark = (slot: number, source: string) =>
      this.retried.set(source, [...(this.retried.get(source) ?? []), slot]);
    if (this.disk) {
      for (const row of this.disk
        .statement("SELECT slot, source FROM items WHERE state = 'failed' ORDER BY slot")
        .iterate() as Iterable<Pick<Row, 'slot' | 'source'>>)
        mark(row.slot, row.source);
      this.disk.statement("UPDATE items SET state = 'retrying' WHERE state = 'failed'").run();
      this.disk.wrote();
    } else {
      this.memory = this.memory.map((item, slot) => {
        if (item.state !== 'failed') return item;
        mark(slot, item.source);
        return { ...item, state: 'retrying' };
      });
    }
    this.failed = 0;
  }

  /**
   * A run ended. Items a retry was trying and never came back to: failed still where the run was
   * stopped (cancelled, or a failure of the whole job); otherwise done (a folder that could not be
   * read before, and whose files are now listed one by one).
   */
  settle(stopped: boolean): void {
    for (const slots of this.retried.values()) {
      for (const slot of slots) {
        const item = this.read(slot);
        if (!item) continue;
        if (stopped) this.failed += 1;
        this.write(
          slot,
          stopped
            ? { ...item, state: 'failed' }
            : {
                source: item.source,
                destination: item.destination,
                ...(item.size === undefined ? {} : { size: item.size }),
                state: 'done',
              },
        );
      }
    }
    this.retried = new Map();
  }

  /** A page of the items, in the order they ended, and how many there are. */
  page(filter: ItemFilter, offset: number, limit: number): { items: JobItem[]; total: number } {
    const total = filter === 'failed' ? this.failed : this.listed;
    if (!this.disk) {
      const matching = filter === 'failed' ? this.memory.filter((item) => item.state === 'failed') : this.memory;
      return { items: matching.slice(offset, offset + limit), total };
    }
    const rows =
      filter === 'failed'
        ? this.disk
            .statement("SELECT * FROM items WHERE state = 'failed' ORDER BY slot LIMIT ? OFFSET ?")
            .all(limit, offset)
        : this.disk.statement('SELECT * FROM items WHERE slot >= ? ORDER BY slot LIMIT ?').all(offset, limit);
    return { items: (rows as Row[]).map(toItem), total };
  }

  /** Every item (or every failed one), in the order they ended. */
  *all(filter: ItemFilter): Generator<JobItem> {
    if (!this.disk) {
      for (const item of this.memory) if (filter === 'all' || item.state === 'failed') yield item;
      return;
    }
    const rows =
      filter === 'failed'
        ? this.disk.statement("SELECT * FROM items WHERE state = 'failed' ORDER BY slot").iterate()
        : this.disk.statement('SELECT * FROM items ORDER BY slot').iterate();
    for (const row of rows as Iterable<Row>) yield toItem(row);
  }

  /** Forget every record (a run of the whole job again). */
  clear(): void {
    this.close();
    this.listed = 0;
    this.failed = 0;
    this.notListed = 0;
  }

  close(): void {
    this.disk?.close();
    this.disk = undefined;
    this.memory = [];
    this.retried = new Map();
  }

  private spill(): void {
    const disk = new ScratchDatabase(SCHEMA);
    this.memory.forEach((item, slot) => this.insert(disk, slot, item));
    this.disk = disk;
    this.memory = [];
  }

  private insert(disk: ScratchDatabase, slot: number, item: JobItem): void {
    disk
      .statement(
        'INSERT INTO items (slot, source, destination, size, state, code, message) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(slot, item.source, item.destination, item.size ?? null, item.state, item.code ?? null, item.message ?? null);
    disk.wrote();
  }

  private read(slot: number): JobItem | undefined {
    if (!this.disk) return this.memory[slot];
    const row = this.disk.statement('SELECT * FROM items WHERE slot = ?').get(slot) as Row | undefined;
    return row ? toItem(row) : undefined;
  }

  private write(slot: number, item: JobItem): void {
    if (!this.disk) {
      this.memory[slot] = item;
      return;
    }
    this.disk
      .statement(
        'UPDATE items SET source = ?, destination = ?, size = ?, state = ?, code = ?, message = ? WHERE slot = ?',
      )
      .run(item.source, item.destination, item.size ?? null, item.state, item.code ?? null, item.message ?? null, slot);
    this.disk.wrote();
  }
}

function toItem(row: Row): JobItem {
  return {
    source: row.source,
    destination: row.destination,
    ...(row.size === null ? {} : { size: row.size }),
    state: row.state,
    ...(row.code === null ? {} : { code: row.code }),
    ...(row.message === null ? {} : { message: row.message }),
  };
}
