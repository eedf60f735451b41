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

scope.onmessage = (event) => {
  const answer = handleIndexRequest(listings, event.data);
  // The order is the window's from now on: moved, not copied.
  if (answer) scope.postMessage(answer, 'order' in answer ? [answer.order.buffer] : []);
};
