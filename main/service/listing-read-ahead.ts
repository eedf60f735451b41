// Listing pages read one ahead: while a caller takes in a page, the store's next one is on its way.
//
// A listing is a chain: the next page's token comes with the last page, so the window (or `barge ls`)
// asks for page n+1 only once page n has crossed the socket and been taken in. Each page then costs
// the store's time plus the trip and the caller's work, one after the other; the window listed a
// million keys at about 40,000 a second where the command line lists 110,000. Fetched here as soon
// as its token is known, the next page waits for its caller instead.
//
// What must stay true: a page comes from the listing that asked for it. A first page (no token)
// starts a new listing of its place and drops what was read ahead for an earlier one there, so a
// listing taken again after a job never gets a page read before the job. Entries are taken once,
// at most MAX_ENTRIES are kept, and none for longer than ENTRY_TTL_MS.

export interface ListedPage {
  readonly nextToken?: string | undefined;
}

const MAX_ENTRIES = 16;
const ENTRY_TTL_MS = 30_000;

export class ListingReadAhead<P extends ListedPage> {
  /** By place, then by token: the page read ahead, and when. */
  private readonly ahead = new Map<string, Map<string, { page: Promise<P>; at: number }>>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /**
   * The page of `place` (connection, bucket, prefix and listing options, as one string) at `token`:
   * read ahead if it was, else fetched; the page after it is fetched at once.
   */
  async page(place: string, token: string | undefined, fetch: (token: string | undefined) => Promise<P>): Promise<P> {
    if (token === undefined) this.ahead.delete(place);
    const entry = token === undefined ? undefined : this.take(place, token);
    // A page whose read ahead failed is asked again: its error belongs to that try, not this call.
    const page = entry ? await entry.page.catch(() => fetch(token)) : await fetch(token);
    const next = page.nextToken;
    if (next !== undefined) {
      const read = fetch(next);
      // Nobody may ever take it: its failure must not go unhandled.
      read.catch(() => undefined);
      this.put(place, next, read);
    }
    return page;
  }

  private take(place: string, token: string): { page: Promise<P> } | undefined {
    const pages = this.ahead.get(place);
    const entry = pages?.get(token);
    if (!pages || !entry) return undefined;
    pages.delete(token);
    if (pages.size === 0) this.ahead.delete(place);
    return this.now() - entry.at <= ENTRY_TTL_MS ? entry : undefined;
  }

  private put(place: string, token: string, page: Promise<P>): void {
    let pages = this.ahead.get(place);
    if (!pages) {
      pages = new Map();
      this.ahead.set(place, pages);
    }
    pages.set(token, { page, at: this.now() });
    // The oldest go first: a Map keeps the order places and tokens were put in.
    let count = 0;
    for (const entries of this.ahead.values()) count += entries.size;
    for (const [oldest, entries] of this.ahead) {
      if (count <= MAX_ENTRIES) break;
      count -= entries.size;
      this.ahead.delete(oldest);
    }
  }

  /** How many pages are held (for tests). */
  get size(): number {
    let count = 0;
    for (const entries of this.ahead.values()) count += entries.size;
    return count;
  }
}
