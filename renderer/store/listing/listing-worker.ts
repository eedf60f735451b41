// The listing worker: each listing's index (listing-index.ts), asked through index-client.ts.

import { handleIndexRequest } from './index-client.ts';
import type { IndexAnswer, IndexRequest } from './index-client.ts';
import type { ListingIndex } from './listing-index.ts';

// A dedicated worker's global scope (the window's DOM types do not describe it).
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<IndexRequest>) => void) | null;
  postMessage(message: IndexAnswer, transfer: Transferable[]): void;
};

const listings = new Map<number, ListingIndex>();

/** Quiet this long (no rows, no question), the worker prepares the orders a click would ask for. */
const PREPARE_AFTER_MS = 300;
let preparing: ReturnType<typeof setTimeout> | undefined;

/** One step of preparation at a time, so a question that comes meanwhile waits for one step at most. */
function prepare(): void {
  for (const index of listings.values()) {
    if (index.prepare()) {
      preparing = setTimeout(prepare, 0);
      return;
    }
  }
  preparing = undefined;
}

scope.onmessage = (event) => {
  clearTimeout(preparing);
  const answer = handleIndexRequest(listings, event.data);
  // The order is the window's from now on: moved, not copied.
  if (answer) scope.postMessage(answer, 'order' in answer ? [answer.order.buffer] : []);
  preparing = setTimeout(prepare, PREPARE_AFTER_MS);
};
