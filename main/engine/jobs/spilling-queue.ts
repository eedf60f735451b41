// A first-in, first-out queue that stays small in memory: past a limit, what waits moves to a
// private SQLite file (scratch-database.ts), as spilling-map.ts does for a map.
//
// What a listing finds ahead of the transfers waits here (read-ahead.ts): a prefix of a million keys
// listed in a minute, for a download that takes an hour, would hold ~400 MB of items in memory. Items
// are plain data (they go to disk as JSON); ~3 µs each to store and to take, far below a request.

import { ScratchDatabase } from './scratch-database.ts';

/** Items held in memory; later ones wait on disk until the memory has been emptied. */
const DEFAULT_MEMORY_ITEMS = 10_000;

/** Taken slots at the front of the memory array before it is compacted. */
const COMPACT_FROM = 1024;

const SCHEMA = 'CREATE TABLE waiting (seq INTEGER PRIMARY KEY, item TEXT NOT NULL)';

export class SpillingQueue<T> {
  /** The oldest items, taken from `head` on. */
  private memory: T[] = [];
  private head = 0;
  private disk: ScratchDatabase | undefined;
  /** Sequence numbers of the first and next item on disk: its rows are [diskFirst, diskNext). */
  private diskFirst = 0;
  private diskNext = 0;

  private readonly memoryItems: number;

  constructor(memoryItems = DEFAULT_MEMORY_ITEMS) {
    this.memoryItems = memoryItems;
  }

  get length(): number {
    return this.memory.length - this.head + (this.diskNext - this.diskFirst);
  }

  /** Whether items wait on disk now (for tests). */
  get spilled(): boolean {
    return this.diskNext > this.diskFirst;
  }

  push(item: T): void {
    // Once anything waits on disk, newer items go after it there: the order is kept.
    if (!this.spilled && this.memory.length - this.head < this.memoryItems) {
      this.memory.push(item);
      return;
    }
    this.disk ??= new ScratchDatabase(SCHEMA);
    this.disk.statement('INSERT INTO waiting (seq, item) VALUES (?, ?)').run(this.diskNext++, JSON.stringify(item));
    this.disk.wrote();
  }

  /** The oldest item, or undefined when none waits. */
  shift(): T | undefined {
    if (this.head === this.memory.length) this.refill();
    if (this.head === this.memory.length) return undefined;
    const item = this.memory[this.head]!;
    this.memory[this.head++] = undefined as T;
    // Taken items are dropped from the array now and then (amortised), or it would grow with every push.
    if (this.head >= COMPACT_FROM && this.head * 2 >= this.memory.length) {
      this.memory = this.memory.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  close(): void {
    this.disk?.close();
    this.disk = undefined;
    this.memory = [];
    this.head = 0;
    this.diskFirst = this.diskNext = 0;
  }

  /** Memory is empty: the oldest items on disk come back into it. */
  private refill(): void {
    this.memory = [];
    this.head = 0;
    if (!this.disk || !this.spilled) return;
    const last = Math.min(this.diskNext, this.diskFirst + this.memoryItems);
    const rows = this.disk
      .statement('SELECT item FROM waiting WHERE seq >= ? AND seq < ? ORDER BY seq')
      .all(this.diskFirst, last) as { item: string }[];
    this.disk.statement('DELETE FROM waiting WHERE seq < ?').run(last);
    this.disk.wrote();
    this.memory = rows.map((row) => JSON.parse(row.item) as T);
    this.diskFirst = last;
  }
}
