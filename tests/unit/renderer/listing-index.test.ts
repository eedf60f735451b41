import { describe, expect, it } from 'vitest';
import { descendingOf, ListingIndex, sortAscending } from '../../../renderer/store/listing/listing-index.ts';
import type { Sort, SortColumn } from '../../../renderer/store/listing/listing-index.ts';
import { ListingView, rowRef, RowTable } from '../../../renderer/store/listing/row-table.ts';
import type { Row } from '../../../renderer/store/listing/row-table.ts';
import { selectedRefs, visibleRows } from '../../../renderer/store/browser-store.ts';
import type { ObjectPage, ObjectRow } from '../../../src/contract/models.ts';
import { seededRandom } from '../../support/seeded-random.ts';

const PREFIX = 'p/';
const SORTS: Sort[] = (['name', 'size', 'modified', 'class'] as SortColumn[]).flatMap((column) => [
  { column, descending: false },
  { column, descending: true },
]);

/**
 * A folder's worth of keys meant to catch the hard cases: numbers that sort by value ("k9" before
 * "k10"), leading zeros the collator calls equal ("k01", "k1"), case and accents, folders whose
 * names order differently with their "/" ("a-b/" before "a/"), ties in every column, missing dates
 * and classes.
 */
function makeListing(seed: number, count: number): { objects: ObjectRow[]; prefixes: string[] } {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const stems = ['k', 'K', 'img_', 'IMG_', 'é', 'e', 'a-b', 'a', 'photo 2', 'photo 10', 'z', 'Ω'];
  const names = new Set<string>();
  while (names.size < count) {
    const digits = pick([
      '',
      String(Math.floor(random() * 30)),
      `0${Math.floor(random() * 30)}`,
      String(Math.floor(random() * 1e6)),
    ]);
    names.add(`${pick(stems)}${digits}${pick(['', '.txt', '.TXT', '.jpg'])}`);
  }
  const objects: ObjectRow[] = [];
  const prefixes: string[] = [];
  for (const name of names) {
    if (random() < 0.1) prefixes.push(`${PREFIX}${name}/`);
    else {
      const lastModified = random() < 0.1 ? undefined : 1_700_000_000_000 + Math.floor(random() * 5) * 1000;
      const storageClass = pick([undefined, 'STANDARD', 'GLACIER', 'standard_ia']);
      objects.push({
        key: `${PREFIX}${name}`,
        size: pick([0, 1, 5, 1024, 2 ** 40 + 3, 2 ** 52 + 1]),
        ...(lastModified === undefined ? {} : { lastModified }),
        ...(storageClass ? { storageClass } : {}),
      });
    }
  }
  // As a store lists them: by key.
  const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return { objects: objects.sort((a, b) => byKey(a.key, b.key)), prefixes: prefixes.sort(byKey) };
}

