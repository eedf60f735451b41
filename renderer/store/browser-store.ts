// The bucket browser: where we are, what is there, and what is selected.
//
// A prefix is listed page by page and each page is shown as it arrives, so a folder of 100,000 keys
// is browsable after the first thousand. Moving elsewhere cancels the listing in progress.

import { create } from 'zustand';
import type { Bucket, BucketVersioning, ObjectPage, ObjectRow } from '../../src/contract/models.ts';
import type { DroppedItems } from '../../src/contract/api.ts';
import type { JobSummary } from '../../src/jobs.ts';
import { plural } from '../../src/plural.ts';
import { api, request } from './api.ts';
import { copyText, presign } from './details-store.ts';

export type Row =
  | { readonly kind: 'folder'; readonly key: string; readonly name: string }
  | ({ readonly kind: 'object'; readonly name: string } & ObjectRow);

export type SortColumn = 'name' | 'size' | 'modified' | 'class';
export interface Sort {
  readonly column: SortColumn;
  readonly descending: boolean;
}

interface BrowserState {
  readonly connectionId: string | undefined;
  readonly buckets: readonly Bucket[];
  readonly bucketsError: string | undefined;
  readonly bucket: string | undefined;
  readonly prefix: string;
  readonly rows: readonly Row[];
  readonly listing: boolean;
  readonly listError: string | undefined;
  readonly selection: ReadonlySet<string>;
  /** The last row clicked without shift: the other end of a shift-click range. */
  readonly anchor: string | undefined;
  readonly sort: Sort;
  readonly filter: string;
  /** The last upload's or link's outcome, shown in the status line. */
  readonly notice: string | undefined;
  useConnection(id: string | undefined): Promise<void>;
  loadBuckets(): Promise<void>;
  open(bucket: string | undefined, prefix?: string): void;
  refresh(): void;
  /**
   * List the folder on screen again in place: the rows are replaced once the new listing is whole,
   * and the selection keeps the keys still there (the table keeps its scroll position).
   */
  reload(): Promise<void>;
  /** Jobs that completed: the folder on screen is listed again when one of them changed it. */
  jobsCompleted(jobs: readonly Pick<JobSummary, 'kind' | 'bucket' | 'prefix'>[]): void;
  setSort(column: SortColumn): void;
  setFilter(filter: string): void;
  select(key: string, mode: 'only' | 'toggle' | 'range', visible: readonly Row[]): void;
  selectAll(visible: readonly Row[]): void;
  clearSelection(): void;
  /** Upload dropped or picked files into the prefix on screen. */
  /** Upload what was dropped or picked into the prefix on screen (the API walks it only if it must). */
  upload(dropped: DroppedItems): Promise<void>;
  /** Copy a presigned link (valid one hour) to an object of the bucket on screen. */
  copyLink(key: string): Promise<void>;
  /** Create a bucket in the current connection; the list is loaded again. Rejects with the reason. */
  createBucket(name: string): Promise<void>;
  /** Delete an (empty) bucket; the browser closes and the list is loaded again. Rejects with the reason. */
  deleteBucket(name: string): Promise<void>;
  /**
   * Start emptying a bucket (every version and delete marker, every unfinished upload) and then
   * deleting it: a delete job, shown with the others. The list is loaded again when it completes.
   */
  emptyAndDeleteBucket(name: string): Promise<JobSummary>;
  /** How many multipart uploads a bucket holds begun and never finished (Empty and delete aborts them too). */
  unfinishedUploads(connectionId: string, bucket: string): Promise<number>;
  /** Whether a bucket keeps versions (what a delete there does), or undefined if the store will not say. */
  versioning(connectionId: string, bucket: string): Promise<BucketVersioning | undefined>;
}

let generation = 0;

/** Pages that arrive within this long are shown together: one re-sort and render, not one per page. */
const SHOW_PAGES_EVERY_MS = 250;

// One collator for every comparison: localeCompare with options builds one per call (measured:
// several seconds to sort 100,000 names).
const collator = new Intl.Collator(undefined, { numeric: true });

