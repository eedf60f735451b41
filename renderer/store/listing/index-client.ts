// The window's side of the listing worker: rows go to it as they arrive, orders come back.
//
// Sorting and filtering a million rows is work that scales with the prefix: in a worker it never
// holds up a frame, and an order comes back as an Int32Array moved, not copied. One order is asked
// at a time per listing (the store asks again, with the newest rows and sort, when it comes back),
// so requests never queue behind each other. Where no worker can start (the unit tests run in
// Node), the same index runs here, answering on the next microtask.

import { ListingIndex } from './listing-index.ts';
import type { RowBatch, Sort } from './listing-index.ts';

export type IndexRequest =
  | { readonly type: 'open'; readonly listing: number }
  | { readonly type: 'append'; readonly listing: number; readonly batch: RowBatch }
  | {
      readonly type: 'order';
      readonly listing: number;
      readonly id: number;
      readonly sort: Sort;
      readonly filter: string;
    }
  | { readonly type: 'close'; readonly listing: number };

export type IndexAnswer =
  { readonly id: number; readonly order: Int32Array } | { readonly id: number; readonly error: string };

/** Carry out one request on the listings held (in the worker, or here). */
export function handleIndexRequest(
  listings: Map<number, ListingIndex>,
  request: IndexRequest,
): IndexAnswer | undefined {
  switch (request.type) {
    case 'open':
      listings.set(request.listing, new ListingIndex());
      return undefined;
    case 'append':
      listings.get(request.listing)?.append(request.batch);
      return undefined;
    case 'close':
      listings.delete(request.listing);
      return undefined;
    case 'order': {
      const index = listings.get(request.listing);
      if (!index) return { id: request.id, error: 'That listing is closed.' };
      try {
        return { id: request.id, order: index.order(request.sort, request.filter) };
      } catch (error) {
        return { id: request.id, error: (error as Error).message };
      }
    }
  }
}

export interface IndexClient {
  /** A new, empty listing. */
  open(): number;
  append(listing: number, batch: RowBatch): void;
  /** Row numbers in display order over every row appended so far. */
  order(listing: number, sort: Sort, filter: string): Promise<Int32Array>;
  close(listing: number): void;
}

function startWorker(): Worker | undefined {
  if (typeof Worker === 'undefined') return undefined;
  try {
    // Bundled by Vite as a script of the app's own origin: the CSP's script-src 'self' allows it.
    return new Worker(new URL('./listing-worker.ts', import.meta.url), { type: 'module', name: 'listing' });
  } catch {
    return undefined;
  }
}

export function createIndexClient(): IndexClient {
  const worker = startWorker();
  const here = new Map<number, ListingIndex>();
  const pending = new Map<number, { resolve(order: Int32Array): void; reject(error: Error): void }>();
  let nextListing = 1;
  let nextId = 1;
  const settle = (answer: IndexAnswer) => {
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if ('order' in answer) waiting?.resolve(answer.order);
    else waiting?.reject(new Error(answer.error));
  };
  const send = (request: IndexRequest, transfer: Transferable[] = []) => {
    if (worker) worker.postMessage(request, transfer);
    else {
      const answer = handleIndexRequest(here, request);
      if (answer) queueMicrotask(() => settle(answer));
    }
  };
  if (worker) {
    worker.onmessage = (event: MessageEvent<IndexAnswer>) => settle(event.data);
    worker.onerror = (event) => {
      for (const waiting of pending.values()) waiting.reject(new Error(`The listing worker failed: ${event.message}`));
      pending.clear();
    };
  }
  return {
    open() {
      const listing = nextListing++;
      send({ type: 'open', listing });
      return listing;
    },
    append(listing, batch) {
      // The batch's columns are the worker's from now on: moved, not copied.
      send({ type: 'append', listing, batch }, [
        batch.folder.buffer,
        batch.sizes.buffer,
        batch.modified.buffer,
        batch.classes.buffer,
      ]);
    },
    order(listing, sort, filter) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ type: 'order', listing, id, sort, filter });
      });
    },
    close(listing) {
      send({ type: 'close', listing });
    },
  };
}
