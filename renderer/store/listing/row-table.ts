// The rows of one listing, stored by column: a name each, sizes and dates in typed arrays, storage
// classes as small numbers into one table of their names.
//
// A row object per key cost about 550 bytes with its strings (a million keys: 546 MiB of heap);
// here a row is its name and some 25 bytes (the page's heap: 65 MiB for a million keys). Row objects are made only for
// what the table shows, a few
// dozen at a time. The ETag is not kept: the table does not show it, and the details dialog asks
// the store. Rows are only ever appended, so a view of the first n rows stays valid while more come.

import type { ObjectPage, ObjectRow } from '../../../src/contract/models.ts';
import type { RowBatch } from './listing-index.ts';

export type Row =
  | { readonly kind: 'folder'; readonly key: string; readonly name: string }
  | ({ readonly kind: 'object'; readonly name: string } & ObjectRow);

/** A row as the toolbar and the dialogs need it: what it is and where. */
export type RowRef = Pick<Row, 'kind' | 'key' | 'name'>;

/** Rows in display order, as the table reads them: an array, or a listing's view. */
export interface RowList {
  readonly length: number;
  at(index: number): Row | undefined;
}

/** A row's name inside its prefix: "photos/2024/" in "photos/" is "2024". */
export function rowName(key: string, prefix: string): string {
  const rest = key.slice(prefix.length);
  return rest.endsWith('/') ? rest.slice(0, -1) : rest;
}

/** A selected key as a row reference (a listing with "/" as delimiter: only folders end with "/"). */
export function rowRef(key: string, prefix: string): RowRef {
  return { kind: key.endsWith('/') ? 'folder' : 'object', key, name: rowName(key, prefix) };
}

export class RowTable {
  private readonly names: string[] = [];
  private folder = new Uint8Array(256);
  private sizes = new Float64Array(256);
  private modified = new Float64Array(256);
  private classes = new Uint8Array(256);
  private readonly classNames: string[] = [''];
  private readonly classIndex = new Map<string, number>([['', 0]]);
  /** Whether each kind's names came in ascending order (as S3 lists them): keys are then found by halving. */
  private inOrder = { folder: true, object: true };
  private lastName: { folder: string | undefined; object: string | undefined } = {
    folder: undefined,
    object: undefined,
  };
  private readonly folderRows: number[] = [];
  private readonly objectRows: number[] = [];

  readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  get length(): number {
    return this.names.length;
  }

  /** Append a listing page (its folders, then its objects); the rows added, as the index takes them. */
  append(page: ObjectPage): RowBatch {
    const first = this.names.length;
    const prefix = this.prefix;
    for (const key of page.prefixes) this.push(rowName(key, prefix), 1, 0, NaN, 0);
    // A folder marker for the prefix itself ("photos/" inside "photos/") is not a row.
    for (const o of page.objects)
      if (o.key !== prefix)
        this.push(rowName(o.key, prefix), 0, o.size, o.lastModified ?? NaN, this.classOf(o.storageClass));
    const end = this.names.length;
    return {
      first,
      folder: this.folder.slice(first, end),
      names: this.names.slice(first, end),
      sizes: this.sizes.slice(first, end),
      modified: this.modified.slice(first, end),
      classes: this.classes.slice(first, end),
      classNames: this.classNames.slice(),
    };
  }

  private push(name: string, folder: number, size: number, modified: number, storageClass: number): void {
    const row = this.names.length;
    if (row === this.folder.length) this.grow();
    this.names.push(name);
    this.folder[row] = folder;
    this.sizes[row] = size;
    this.modified[row] = modified;
    this.classes[row] = storageClass;
    // Ordered as S3 orders keys: a folder's name with its "/" ("a-b/" before "a/").
    const kind = folder ? 'folder' : 'object';
    const ordered = folder ? `${name}/` : name;
    const last = this.lastName[kind];
    if (last !== undefined && !(last < ordered)) this.inOrder[kind] = false;
    this.lastName[kind] = ordered;
    (folder ? this.folderRows : this.objectRows).push(row);
  }

