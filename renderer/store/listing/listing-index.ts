// The order of a listing's rows for any sort and filter: what the listing worker computes.
//
// A million names sorted with Intl.Collator take about 20 million comparisons, some 4 s. So the
// name order is kept as rows arrive: each batch is sorted on its own and merged in, each row's place
// found by galloping from the last one's (a page of S3's order lands mostly in one stretch). The
// other columns are numbers, sorted when asked with a stable radix sort (about 30 ms a million);
// filtering tests lowercase names kept beside the rows, and typing on narrows the last matches
// instead of testing every row again. Everything here is plain data in, Int32Array out, so it runs
// the same in the worker and (in tests, or where no worker starts) on the main thread.
//
// What must stay true (tests/unit/renderer/listing-index.test.ts holds it against `visibleRows`):
// folders before objects in every sort; ties in the store's order (by key), in both directions.

import { globMatcher, hasWildcard } from '../../../src/object-filter.ts';

/** Rows appended to a listing: the same columns as the window's row table. */
export interface RowBatch {
  /** The first row's number; batches come in order, without gaps. */
  readonly first: number;
  /** 1 for a folder, 0 for an object. */
  readonly folder: Uint8Array;
  readonly names: readonly string[];
  readonly sizes: Float64Array;
  /** Milliseconds since the epoch; NaN when the store did not say. */
  readonly modified: Float64Array;
  /** Index into `classNames`; 0 when the store did not say. */
  readonly classes: Uint8Array;
  /** Every storage class seen so far, by index ('' first, for none). */
  readonly classNames: readonly string[];
}

export type SortColumn = 'name' | 'size' | 'modified' | 'class';
export interface Sort {
  readonly column: SortColumn;
  readonly descending: boolean;
}

// One collator for every comparison: localeCompare with options builds one per call.
const collator = new Intl.Collator(undefined, { numeric: true });

/** A growable Int32Array. */
class IntList {
  values = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  view(): Int32Array {
    return this.values.subarray(0, this.length);
  }
}

/**
 * Rows of one kind kept in name order (collator, then the store's order). `tied[i]` says that the
 * row at i compares equal by collator to the one before it: a descending order keeps such runs in
 * the store's order, as the ascending one does.
 */
class NameOrder {
  order = new Int32Array(0);
  tied = new Uint8Array(0);
  private readonly names: readonly string[];

  constructor(names: readonly string[]) {
    this.names = names;
  }

  private compare(a: number, b: number): number {
    return collator.compare(this.names[a]!, this.names[b]!) || a - b;
  }

  /** Merge rows (any order) in: sorted among themselves, then each placed by galloping. */
  merge(rows: Int32Array): void {
    if (rows.length === 0) return;
    const names = this.names;
    const batch = Int32Array.from(rows).sort((a, b) => this.compare(a, b));
    const old = this.order;
    const merged = new Int32Array(old.length + batch.length);
    const tied = new Uint8Array(merged.length);
    let from = 0;
    let to = 0;
    let previous = -1;
    const put = (row: number) => {
      merged[to] = row;
      tied[to] = previous >= 0 && collator.compare(names[previous]!, names[row]!) === 0 ? 1 : 0;
      previous = row;
      to += 1;
    };
    for (const row of batch) {
      // The first old row that sorts after this one: gallop, then halve.
      let step = 1;
      let low = from;
      let high = from;
      while (high < old.length && this.compare(old[high]!, row) < 0) {
        low = high + 1;
        high = from + step;
        step *= 2;
      }
      high = Math.min(high, old.length);
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (this.compare(old[middle]!, row) < 0) low = middle + 1;
        else high = middle;
      }
      // The old rows before it move over as they are (their ties with each other unchanged).
      if (low > from) {
        merged.set(old.subarray(from, low), to);
        tied.set(this.tied.subarray(from, low), to);
        if (previous >= 0) tied[to] = collator.compare(names[previous]!, names[old[from]!]!) === 0 ? 1 : 0;
        to += low - from;
        previous = old[low - 1]!;
        from = low;
      }
      put(row);
    }
    if (from < old.length) {
      merged.set(old.subarray(from), to);
      tied.set(this.tied.subarray(from), to);
      tied[to] = collator.compare(names[previous]!, names[old[from]!]!) === 0 ? 1 : 0;
    }
    this.order = merged;
    this.tied = tied;
  }

  /** Ascending as kept; descending reversed, each run of ties kept in the store's order. */
  write(target: Int32Array, at: number, descending: boolean, keep: (row: number) => boolean): number {
    const { order, tied } = this;
    if (!descending) {
      for (let i = 0; i < order.length; i++) if (keep(order[i]!)) target[at++] = order[i]!;
      return at;
    }
    let end = order.length - 1;
    while (end >= 0) {
      let start = end;
      while (start > 0 && tied[start] === 1) start -= 1;
      for (let i = start; i <= end; i++) if (keep(order[i]!)) target[at++] = order[i]!;
      end = start - 1;
    }
    return at;
  }
}

