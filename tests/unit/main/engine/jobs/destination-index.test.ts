import { describe, expect, it } from 'vitest';
import {
  compareUtf8,
  covers,
  DestinationIndex,
  listingPlan,
  PREFIX_PER_SOURCE_MAX,
} from '../../../../../main/engine/jobs/destination-index.ts';
import type { S3Connection } from '../../../../../main/engine/s3/s3-connection.ts';

describe('what an upload lists to know what is there', () => {
  it("few sources: each one's own prefix, up to its extension (numbered copies are covered), in listing order, nested ones once", () => {
    const plan = listingPlan(['backup/report.pdf', 'backup/photos', 'backup/photos.old', 'backup/.env']);
    expect(plan).toEqual({ kind: 'prefixes', prefixes: ['backup/.env', 'backup/photos', 'backup/report'] });
    expect(covers(plan, 'backup/report.pdf')).toBe(true);
    expect(covers(plan, 'backup/report (1).pdf')).toBe(true);
    expect(covers(plan, 'backup/photos/2024/a.jpg')).toBe(true);
    expect(covers(plan, 'backup/other.txt')).toBe(false);
  });

  it("one file to a key of its own: that key's prefix", () => {
    expect(listingPlan(['notes/today.md'])).toEqual({ kind: 'prefixes', prefixes: ['notes/today'] });
  });

  it("many sources into one folder: that folder's level, and only the sources' folders below it", () => {
    const keys = Array.from({ length: PREFIX_PER_SOURCE_MAX + 1 }, (_, i) => `in/f${i}.txt`);
    const plan = listingPlan([...keys, 'in/photos']);
    expect(plan.kind).toBe('level');
    expect(covers(plan, 'in/f3.txt')).toBe(true);
    expect(covers(plan, 'in/f3 (1).txt')).toBe(true);
    expect(covers(plan, 'in/photos/a.jpg')).toBe(true);
    // A folder no source goes into is not listed, so the listing cannot say.
    expect(covers(plan, 'in/elsewhere/a.jpg')).toBe(false);
    expect(covers(plan, 'out/f3.txt')).toBe(false);
  });

  it('keys compare as S3 lists them: by UTF-8 bytes, a character above U+FFFF after U+E000-U+FFFF', () => {
    const keys = ['a', 'ab', 'b', 'é', '\uffef', '😀', 'z', '\u{10FFFF}', 'a/b', 'a.b', ''];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...keys].sort(compareUtf8)).toEqual(byBytes);
    expect(compareUtf8('\uffef', '😀')).toBeLessThan(0);
    // JavaScript's own order puts them the other way round.
    expect('\uffef' < '😀').toBe(false);
  });
});

describe('answers from the listing as it goes', () => {
  /** A store's listing, one page per call, each page released by the test: keys in listing order. */
  function pagedStore(pages: readonly (readonly string[])[]) {
    const asked: string[] = [];
    const gates = pages.map(() => {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      return { promise, resolve };
    });
    let failAt: number | undefined;
    const wire = {
      async listObjectsV2(_bucket: string, params: { prefix?: string; continuationToken?: string }) {
        const index = params.continuationToken === undefined ? 0 : Number(params.continuationToken);
        asked.push(`${params.prefix ?? ''}#${index}`);
        await gates[index]!.promise;
        if (index === failAt)
          throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
        const last = index === pages.length - 1;
        return {
          contents: pages[index]!.map((key) => ({
            key,
            size: key.length,
            lastModified: '2025-03-01T12:00:00.000Z',
            etag: '"e"',
            storageClass: undefined,
          })),
          commonPrefixes: [],
          isTruncated: !last,
          nextContinuationToken: last ? undefined : String(index + 1),
          urlEncoded: false,
        };
      },
    };
    const connection = { wire } as unknown as S3Connection;
    return {
      connection,
      asked,
      release: (page: number) => gates[page]!.resolve(),
      failAt: (page: number) => {
        failAt = page;
      },
    };
  }
  const direct = <T>(send: (signal: AbortSignal) => Promise<T>) => send(new AbortController().signal);
  const settled = async <T>(promise: Promise<T>): Promise<T | 'waiting'> =>
    Promise.race([promise, new Promise<'waiting'>((resolve) => setImmediate(() => resolve('waiting')))]);

  it('a key is answered once the listing has passed it: found, or free; until then it waits', async () => {
    const store = pagedStore([['d/a.txt', 'd/c.txt'], ['d/e.txt']]);
    const index = new DestinationIndex(store.connection, 'b', listingPlan(['d']), direct);
    const a = index.lookup('d/a.txt');
    const b = index.lookup('d/b.txt');
    const f = index.lookup('d/f.txt');
    expect(await settled(a)).toBe('waiting');
    store.release(0);
    expect(await a).toMatchObject({ size: 7, etag: '"e"', lastModified: Date.parse('2025-03-01T12:00:00.000Z') });
    expect(await b).toBe('free');
    expect(await settled(f)).toBe('waiting');
    store.release(1);
    expect(await f).toBe('free');
    expect(await index.lookup('x/outside.txt')).toBe('unknown');
    index.close();
  });

  it("a key found free is the first asker's: a second file looking for it finds it taken", async () => {
    const store = pagedStore([['d/a.txt']]);
    const index = new DestinationIndex(store.connection, 'b', listingPlan(['d']), direct);
    const first = index.lookup('d/a (1).txt', { size: 1 });
    const second = index.lookup('d/a (1).txt', { size: 2 });
    store.release(0);
    expect(await first).toBe('free');
    expect(await second).toEqual({ size: 1, ours: true });
    expect(index.claim('d/a (1).txt', { size: 3 })).toBe(false);
    expect(index.claim('x/elsewhere.txt', { size: 3 })).toBe(true);
    expect(await index.lookup('x/elsewhere.txt')).toEqual({ size: 3, ours: true });
    index.close();
  });

  it('a listing refused part way: what it said stands, the rest is unknown (asked by HEAD)', async () => {
    const store = pagedStore([['d/a.txt'], ['d/z.txt']]);
    store.failAt(1);
    const index = new DestinationIndex(store.connection, 'b', listingPlan(['d']), direct);
    store.release(0);
    store.release(1);
    await index.listed;
    expect(await index.lookup('d/a.txt')).toMatchObject({ size: 7 });
    expect(await index.lookup('d/b.txt')).toBe('unknown');
    index.close();
  });
});
