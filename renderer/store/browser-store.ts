// The bucket browser: where we are, what is there, and what is selected.
//
// A prefix is listed page by page and shown as it arrives: the first page at once, then what has
// come at most every PUBLISH_EVERY_MS, so a folder of a million keys is browsable after its first
// thousand. Rows are kept by column (listing/row-table.ts), and their order for the sort and filter
// on screen is computed by the listing worker (listing/index-client.ts): nothing here walks the whole
// prefix on the main thread. Moving elsewhere cancels the listing in progress.

import { create } from 'zustand';
import type { Bucket, BucketRegion, BucketVersioning, ObjectPage } from '../../src/contract/models.ts';
import type { DroppedItems } from '../../src/contract/api.ts';
import type { JobSummary } from '../../src/jobs.ts';
import { plural } from '../../src/plural.ts';
import { formatS3Url } from '../../src/s3-url.ts';
import { unreadableKeysNotice } from '../../src/unreadable-key.ts';
import { api, request } from './api.ts';
import { copyText, presign } from './details-store.ts';
import { useUploadChoice } from './upload-choice-store.ts';
import { useUploadOptions } from './upload-options-store.ts';
import { createIndexClient } from './listing/index-client.ts';
import type { IndexClient } from './listing/index-client.ts';
import { filterNeedle, nameMatcher } from './listing/listing-index.ts';
import type { Sort, SortColumn } from './listing/listing-index.ts';
import { indexOfKey, keyAt, ListingView, rowName, rowRef, RowTable } from './listing/row-table.ts';
import type { Row, RowList, RowRef } from './listing/row-table.ts';

export type { Row, RowList, RowRef, Sort, SortColumn };
export { indexOfKey, keyAt, ListingView, rowName, RowTable };

interface BrowserState {
  readonly connectionId: string | undefined;
  readonly buckets: readonly Bucket[];
  readonly bucketsError: string | undefined;
  readonly bucket: string | undefined;
  readonly prefix: string;
  /** The rows on screen: the listing's, in the order of the sort, through the filter. */
  readonly view: ListingView;
  readonly listing: boolean;
  readonly listError: string | undefined;
  readonly selection: ReadonlySet<string>;
  /** The last row clicked without shift: the other end of a shift-click range. */
  readonly anchor: string | undefined;
  readonly sort: Sort;
  readonly filter: string;
  /**
   * The last upload's or link's outcome, shown in the status line: it speaks of the folder on
   * screen, so it goes when another folder, bucket or connection is opened.
   */
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
  select(key: string, mode: 'only' | 'toggle' | 'range', visible: RowList): void;
  selectAll(visible: RowList): void;
  clearSelection(): void;
  /** Upload what was dropped or picked into the prefix on screen (the API walks it only if it must). */
  upload(dropped: DroppedItems): Promise<void>;
  /** Copy a presigned link (valid one hour) to an object of the bucket on screen. */
  copyLink(key: string): Promise<void>;
  /** Create a bucket in the current connection; the list is loaded again. Rejects with the reason. */
  createBucket(name: string): Promise<void>;
  /** Delete an (empty) bucket; the browser closes and the list is loaded again. Rejects with the reason. */
  deleteBucket(name: string): Promise<void>;
  /**
   * Start emptying a bucket of `connectionId` (every version and delete marker, every unfinished
   * upload) and then deleting it: a delete job, shown with the others. The list is loaded again when
   * it completes. The connection is the one the dialog counted on, not whichever is picked by then.
   */
  emptyAndDeleteBucket(connectionId: string, name: string): Promise<JobSummary>;
  /** How many multipart uploads a bucket holds begun and never finished (Empty and delete aborts them too). */
  unfinishedUploads(connectionId: string, bucket: string): Promise<number>;
  /** Whether a bucket keeps versions (what a delete there does), or undefined if the store will not say. */
  versioning(connectionId: string, bucket: string): Promise<BucketVersioning | undefined>;
  /** The region a bucket is in (as the store names it, else the connection's). Rejects with the reason. */
  region(connectionId: string, bucket: string): Promise<BucketRegion>;
}