/**
 * `rows` in ascending order of `value(row)`, ties in the order given (a stable sort). Non-negative
 * integers below 2^53 (sizes, dates, ranks: every key here) go through a radix sort by 16-bit digits,
 * least significant first, skipping digits all rows share; anything else through a comparison sort.
 */
export function sortAscending(rows: Int32Array, value: (row: number) => number): Int32Array {
  const n = rows.length;
  const low = new Uint32Array(n);
  const high = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = value(rows[i]!);
    if (!(v >= 0 && v <= Number.MAX_SAFE_INTEGER && Number.isInteger(v)))
      return Int32Array.from(rows).sort((a, b) => value(a) - value(b) || a - b);
    low[i] = v % 0x1_0000_0000;
    high[i] = Math.floor(v / 0x1_0000_0000);
  }
  // Positions into rows, low and high, moved digit by digit.
  let order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let spare = new Int32Array(n);
  const counts = new Int32Array(0x10000);
  for (const [words, shift] of [
    [low, 0],
    [low, 16],
    [high, 0],
    [high, 16],
  ] as const) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(words[i]! >>> shift) & 0xffff]! += 1;
    // A digit every row shares changes nothing.
    if (n === 0 || counts[(words[0]! >>> shift) & 0xffff] === n) continue;
    let sum = 0;
    for (let d = 0; d < 0x10000; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const position = order[i]!;
      spare[counts[(words[position]! >>> shift) & 0xffff]!++] = position;
    }
    [order, spare] = [spare, order];
  }
  const sorted = new Int32Array(n);
  for (let i = 0; i < n; i++) sorted[i] = rows[order[i]!]!;
  return sorted;
}

/** An ascending order turned descending, each run of equal values kept in its order (the store's). */
export function descendingOf(ascending: Int32Array, value: (row: number) => number): Int32Array {
  const n = ascending.length;
  const out = new Int32Array(n);
  let at = 0;
  let end = n - 1;
  while (end >= 0) {
    const v = value(ascending[end]!);
    let start = end;
    while (start > 0 && value(ascending[start - 1]!) === v) start -= 1;
    // A loop, not set(subarray()): most runs are one row, and a view a row would cost more than it.
    for (let i = start; i <= end; i++) out[at++] = ascending[i]!;
    end = start - 1;
  }
  return out;
}

/** Filters remembered: deleting back to a text typed a moment ago costs nothing. */
const REMEMBERED_FILTERS = 8;

/** The filter box's text as rows are tested against it (lowercase names that include it). */
export function filterNeedle(filter: string): string {
  return filter.trim().toLowerCase();
}

/**
 * The test of a lowercase name against a needle: a glob ("*.tmp", "img_??.jpg") matches the whole
 * name, as the command line's wildcards do (src/object-filter.ts); other text, anywhere in it.
 */
export function nameMatcher(needle: string): (lowerName: string) => boolean {
  if (!hasWildcard(needle)) return (name) => name.includes(needle);
  return globMatcher(needle);
}

export class ListingIndex {
  private readonly names: string[] = [];
  private readonly lower: string[] = [];
  private folder = new Uint8Array(1024);
  private sizes = new Float64Array(1024);
  private modified = new Float64Array(1024);
  private classes = new Uint8Array(1024);
  private classNames: readonly string[] = [''];
  private readonly folders = new IntList();
  private readonly objects = new IntList();
  private readonly folderNames = new NameOrder(this.names);
  private readonly objectNames = new NameOrder(this.names);
  /** Rows appended but not yet merged into the name orders: merged in bulk when an order is asked. */
  private unmergedFrom = 0;
  /** Recent filters' matches (oldest first), to reuse, or to narrow when a needle contains one. */
  private readonly filters = new Map<string, { rows: number; matches: Uint8Array }>();
  /** Each number column's ascending order (and, once asked, descending), kept while no row has come since. */
  private readonly sorted = new Map<SortColumn, { rows: number; ascending: Int32Array; descending?: Int32Array }>();

  get length(): number {
    return this.names.length;
  }

  append(batch: RowBatch): void {
    if (batch.first !== this.names.length)
      throw new Error(`Rows ${batch.first}… appended after ${this.names.length} rows.`);
    const count = batch.names.length;
    this.reserve(batch.first + count);
    this.classNames = batch.classNames;
    for (let i = 0; i < count; i++) {
      const row = batch.first + i;
      const name = batch.names[i]!;
      this.names.push(name);
      this.lower.push(name.toLowerCase());
      this.folder[row] = batch.folder[i]!;
      this.sizes[row] = batch.sizes[i]!;
      this.modified[row] = batch.modified[i]!;
      this.classes[row] = batch.classes[i]!;
      (batch.folder[i] ? this.folders : this.objects).push(row);
    }
  }

