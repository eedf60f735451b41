import { describe, expect, it } from 'vitest';
import { ListingReadAhead } from '../../../../main/service/listing-read-ahead.ts';

interface Page {
  readonly at: string;
  readonly fetched: number;
  readonly nextToken?: string;
}

/** A listing of `pages` pages whose tokens are "1", "2"…; every fetch counted and numbered. */
function store(pages: number) {
  const fetches: (string | undefined)[] = [];
  let failing: string | undefined;
  return {
    fetches,
    /** The next fetch of this token fails. */
    failOnce(token: string) {
      failing = token;
    },
    fetch: async (token: string | undefined): Promise<Page> => {
      fetches.push(token);
      if (token !== undefined && token === failing) {
        failing = undefined;
        throw new Error('SlowDown');
      }
      const at = Number(token ?? 0);
      return { at: String(at), fetched: fetches.length, ...(at + 1 < pages ? { nextToken: String(at + 1) } : {}) };
    },
  };
}

describe('listing pages read ahead', () => {
  it('fetches each page once, the next as soon as its token is known', async () => {
    const s3 = store(3);
    const ahead = new ListingReadAhead<Page>();
    expect((await ahead.page('b/p', undefined, s3.fetch)).at).toBe('0');
    expect(s3.fetches).toEqual([undefined, '1']);
    expect((await ahead.page('b/p', '1', s3.fetch)).fetched).toBe(2);
    expect((await ahead.page('b/p', '2', s3.fetch)).at).toBe('2');
    // The last page has no next: nothing more is read, nothing is held.
    expect(s3.fetches).toEqual([undefined, '1', '2']);
    expect(ahead.size).toBe(0);
  });

  it('gives a new listing of the same place nothing read for an earlier one', async () => {
    const s3 = store(3);
    const ahead = new ListingReadAhead<Page>();
    await ahead.page('b/p', undefined, s3.fetch);
    await ahead.page('b/p', undefined, s3.fetch);
    const second = await ahead.page('b/p', '1', s3.fetch);
    // Page 1 as read after the second start (fetch 4), not the one read after the first (fetch 2).
    expect(second.fetched).toBe(4);
  });

  it('asks again for a page whose read ahead failed', async () => {
    const s3 = store(3);
    const ahead = new ListingReadAhead<Page>();
    s3.failOnce('1');
    await ahead.page('b/p', undefined, s3.fetch);
    expect((await ahead.page('b/p', '1', s3.fetch)).at).toBe('1');
    expect(s3.fetches).toEqual([undefined, '1', '1', '2']);
  });

  it('keeps no page past its time', async () => {
    const s3 = store(3);
    let now = 0;
    const ahead = new ListingReadAhead<Page>(() => now);
    await ahead.page('b/p', undefined, s3.fetch);
    now += 31_000;
    expect((await ahead.page('b/p', '1', s3.fetch)).fetched).toBe(3);
  });

  it('holds a bounded number of pages however many listings are left unfinished', async () => {
    const s3 = store(5);
    const ahead = new ListingReadAhead<Page>();
    for (let i = 0; i < 40; i++) await ahead.page(`b/p${i}`, undefined, s3.fetch);
    expect(ahead.size).toBe(16);
  });
});