let generation = 0;

/**
 * While a listing streams, what has come is shown at most this often: each showing asks the worker
 * for a new order and renders once, whatever the number of pages in between. An order costs the
 * worker a pass over every row (the new names merged in, the order copied out), so past 400,000
 * rows the wait grows with the rows (a millisecond per 4,000): that work stays in proportion to
 * what came, instead of growing with the square of the prefix.
 */
const PUBLISH_EVERY_MS = 100;
const ROWS_PER_PUBLISH_MS = 4000;

// One collator for every comparison: localeCompare with options builds one per call (measured:
// several seconds to sort 100,000 names).
const collator = new Intl.Collator(undefined, { numeric: true });

/**
 * Rows in display order: folders first, then by the chosen column, ties by key; the filter keeps
 * names that contain its text, whatever the case. The plain statement of what the listing worker
 * computes (listing/listing-index.ts), kept for the tests to hold it against.
 */
export function visibleRows(rows: readonly Row[], sort: Sort, filter: string): Row[] {
  const needle = filterNeedle(filter);
  const test = nameMatcher(needle);
  const shown = needle ? rows.filter((r) => test(r.name.toLowerCase())) : rows.slice();
  const value = (row: Row): string | number => {
    if (row.kind === 'folder') return sort.column === 'name' ? row.name : '';
    switch (sort.column) {
      case 'name':
        return row.name;
      case 'size':
        return row.size;
      case 'modified':
        return row.lastModified ?? 0;
      case 'class':
        return row.storageClass ?? '';
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

/**
 * The selected rows the filter lets through, in the order they were selected: what the toolbar and
 * the dialogs act on. Made from the keys alone, so a large selection costs no walk of the listing.
 */
export function selectedRefs(selection: ReadonlySet<string>, prefix: string, filter: string): RowRef[] {
  const needle = filterNeedle(filter);
  const test = nameMatcher(needle);
  const refs: RowRef[] = [];
  for (const key of selection) {
    const ref = rowRef(key, prefix);
    if (!needle || test(ref.name.toLowerCase())) refs.push(ref);
  }
  return refs;
}

let indexClient: IndexClient | undefined;
/** The listing worker, started on the first listing. */
function index(): IndexClient {
  indexClient ??= createIndexClient();
  return indexClient;
}

/** One listing: its rows here, by column, and its index in the worker. */
class Listing {
  readonly table: RowTable;
  readonly id = index().open();
  /** Every page is in. */
  whole = false;

  constructor(prefix: string) {
    this.table = new RowTable(prefix);
  }

  /** Keys the store listed with a broken URL encoding, as sent: not rows, said in the status line. */
  readonly unreadable: string[] = [];

  /** Takes a page in; true when it held keys that cannot be rows (`unreadable`). */
  append(page: ObjectPage): boolean {
    index().append(this.id, this.table.append(page));
    this.unreadable.push(...(page.unreadable ?? []));
    return (page.unreadable?.length ?? 0) > 0;
  }

  async view(sort: Sort, filter: string): Promise<ListingView> {
    return new ListingView(this.table, await index().order(this.id, sort, filter));
  }

  close(): void {
    index().close(this.id);
  }
}

const emptyView = () => new ListingView(new RowTable(''), new Int32Array(0));

/** Every page of a prefix, each handed to `take` as it comes; false once another listing took over. */
async function listPages(
  connectionId: string,
  bucket: string,
  prefix: string,
  mine: number,
  take: (page: ObjectPage) => void,
): Promise<boolean> {
  let next = request('objects.list', { connectionId, bucket, prefix, token: undefined });
  for (;;) {
    const page: ObjectPage = await next;
    if (mine !== generation) return false;
    const token = page.nextToken;
    // The next page is asked for before this one is taken in: its trip overlaps the work here.
    if (token) next = request('objects.list', { connectionId, bucket, prefix, token });
    take(page);
    if (!token) return true;
  }
}

export const useBrowser = create<BrowserState>((set, get) => {
  /** The listing on screen, whole or still coming. */
  let shown: Listing | undefined;
  let asking = false;
  let askAgain = false;
  /** The status line a listing set (keys it could not show): it goes with the listing. */
  let listingNotice: string | undefined;
  const sayUnreadable = (listing: Listing) => {
    listingNotice = unreadableKeysNotice(listing.unreadable);
    set({ notice: listingNotice });
  };

  /** Where the browser is: a notice of one place is not shown in another. */
  const place = () => {
    const { connectionId, bucket, prefix } = get();
    return `${connectionId ?? ''}\u0000${bucket ?? ''}\u0000${prefix}`;
  };
  /**
   * Say `text` in the status line if the browser is still where it was asked (`asked`): an answer
   * that comes after the user moved on speaks of a folder no longer on screen. A failure is said
   * wherever the user is (never silent): elsewhere, after `failedWhat`, which names its place.
   */
  const sayAt = (asked: string, text: string, failedWhat?: string) => {
    if (place() === asked) set({ notice: text });
    else if (failedWhat) set({ notice: `${failedWhat}: ${text}` });
  };

  /** Put `listing` on screen in place of the one there (whose index goes). */
  const show = (listing: Listing | undefined) => {
    if (shown !== listing) shown?.close();
    shown = listing;
  };

  /**
   * Ask the worker for the order of what the listing on screen holds now, with the sort and filter
   * on screen now, and show it when it comes. One question at a time: asked meanwhile, it is asked
   * again (with what is newest then) once the answer is in.
   */
  const showView = () => {
    const listing = shown;
    if (!listing) return;
    if (asking) {
      askAgain = true;
      return;
    }
    asking = true;
    askAgain = false;
    const { sort, filter } = get();
    const rows = listing.table.length;
    const whole = listing.whole;
    listing
      .view(sort, filter)
      .then(
        (view) => {
          if (listing !== shown) return;
          // Only an order of every row ends "loading": the count shown is then the prefix's.
          set(whole && rows === listing.table.length ? { view, listing: false } : { view });
        },
        (error: unknown) => {
          if (listing === shown) set({ listing: false, listError: (error as Error).message });
        },
      )
      .finally(() => {
        asking = false;
        if (askAgain) showView();
      });
  };

  return {
    connectionId: undefined,
    buckets: [],
    bucketsError: undefined,
    bucket: undefined,
    prefix: '',
    view: emptyView(),
    listing: false,
    listError: undefined,
    selection: new Set(),
    anchor: undefined,
    sort: { column: 'name', descending: false },
    filter: '',
    notice: undefined,

    async useConnection(id) {
      generation += 1;
      show(undefined);
      set({
        connectionId: id,
        buckets: [],
        bucket: undefined,
        prefix: '',
        view: emptyView(),
        selection: new Set(),
        listError: undefined,
        bucketsError: undefined,
        notice: undefined,
      });
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
      const connectionId = get().connectionId;
      const listing = bucket && connectionId ? new Listing(prefix) : undefined;
      show(listing);
      // A notice speaks of the folder it was said in: it stays only while that folder is listed again.
      const samePlace = bucket === get().bucket && prefix === get().prefix;
      const notice = samePlace && get().notice !== listingNotice ? get().notice : undefined;
      set({
        bucket,
        prefix,
        view: listing ? new ListingView(listing.table, new Int32Array(0)) : emptyView(),
        selection: new Set(),
        anchor: undefined,
        listError: undefined,
        filter: '',
        listing: listing !== undefined,
        notice,
      });
      if (!bucket || !connectionId || !listing) return;
      void (async () => {
        let shownAt = 0;
        try {
          const whole = await listPages(connectionId, bucket, prefix, mine, (page) => {
            if (listing.append(page)) sayUnreadable(listing);
            // The first page at once, then what has come at most every PUBLISH_EVERY_MS.
            if (Date.now() - shownAt >= Math.max(PUBLISH_EVERY_MS, listing.table.length / ROWS_PER_PUBLISH_MS)) {
              shownAt = Date.now();
              showView();
            }
          });
          if (!whole) return;
        } catch (error) {
          if (mine !== generation) return;
          set({ listError: (error as Error).message });
        }
        listing.whole = true;
        showView();
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
      const listing = new Listing(prefix);
      let view: ListingView;
      const { sort, filter } = get();
      try {
        if (
          !(await listPages(connectionId, bucket, prefix, mine, (page) => {
            if (listing.append(page) && mine === generation) sayUnreadable(listing);
          }))
        ) {
          listing.close();
          return;
        }
        listing.whole = true;
        view = await listing.view(sort, filter);
      } catch (error) {
        listing.close();
        if (mine === generation) set({ listing: false, listError: (error as Error).message });
        return;
      }
      if (mine !== generation) {
        listing.close();
        return;
      }
      const there = (key: string) => listing.table.indexOfKey(key) >= 0;
      const selection = new Set([...get().selection].filter(there));
      const anchor = get().anchor;
      show(listing);
      set({
        view,
        selection,
        anchor: anchor !== undefined && there(anchor) ? anchor : undefined,
        listing: false,
        listError: undefined,
      });
      // Sorted or filtered otherwise while it was listed: in the order on screen now.
      if (get().sort !== sort || get().filter !== filter) showView();
    },

    jobsCompleted(jobs) {
      const { bucket, prefix } = get();
      // A job into a folder below this one may have made a new folder here: listed again too.
      const changed = jobs.some(
        (job) =>
          job.kind !== 'download' && job.bucket === bucket && job.prefix !== undefined && job.prefix.startsWith(prefix),
      );
      if (changed) void get().reload();
      // A delete of a whole bucket may have deleted the bucket too (Empty and delete): the list again.
      if (jobs.some((job) => job.kind === 'delete' && job.prefix === '')) void get().loadBuckets();
    },

    setSort(column) {
      const sort = get().sort;
      set({ sort: { column, descending: sort.column === column ? !sort.descending : false } });
      showView();
    },

    setFilter(filter) {
      set({ filter });
      showView();
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
        const to = indexOfKey(visible, key);
        const found = anchor === undefined ? -1 : indexOfKey(visible, anchor);
        // An anchor the filter hides is no anchor: the range starts at the row clicked.
        const from = found >= 0 ? found : to;
        const [start, end] = from <= to ? [from, to] : [to, from];
        const range = new Set<string>();
        for (let i = start; i <= end && i >= 0; i++) range.add(keyAt(visible, i)!);
        set({ selection: range });
      }
    },

    selectAll(visible) {
      const all = new Set<string>();
      for (let i = 0; i < visible.length; i++) all.add(keyAt(visible, i)!);
      set({ selection: all });
    },

    clearSelection() {
      set({ selection: new Set(), anchor: undefined });
    },

    async upload(dropped) {
      const { connectionId, bucket, prefix } = get();
      if (!connectionId || !bucket || dropped.count === 0) return;
      const here = place();
      set({ notice: `Uploading ${plural(dropped.count, 'item')}…` });
      const result = await api().uploadFiles({
        connectionId,
        bucket,
        prefix,
        dropped,
        ifExists: useUploadChoice.getState().ifExists,
        uploadOptions: useUploadOptions.getState().optionsFor(connectionId, bucket),
      });
      if (result.ok) sayAt(here, `Upload started: ${result.value.name}`);
      else sayAt(here, result.error.message, `The upload to ${formatS3Url({ bucket, key: prefix })} failed`);
    },

    async copyLink(key) {
      const { connectionId, bucket } = get();
      if (!connectionId || !bucket) return;
      const here = place();
      const failedWhat = `Copying the link of ${formatS3Url({ bucket, key })} failed`;
      try {
        const url = await presign(connectionId, bucket, key);
        await copyText(url);
        sayAt(here, `Link copied (valid one hour): ${url}`);
      } catch (error) {
        sayAt(here, (error as Error).message, failedWhat);
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

    async emptyAndDeleteBucket(connectionId, name) {
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

    async region(connectionId, bucket) {
      return request('buckets.region', { connectionId, name: bucket });
    },
  };
});