  private grow(): void {
    const size = this.folder.length * 2;
    const grow = <T extends Uint8Array | Float64Array>(old: T, made: T): T => {
      made.set(old);
      return made;
    };
    this.folder = grow(this.folder, new Uint8Array(size));
    this.sizes = grow(this.sizes, new Float64Array(size));
    this.modified = grow(this.modified, new Float64Array(size));
    this.classes = grow(this.classes, new Uint8Array(size));
  }

  private classOf(storageClass: string | undefined): number {
    if (!storageClass) return 0;
    let index = this.classIndex.get(storageClass);
    if (index === undefined) {
      // More than 255 distinct classes would be no store's: the rest show as none.
      if (this.classNames.length === 256) return 0;
      index = this.classNames.length;
      this.classNames.push(storageClass);
      this.classIndex.set(storageClass, index);
    }
    return index;
  }

  isFolder(row: number): boolean {
    return this.folder[row] === 1;
  }

  name(row: number): string {
    return this.names[row]!;
  }

  key(row: number): string {
    return this.folder[row] === 1 ? `${this.prefix}${this.names[row]}/` : `${this.prefix}${this.names[row]}`;
  }

  row(row: number): Row {
    const name = this.names[row]!;
    const key = this.key(row);
    if (this.folder[row] === 1) return { kind: 'folder', key, name };
    const modified = this.modified[row]!;
    const storageClass = this.classes[row]!;
    return {
      kind: 'object',
      key,
      name,
      size: this.sizes[row]!,
      ...(Number.isNaN(modified) ? {} : { lastModified: modified }),
      ...(storageClass === 0 ? {} : { storageClass: this.classNames[storageClass] }),
    };
  }

  /** The row of a key, or -1. */
  indexOfKey(key: string): number {
    if (!key.startsWith(this.prefix)) return -1;
    const folder = key.endsWith('/');
    const name = rowName(key, this.prefix);
    const rows = folder ? this.folderRows : this.objectRows;
    if (!this.inOrder[folder ? 'folder' : 'object']) return rows.find((row) => this.names[row] === name) ?? -1;
    const ordered = folder ? `${name}/` : name;
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const there = this.names[rows[middle]!]!;
      if ((folder ? `${there}/` : there) < ordered) low = middle + 1;
      else high = middle;
    }
    const row = rows[low];
    return row !== undefined && this.names[row] === name ? row : -1;
  }
}

/** A listing's rows in display order: row numbers into its table, rows made as they are read. */
export class ListingView implements RowList {
  readonly table: RowTable;
  readonly order: Int32Array;

  constructor(table: RowTable, order: Int32Array) {
    this.table = table;
    this.order = order;
  }

  get length(): number {
    return this.order.length;
  }

  at(index: number): Row | undefined {
    return index >= 0 && index < this.order.length ? this.table.row(this.order[index]!) : undefined;
  }

  keyAt(index: number): string | undefined {
    return index >= 0 && index < this.order.length ? this.table.key(this.order[index]!) : undefined;
  }

  /** Where a key is shown, or -1 (not listed, or filtered out). */
  indexOfKey(key: string): number {
    const row = this.table.indexOfKey(key);
    return row < 0 ? -1 : this.order.indexOf(row);
  }
}

/** Where a key is in a row list: a listing's view finds it without making rows. */
export function indexOfKey(rows: RowList, key: string): number {
  if (rows instanceof ListingView) return rows.indexOfKey(key);
  for (let i = 0; i < rows.length; i++) if (rows.at(i)?.key === key) return i;
  return -1;
}

/** The key at a position of a row list. */
export function keyAt(rows: RowList, index: number): string | undefined {
  return rows instanceof ListingView ? rows.keyAt(index) : rows.at(index)?.key;
}
