// Ceph's gateway (RGW 16.2) sends a versions page's NextKeyMarker as the key itself, though it sends
// the keys URL-encoded. A fault proxy rewrites the test store's pages so: each listing of versions
// must go on from such a marker, through keys holding "%", and list every version once.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { PutBucketVersioningCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { listKeyHistories } from '../../main/engine/s3/key-versions.ts';
import { listVersionsPage } from '../../main/engine/s3/object-versions.ts';
import { decodeListingKey, listAllVersions } from '../../main/engine/s3/s3-listing.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

/** A store's default page of versions: the keys before these fill the first page. */
const STORE_PAGE = 1000;
/**
 * Decoded, "x/100%" is no key at all, and "x/a%41" reads "x/aA" (which a store may take as a marker
 * past the keys between). Byte order: "x/100%" < "x/a b" < "x/a%41" < "x/aA".
 */
const MARKED = ['x/100%', 'x/a b', 'x/a%41', 'x/aA', 'x/z'];
const FILLERS = Array.from({ length: STORE_PAGE - 1 }, (_, i) => `f/${String(i).padStart(4, '0')}`);

let t: TestContext;
let proxy: FaultProxy;
let throughProxy: S3Connection;
/** How many pages came with a marker rewritten. */
let rewritten = 0;

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page as Ceph words it: its NextKeyMarker is its last key, not URL-encoded. */
function cephMarker(body: string): string {
  const keys = [...body.matchAll(/<Key>([^<]*)<\/Key>|<Prefix>([^<]+)<\/Prefix>/g)].map((match) =>
    decodeListingKey(unescapeXml(match[1] ?? match[2]!))!,
  );
  return body.replace(/<NextKeyMarker>[^<]*<\/NextKeyMarker>/, () => {
    rewritten += 1;
    return `<NextKeyMarker>${escapeXml(keys.sort().at(-1)!)}</NextKeyMarker>`;
  });
}

/** A proxy rule: every answer to a listing of versions, rewritten. */
function rewritingVersions(rewrite: (body: string) => string): Parameters<FaultProxy['setRule']>[0] {
  return (request) => (request.url?.includes('versions') ? { kind: 'rewrite-body', rewrite } : undefined);
}

beforeAll(async () => {
  t = await setUpEngine();
  await t.connection.client.send(
    new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  const keys = [...FILLERS, ...MARKED];
  for (let i = 0; i < keys.length; i += 64)
    await Promise.all(
      keys
        .slice(i, i + 64)
        .map((Key) => t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key, Body: Key }))),
    );
  proxy = await startFaultProxy(serverConfig().endpoint!);
  proxy.setRule(rewritingVersions(cephMarker));
  throughProxy = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
});
afterAll(async () => {
  await proxy.close();
  await t.close();
});

it('every version, past a page that ends at "x/100%": a listing of all versions (for a delete)', async () => {
  rewritten = 0;
  const keys: string[] = [];
  for await (const version of listAllVersions(throughProxy, { bucket: t.bucket })) keys.push(version.key);
  expect(rewritten).toBeGreaterThan(0);
  expect(keys.toSorted()).toEqual([...FILLERS, ...MARKED].toSorted());
});

it('every key with its versions, past a page that ends at "x/100%": the histories undo reads', async () => {
  rewritten = 0;
  const keys: string[] = [];
  for await (const history of listKeyHistories(throughProxy, { bucket: t.bucket, prefix: '' })) keys.push(history.key);
  expect(rewritten).toBeGreaterThan(0);
  expect(keys.toSorted()).toEqual([...FILLERS, ...MARKED].toSorted());
});

it('page by page, one version a page: the window\'s versions table goes through "x/100%" and "x/a%41"', async () => {
  rewritten = 0;
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await listVersionsPage(throughProxy, { bucket: t.bucket, prefix: 'x/', pageSize: 1 }, token);
    keys.push(...page.versions.map((version) => version.key));
    token = page.nextToken;
  } while (token !== undefined);
  expect(rewritten).toBeGreaterThanOrEqual(MARKED.length - 1);
  expect(keys).toEqual(MARKED);
});

it('a store that answers every later page as the first one ended: refused, not listed forever', async () => {
  let firstMarkers: string | undefined;
  // Every page ends where the first did, with more to come.
  const samePageAgain = (body: string) => {
    firstMarkers ??= /<NextKeyMarker>[^<]*<\/NextKeyMarker>\s*<NextVersionIdMarker>[^<]*<\/NextVersionIdMarker>/.exec(
      body,
    )?.[0];
    return body
      .replace(/<NextKeyMarker>[^<]*<\/NextKeyMarker>|<NextVersionIdMarker>[^<]*<\/NextVersionIdMarker>/g, '')
      .replace(/<IsTruncated>\w+<\/IsTruncated>/, `<IsTruncated>true</IsTruncated>${firstMarkers}`);
  };
  proxy.setRule(rewritingVersions(samePageAgain));
  try {
    const listings = [
      async () => {
        for await (const _ of listAllVersions(throughProxy, { bucket: t.bucket })) void _;
      },
      async () => {
        for await (const _ of listKeyHistories(throughProxy, { bucket: t.bucket, prefix: '' })) void _;
      },
    ];
    for (const listing of listings) {
      firstMarkers = undefined;
      await expect(listing()).rejects.toMatchObject({ code: 'ListingRepeats' });
      expect(firstMarkers).toBeDefined();
    }
  } finally {
    proxy.setRule(rewritingVersions(cephMarker));
  }
});