export function rowName(key: string, prefix: string): string {
  const rest = key.slice(prefix.length);
  return rest.endsWith('/') ? rest.slice(0, -1) : rest;
}

/** A listing page's rows: its folders, then its objects. */
function pageRows(page: ObjectPage, prefix: string): Row[] {
  const rows: Row[] = page.prefixes.map((key) => ({ kind: 'folder', key, name: rowName(key, prefix) }));
  // A folder marker for the prefix itself ("photos/" inside "photos/") is not a row.
  for (const o of page.objects) if (o.key !== prefix) rows.push({ kind: 'object', name: rowName(o.key, prefix), ...o });
  return rows;
}

/** Rows in display order: folders first, then by the chosen column. Pure, for the view and tests. */
export function visibleRows(rows: readonly Row[], sort: Sort, filter: string): Row[] {
  const needle = filter.trim().toLowerCase();
  const shown = needle ? rows.filter((r) => r.name.toLowerCase().includes(needle)) : rows.slice();
  const value = (row: Row): string | number => {
    if (row.kind === 'folder') return sort.column === 'name' ? row.name : '';
    switch (sort.column) {
      case 'name': return row.name;
      case 'size': return row.size;
      case 'modified': return row.lastModified ?? 0;
      case 'class': return row.storageClass ?? '';
    }
  };
  const direction = sort.descending ? -1 : 1;
  return shown.sort((a, b) => {
    if (a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1;
    const x = value(a);
    const y = value(b);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return order * direction || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  });
}

export const useBrowser = create<BrowserState>((set, get) => ({
  connectionId: undefined,
  buckets: [],
  bucketsError: undefined,
  bucket: undefined,
  prefix: '',
  rows: [],
  listing: false,
  listError: undefined,
  selection: new Set(),
  anchor: undefined,
  sort: { column: 'name', descending: false },
  filter: '',
  notice: undefined,

  async useConnection(id) {
    generation += 1;
    set({ connectionId: id, buckets: [], bucket: undefined, prefix: '', rows: [], selection: new Set(), listError: undefined, bucketsError: undefined });
    if (id) await get().loadBuckets();
  },

  async loadBuckets() {
    const connectionId = get().connectionId;
    if (!connectionId) return;
    try {
      const buckets = await request('buckets.list', { connectionId });
      if (get().connectionId !== connectionId) return;
      set({ buckets, bucketsError: undefined });
      // The bucket on screen deleted (here or elsewhere): nothing is left to show of it.
      const open = get().bucket;
      if (open !== undefined && !buckets.some((b) => b.name === open)) get().open(undefined);
    } catch (error) {
      if (get().connectionId === connectionId) set({ buckets: [], bucketsError: (error as Error).message });
    }
  },

  open(bucket, prefix = '') {
    const mine = ++generation;
    set({ bucket, prefix, rows: [], selection: new Set(), anchor: undefined, listError: undefined, filter: '', listing: bucket !== undefined });
    const connectionId = get().connectionId;
    if (!bucket || !connectionId) return;
    void (async () => {
      let token: string | undefined;
      let arrived: Row[] = [];
      let shownAt = 0;
      const show = () => {
        const batch = arrived;
        arrived = [];
        shownAt = Date.now();
        set((state) => ({ rows: state.rows.concat(batch) }));
      };
      try {
        do {
          const page: ObjectPage = await request('objects.list', { connectionId, bucket, prefix, token });
          if (mine !== generation) return;
          arrived.push(...pageRows(page, prefix));
          if (Date.now() - shownAt >= SHOW_PAGES_EVERY_MS) show();
          token = page.nextToken;
        } while (token);
        if (mine === generation) {
          show();
          set({ listing: false });
        }
      } catch (error) {
        if (mine === generation) {
          show();
          set({ listing: false, listError: (error as Error).message });
        }
      }
    })();
  },

  refresh() {
    // The buckets too: one deleted or made elsewhere shows (or goes) without a new connection.
    void get().loadBuckets();
    get().open(get().bucket, get().prefix);
  },

  async reload() {
    const { connectionId, bucket, prefix } = get();
    if (!bucket || !connectionId) return;
    const mine = ++generation;
    const rows: Row[] = [];
    let token: string | undefined;
    try {
      do {
        const page: ObjectPage = await request('objects.list', { connectionId, bucket, prefix, token });
        if (mine !== generation) return;
        rows.push(...pageRows(page, prefix));
        token = page.nextToken;
      } while (token);
    } catch (error) {
      if (mine === generation) set({ listing: false, listError: (error as Error).message });
      return;
    }
    const there = new Set(rows.map((row) => row.key));
    const selection = new Set([...get().selection].filter((key) => there.has(key)));
    const anchor = get().anchor;
    set({ rows, selection, anchor: anchor !== undefined && there.has(anchor) ? anchor : undefined, listing: false, listError: undefined });
  },

  jobsCompleted(jobs) {
    const { bucket, prefix } = get();
    // A job into a folder below this one may have made a new folder here: listed again too.
    const changed = jobs.some((job) => job.kind !== 'download' && job.bucket === bucket && job.prefix !== undefined && job.prefix.startsWith(prefix));
    if (changed) void get().reload();
    // A delete of a whole bucket may have deleted the bucket too (Empty and delete): the list again.
    if (jobs.some((job) => job.kind === 'delete' && job.prefix === '')) void get().loadBuckets();
  },

  setSort(column) {
    const sort = get().sort;
    set({ sort: { column, descending: sort.column === column ? !sort.descending : false } });
  },

  setFilter(filter) {
    set({ filter });
  },

  select(key, mode, visible) {
    const { selection, anchor } = get();
    if (mode === 'only') {
      set({ selection: new Set([key]), anchor: key });
    } else if (mode === 'toggle') {
      const next = new Set(selection);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      set({ selection: next, anchor: key });
    } else {
      const to = visible.findIndex((r) => r.key === key);
      const found = visible.findIndex((r) => r.key === anchor);
      // An anchor the filter hides is no anchor: the range starts at the row clicked.
      const from = found >= 0 ? found : to;
      const [start, end] = from <= to ? [from, to] : [to, from];
      set({ selection: new Set(visible.slice(start, end + 1).map((r) => r.key)) });
    }
  },

  selectAll(visible) {
    set({ selection: new Set(visible.map((r) => r.key)) });
  },

  clearSelection() {
    set({ selection: new Set(), anchor: undefined });
  },

  async upload(dropped) {
    const { connectionId, bucket, prefix } = get();
    if (!connectionId || !bucket || dropped.count === 0) return;
    set({ notice: `Uploading ${plural(dropped.count, 'item')}…` });
    const result = await api().uploadFiles({ connectionId, bucket, prefix, dropped });
    set({ notice: result.ok ? `Upload started: ${result.value.name}` : result.error.message });
  },

  async copyLink(key) {
    const { connectionId, bucket } = get();
    if (!connectionId || !bucket) return;
    try {
      const url = await presign(connectionId, bucket, key);
      await copyText(url);
      set({ notice: `Link copied (valid one hour): ${url}` });
    } catch (error) {
      set({ notice: (error as Error).message });
    }
  },

  async createBucket(name) {
    const connectionId = get().connectionId;
    if (!connectionId) return;
    await request('buckets.create', { connectionId, name });
    await get().loadBuckets();
  },

  async deleteBucket(name) {
    const connectionId = get().connectionId;
    if (!connectionId) return;
    await request('buckets.delete', { connectionId, name });
    get().open(undefined);
    await get().loadBuckets();
  },

  async emptyAndDeleteBucket(name) {
    const connectionId = get().connectionId;
    if (!connectionId) throw new Error('Pick a connection first.');
    return request('buckets.emptyAndDelete', { connectionId, name });
  },

  async unfinishedUploads(connectionId, bucket) {
    const found = await request('uploads.abortIncomplete', { connectionId, bucket, prefix: '', dryRun: true });
    return found.aborted.length + found.younger;
  },

  async versioning(connectionId, bucket) {
    // A store that does not answer (no permission to read it) leaves the wording neutral.
    return request('buckets.versioning', { connectionId, name: bucket }).catch(() => undefined);
  },
}));
