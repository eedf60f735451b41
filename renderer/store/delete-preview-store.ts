// The delete dialog's list of exactly what will go: the folders listed page by page with the filter
// the delete will use, the objects named first, with the running count and bytes.
//
// The rows grow in place (one array, `listed` of them filled): copying a growing array on every page
// would cost a copy of every row per page. Only the first PREVIEW_ROWS_KEPT are kept: past them the
// scan goes on counting objects and bytes to the end (the typed-name confirmation needs the whole
// count) but holds no key, so a folder of ten million keys costs the tab ten thousand rows, and the
// list ends "and N more not listed here". A new scan, Cancel or closing the dialog ends the scan
// before its next page; the delete itself never sends these rows, it sends the folders and the filter
// (jobs.delete lists them again in the engine).

import { create } from 'zustand';
import type { ObjectFilter } from '../../src/object-filter.ts';
import { request } from './api.ts';

/** What one scan lists: the delete's own target and filter. */
export interface PreviewScan {
  readonly connectionId: string;
  readonly bucket: string;
  /** Objects named one by one: they go as named, so they are listed as they are. */
  readonly keys: readonly string[];
  readonly keySizes?: readonly number[];
  /** Folders ("logs/", "" for the whole bucket), listed whole with the filter. */
  readonly prefixes: readonly string[];
  readonly filter?: ObjectFilter;
}

export interface PreviewRow {
  readonly key: string;
  /** Undefined for an object named without its size. */
  readonly size: number | undefined;
}

/** Rows the list keeps; past them only the count and bytes grow. */
export const PREVIEW_ROWS_KEPT = 10_000;

/** One listing request's page: the most S3 gives. */
const PAGE_SIZE = 1000;

interface DeletePreviewState {
  /** The scan the rows are of (undefined: none). */
  readonly scan: PreviewScan | undefined;
  /** Grown in place as pages arrive, up to PREVIEW_ROWS_KEPT: read the first `listed`. */
  readonly rows: PreviewRow[];
  /** Rows kept for the list (`count - listed` more were counted, not kept). */
  readonly listed: number;
  /** Objects that will go, counted to the end of the listing. */
  readonly count: number;
  readonly bytes: number;
  /** Keys listed with a broken URL encoding: the delete fails on each by name. */
  readonly unreadable: number;
  readonly scanning: boolean;
  /** Listed to the end: only then are the rows all that will go (a cancelled or failed scan undercounts). */
  readonly finished: boolean;
  readonly error: string | undefined;
  /** List what `scan` would delete, ending any scan before it. */
  preview(scan: PreviewScan): Promise<void>;
  /** Stop listing and forget the rows (filters changed, the dialog closed). */
  cancel(): void;
}

const folder = (prefix: string) => (prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`);

/** No scan and nothing listed: the store as it starts, and as a cancel leaves it (its error kept). */
const NO_PREVIEW = {
  scan: undefined,
  rows: [],
  listed: 0,
  count: 0,
  bytes: 0,
  unreadable: 0,
  scanning: false,
  finished: false,
} satisfies Partial<DeletePreviewState>;

export const useDeletePreview = create<DeletePreviewState>((set, get) => {
  // Which scan may still add rows: each new one, and each cancel, moves it on.
  let generation = 0;

  return {
    ...NO_PREVIEW,
    error: undefined,

    async preview(scan) {
      const mine = ++generation;
      const rows: PreviewRow[] = scan.keys
        .slice(0, PREVIEW_ROWS_KEPT)
        .map((key, index) => ({ key, size: scan.keySizes?.[index] }));
      const namedBytes = (scan.keySizes ?? []).reduce((sum, size) => sum + size, 0);
      let count = scan.keys.length;
      set({
        scan,
        rows,
        listed: rows.length,
        count,
        bytes: namedBytes,
        unreadable: 0,
        scanning: true,
        finished: false,
        error: undefined,
      });
      try {
        for (const prefix of scan.prefixes) {
          let token: string | undefined;
          do {
            const page = await request('objects.list', {
              connectionId: scan.connectionId,
              bucket: scan.bucket,
              prefix: folder(prefix),
              recursive: true,
              pageSize: PAGE_SIZE,
              ...(token === undefined ? {} : { token }),
              ...(scan.filter === undefined ? {} : { filter: scan.filter }),
            });
            if (mine !== generation) return;
            let bytes = 0;
            for (const object of page.objects) {
              if (rows.length < PREVIEW_ROWS_KEPT) rows.push({ key: object.key, size: object.size });
              bytes += object.size;
            }
            count += page.objects.length;
            set({
              listed: rows.length,
              count,
              bytes: get().bytes + bytes,
              unreadable: get().unreadable + (page.unreadable?.length ?? 0),
            });
            token = page.nextToken;
          } while (token !== undefined);
        }
        if (mine === generation) set({ scanning: false, finished: true });
      } catch (error) {
        if (mine === generation) set({ scanning: false, error: (error as Error).message });
      }
    },

    cancel() {
      generation++;
      // The rows go too: a closed dialog holds no million keys, and a list of other filters is no preview.
      set(NO_PREVIEW);
    },
  };
});