/** The listing cut into pages of varied sizes, keys in order across pages (as S3 pages them). */
function pages(listing: { objects: ObjectRow[]; prefixes: string[] }, seed: number): ObjectPage[] {
  const random = seededRandom(seed);
  const all = [
    ...listing.prefixes.map((key) => ({ key, folder: true as const })),
    ...listing.objects.map((o) => ({ ...o, folder: false as const })),
  ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const result: ObjectPage[] = [];
  for (let at = 0; at < all.length;) {
    const slice = all.slice(at, at + 1 + Math.floor(random() * 60));
    at += slice.length;
    result.push({
      prefixes: slice.filter((e) => e.folder).map((e) => e.key),
      objects: slice.filter((e) => !e.folder).map(({ folder: _folder, ...o }) => o),
      nextToken: at < all.length ? String(at) : undefined,
    });
  }
  return result;
}

const rowsOf = (listing: { objects: ObjectRow[]; prefixes: string[] }): Row[] => [
  ...listing.prefixes.map((key): Row => ({ kind: 'folder', key, name: rowRef(key, PREFIX).name })),
  ...listing.objects.map((o): Row => ({ kind: 'object', name: rowRef(o.key, PREFIX).name, ...o })),
];

function indexed(
  listing: { objects: ObjectRow[]; prefixes: string[] },
  seed: number,
  each?: (table: RowTable, index: ListingIndex) => void,
): { table: RowTable; index: ListingIndex } {
  const table = new RowTable(PREFIX);
  const index = new ListingIndex();
  for (const page of pages(listing, seed)) {
    index.append(table.append(page));
    each?.(table, index);
  }
  return { table, index };
}

const keysIn = (table: RowTable, order: Int32Array) => Array.from(order, (row) => table.key(row));

describe('the listing index', () => {
  const listing = makeListing(1, 1500);
  const reference = rowsOf(listing);
  const { table, index } = indexed(listing, 2);

  it('orders rows as visibleRows does, for every column both ways', () => {
    for (const sort of SORTS)
      expect(
        keysIn(table, index.order(sort, '')),
        `${sort.column} ${sort.descending ? 'descending' : 'ascending'}`,
      ).toEqual(visibleRows(reference, sort, '').map((r) => r.key));
  });

  it('filters as visibleRows does, whether typing on, deleting or starting again', () => {
    for (const filter of ['1', '12', '12.', ' 12.T ', '2', 'É', 'é', 'a-', 'a', 'nothing here', '', 'photo 1', '/']) {
      for (const sort of [SORTS[0]!, SORTS[3]!, SORTS[6]!]) {
        expect(keysIn(table, index.order(sort, filter)), `"${filter}" ${sort.column}`).toEqual(
          visibleRows(reference, sort, filter).map((r) => r.key),
        );
      }
    }
  });

  it('filters by a glob as visibleRows does: the whole name, after plain text and before it', () => {
    for (const filter of ['1', '*1', '1*', '*.t?t', 'a', 'a*', '*', '?', 'nothing*', '1', '*2*']) {
      const sort = SORTS[0]!;
      expect(keysIn(table, index.order(sort, filter)), `"${filter}"`).toEqual(
        visibleRows(reference, sort, filter).map((r) => r.key),
      );
    }
  });

  it('keeps the name order right while pages come in, each merged into what came before', () => {
    const small = makeListing(3, 400);
    let seen = 0;
    indexed(small, 4, (partial, partialIndex) => {
      const so_far: Row[] = [];
      for (let row = 0; row < partial.length; row++) so_far.push(partial.row(row));
      for (const sort of [SORTS[0]!, SORTS[1]!, SORTS[2]!]) {
        expect(keysIn(partial, partialIndex.order(sort, 'k'))).toEqual(
          visibleRows(so_far, sort, 'k').map((r) => r.key),
        );
      }
      seen += 1;
    });
    expect(seen).toBeGreaterThan(5);
  });

  it('gives the same orders once it has prepared them ahead, and filters right after rows come', () => {
    const more = makeListing(7, 600);
    const { table: t, index: i } = indexed(more, 8, (_table, partial) => {
      partial.order(SORTS[0]!, 'k1');
    });
    let steps = 0;
    while (i.prepare()) steps += 1;
    expect(steps).toBe(3);
    const all = rowsOf(more);
    for (const sort of SORTS)
      expect(keysIn(t, i.order(sort, 'k'))).toEqual(visibleRows(all, sort, 'k').map((r) => r.key));
    expect(keysIn(t, i.order(SORTS[2]!, 'k1'))).toEqual(visibleRows(all, SORTS[2]!, 'k1').map((r) => r.key));
  });

  it('sorts any numbers stably, by radix where it can, and turns an order round keeping ties', () => {
    const values = [3, 2 ** 40, 0, 3, 2 ** 52 + 2, 1, 2 ** 40, 7];
    const rows = Int32Array.from(values.keys());
    const byValue = (row: number) => values[row]!;
    expect(Array.from(sortAscending(rows, byValue))).toEqual([2, 5, 0, 3, 7, 1, 6, 4]);
    expect(Array.from(descendingOf(sortAscending(rows, byValue), byValue))).toEqual([4, 1, 6, 7, 0, 3, 5, 2]);
    const odd = [0.5, -2, 0.5, 3];
    expect(Array.from(sortAscending(Int32Array.of(0, 1, 2, 3), (row) => odd[row]!))).toEqual([1, 0, 2, 3]);
  });

  it('refuses rows that leave a gap', () => {
    const other = new ListingIndex();
    const batch = new RowTable(PREFIX).append({ objects: [{ key: 'p/a', size: 1 }], prefixes: [] });
    expect(() => other.append({ ...batch, first: 3 })).toThrow('appended after 0 rows');
  });
});

describe('the row table', () => {
  it('gives back each row as the listing had it, without its ETag, and finds rows by key', () => {
    const table = new RowTable(PREFIX);
    table.append({
      prefixes: ['p/d/'],
      objects: [
        { key: 'p/', size: 0 },
        { key: 'p/a.txt', size: 5, lastModified: 7, etag: '"e"', storageClass: 'GLACIER' },
        { key: 'p/b', size: 1 },
      ],
    });
    expect(table.length).toBe(3);
    expect(table.row(0)).toEqual({ kind: 'folder', key: 'p/d/', name: 'd' });
    expect(table.row(1)).toEqual({
      kind: 'object',
      key: 'p/a.txt',
      name: 'a.txt',
      size: 5,
      lastModified: 7,
      storageClass: 'GLACIER',
    });
    expect(table.row(2)).toEqual({ kind: 'object', key: 'p/b', name: 'b', size: 1 });
    expect([
      table.indexOfKey('p/d/'),
      table.indexOfKey('p/a.txt'),
      table.indexOfKey('p/b'),
      table.indexOfKey('p/d'),
      table.indexOfKey('p/c'),
      table.indexOfKey('q/b'),
    ]).toEqual([0, 1, 2, -1, -1, -1]);
  });

  it('finds keys in a listing that came out of order too', () => {
    const table = new RowTable(PREFIX);
    table.append({
      prefixes: ['p/z/', 'p/a/'],
      objects: [
        { key: 'p/z', size: 1 },
        { key: 'p/a', size: 1 },
      ],
    });
    expect(['p/a/', 'p/z/', 'p/a', 'p/z', 'p/m'].map((key) => table.indexOfKey(key))).toEqual([1, 0, 3, 2, -1]);
  });

  it('finds every key of a big listing, with folders ordered by their "/"', () => {
    const listing = makeListing(5, 800);
    const { table } = indexed(listing, 6);
    for (const row of rowsOf(listing)) expect(table.row(table.indexOfKey(row.key)).key).toBe(row.key);
  });

  it("shows a view's rows and positions by key", () => {
    const table = new RowTable(PREFIX);
    table.append({
      prefixes: [],
      objects: [
        { key: 'p/a', size: 1 },
        { key: 'p/b', size: 2 },
        { key: 'p/c', size: 3 },
      ],
    });
    const view = new ListingView(table, Int32Array.of(2, 0));
    expect([view.length, view.at(0)?.key, view.at(1)?.key, view.at(2), view.keyAt(1)]).toEqual([
      2,
      'p/c',
      'p/a',
      undefined,
      'p/a',
    ]);
    expect(['p/a', 'p/b', 'p/c'].map((key) => view.indexOfKey(key))).toEqual([1, -1, 0]);
  });
});

describe('the selection as the toolbar sees it', () => {
  it('is made from the keys, through the filter', () => {
    const selection = new Set(['p/photos/', 'p/a.txt', 'p/B.TXT']);
    expect(selectedRefs(selection, PREFIX, '')).toEqual([
      { kind: 'folder', key: 'p/photos/', name: 'photos' },
      { kind: 'object', key: 'p/a.txt', name: 'a.txt' },
      { kind: 'object', key: 'p/B.TXT', name: 'B.TXT' },
    ]);
    expect(selectedRefs(selection, PREFIX, ' b.t').map((r) => r.key)).toEqual(['p/B.TXT']);
  });
});
