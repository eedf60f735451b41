// A synthetic S3 store that only lists: folders of many keys, as ListObjectsV2 pages of 1,000.
//
// Writing a million objects into MinIO takes far longer than listing them (each is a folder and a
// file on disk), so the window's listing figures come from this server instead: the same wire, the
// same XML, no disk. Its names are not zero-padded ("IMG_9.jpg" before "IMG_10.jpg" for a person,
// after it for S3), sizes, dates and storage classes vary, and a few folders sit among the keys, so
// sorting and "folders first" do real work. Not a store to trust with anything: there is no PUT.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const LISTING_BUCKET = 'bench';
const PAGE_KEYS = 1000;
const ETAG = '"9dd4e461268c8034f5c8564e155c67a6"';
const STORAGE_CLASSES = ['STANDARD', 'STANDARD_IA', 'GLACIER_IR'];

export interface ListingStore {
  readonly endpoint: string;
  close(): Promise<void>;
}

export interface ListedEntry {
  readonly key: string;
  /** The entry's number, for its made-up size, date and class; -1 for a folder. */
  readonly n: number;
}

/** The entries of one folder in S3's order (by key, as bytes): `count` objects, and ten folders. */
export function folderEntries(prefix: string, count: number): ListedEntry[] {
  const entries: ListedEntry[] = [];
  for (let n = 0; n < count; n++) entries.push({ key: `${prefix}IMG_${n}.jpg`, n });
  for (let f = 0; f < 10; f++) entries.push({ key: `${prefix}album-${f}/`, n: -1 });
  // Every name here is ASCII: UTF-16 order is byte order.
  return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const escapeXml = (text: string) => text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

function contents(entry: ListedEntry): string {
  // Deterministic variety: sizes up to 64 MiB, dates over about three years.
  const hash = Math.imul(entry.n + 1, 2654435761) >>> 0;
  const size = hash % (64 * 1024 * 1024);
  const modified = new Date(Date.UTC(2023, 0, 1) + (hash % 100_000_000) * 1000).toISOString();
  const storageClass = STORAGE_CLASSES[entry.n % 7 === 0 ? 1 : entry.n % 13 === 0 ? 2 : 0];
  return `<Contents><Key>${escapeXml(entry.key)}</Key><LastModified>${modified}</LastModified><ETag>${ETAG}</ETag><Size>${size}</Size><StorageClass>${storageClass}</StorageClass></Contents>`;
}

/**
 * Serve `folders` (prefix → its entries, from folderEntries) in bucket LISTING_BUCKET; the bucket's
 * top lists the folders themselves.
 */
export function startListingStore(folders: ReadonlyMap<string, readonly ListedEntry[]>): Promise<ListingStore> {
  const top: ListedEntry[] = [...folders.keys()].sort().map((key) => ({ key, n: -1 }));
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://store');
    const xml = (body: string) => {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
    };
    if (request.method === 'GET' && url.pathname === '/') {
      xml(
        `<ListAllMyBucketsResult><Owner><ID>bench</ID></Owner><Buckets><Bucket><Name>${LISTING_BUCKET}</Name><CreationDate>2026-01-01T00:00:00.000Z</CreationDate></Bucket></Buckets></ListAllMyBucketsResult>`,
      );
      return;
    }
    if (
      request.method === 'GET' &&
      url.pathname === `/${LISTING_BUCKET}` &&
      url.searchParams.get('list-type') === '2'
    ) {
      const prefix = url.searchParams.get('prefix') ?? '';
      const entries = prefix === '' ? top : (folders.get(prefix) ?? []);
      const start = Number(url.searchParams.get('continuation-token') ?? 0);
      const end = Math.min(entries.length, start + PAGE_KEYS);
      const parts: string[] = [];
      for (let i = start; i < end; i++) {
        const entry = entries[i]!;
        parts.push(
          entry.n < 0 ? `<CommonPrefixes><Prefix>${escapeXml(entry.key)}</Prefix></CommonPrefixes>` : contents(entry),
        );
      }
      const truncated = end < entries.length;
      xml(
        `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${LISTING_BUCKET}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${end - start}</KeyCount><MaxKeys>${PAGE_KEYS}</MaxKeys><Delimiter>/</Delimiter><IsTruncated>${truncated}</IsTruncated>${truncated ? `<NextContinuationToken>${end}</NextContinuationToken>` : ''}${parts.join('')}</ListBucketResult>`,
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'application/xml' });
    response.end(
      '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>This store only lists.</Message></Error>',
    );
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}