  private reserve(rows: number): void {
    if (rows <= this.folder.length) return;
    let size = this.folder.length;
    while (size < rows) size *= 2;
    const grow = <T extends Uint8Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const grown = make(size);
      grown.set(old);
      return grown;
    };
    this.folder = grow(this.folder, (n) => new Uint8Array(n));
    this.sizes = grow(this.sizes, (n) => new Float64Array(n));
    this.modified = grow(this.modified, (n) => new Float64Array(n));
    this.classes = grow(this.classes, (n) => new Uint8Array(n));
  }

  /** Row numbers in display order for this sort and filter, over every row appended so far. */
  order(sort: Sort, filter: string): Int32Array {
    const matches = this.matches(filterNeedle(filter));
    const keep = matches ? (row: number) => matches[row] === 1 : () => true;
    const out = new Int32Array(this.names.length);
    let at = 0;
    if (sort.column === 'name') {
      this.mergeNames();
      at = this.folderNames.write(out, at, sort.descending, keep);
      at = this.objectNames.write(out, at, sort.descending, keep);
    } else {
      // Folders have no size, date or class: in the store's order, whichever way.
      for (const row of this.folders.view()) if (keep(row)) out[at++] = row;
      for (const row of this.sortedObjects(sort)) if (keep(row)) out[at++] = row;
    }
    return at === out.length ? out : out.slice(0, at);
  }

  private mergeNames(): void {
    if (this.unmergedFrom === this.names.length) return;
    const folders: number[] = [];
    const objects: number[] = [];
    for (let row = this.unmergedFrom; row < this.names.length; row++) (this.folder[row] ? folders : objects).push(row);
    this.folderNames.merge(Int32Array.from(folders));
    this.objectNames.merge(Int32Array.from(objects));
    this.unmergedFrom = this.names.length;
  }

  /** A column's value for sorting objects (a storage class: its rank by collator among those seen). */
  private valueOf(column: Exclude<SortColumn, 'name'>): (row: number) => number {
    if (column === 'size') return (row) => this.sizes[row]!;
    // No date sorts as 0, as visibleRows has it.
    if (column === 'modified') return (row) => this.modified[row]! || 0;
    const ranked = this.classNames
      .map((name, index) => ({ name, index }))
      .sort((a, b) => collator.compare(a.name, b.name));
    const rank = new Int32Array(this.classNames.length);
    ranked.forEach((entry, position) => {
      // Names equal by collator share the rank of the first.
      const same = position > 0 && collator.compare(ranked[position - 1]!.name, entry.name) === 0;
      rank[entry.index] = same ? rank[ranked[position - 1]!.index]! : position;
    });
    return (row) => rank[this.classes[row]!]!;
  }

  private sortedObjects(sort: Sort): Int32Array {
    const column = sort.column as Exclude<SortColumn, 'name'>;
    const value = this.valueOf(column);
    let kept = this.sorted.get(column);
    if (kept?.rows !== this.names.length) {
      kept = { rows: this.names.length, ascending: sortAscending(this.objects.view(), value) };
      this.sorted.set(column, kept);
    }
    if (!sort.descending) return kept.ascending;
    kept.descending ??= descendingOf(kept.ascending, value);
    return kept.descending;
  }

  /**
   * Work done ahead, while nothing else is asked: the name orders merged, then each number column
   * sorted, one step a call, so a click on a header finds its order made. False once all is done.
   */
  prepare(): boolean {
    if (this.unmergedFrom !== this.names.length) {
      this.mergeNames();
      return true;
    }
    for (const column of ['size', 'modified', 'class'] as const) {
      if (this.sorted.get(column)?.rows !== this.names.length) {
        this.sortedObjects({ column, descending: false });
        return true;
      }
    }
    return false;
  }

  /** Which rows match (1) the needle, or undefined for no filter. */
  private matches(needle: string): Uint8Array | undefined {
    if (needle === '') return undefined;
    const rows = this.names.length;
    const known = this.filters.get(needle);
    if (known?.rows === rows) {
      this.filters.delete(needle);
      this.filters.set(needle, known);
      return known.matches;
    }
    // Typing on (or rows come since): whatever matches now matched a needle it contains, among the
    // rows tested then.
    let base: { rows: number; matches: Uint8Array } | undefined;
    let baseLength = -1;
    const test = nameMatcher(needle);
    // A glob's matches are no subset of a shorter text's ("a*" is not within "a"'s): tested afresh.
    const narrows = !hasWildcard(needle);
    for (const [text, entry] of this.filters) {
      if (narrows && !hasWildcard(text) && text.length > baseLength && needle.includes(text)) {
        base = entry;
        baseLength = text.length;
      }
    }
    const matches = new Uint8Array(rows);
    const lower = this.lower;
    const from = base ? base.rows : 0;
    if (base) {
      const before = base.matches;
      for (let row = 0; row < from; row++) if (before[row] === 1 && test(lower[row]!)) matches[row] = 1;
    }
    for (let row = from; row < rows; row++) if (test(lower[row]!)) matches[row] = 1;
    this.filters.delete(needle);
    this.filters.set(needle, { rows, matches });
    if (this.filters.size > REMEMBERED_FILTERS) this.filters.delete(this.filters.keys().next().value!);
    return matches;
  }
}
