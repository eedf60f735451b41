// A listing's keys come URL-encoded: decoded as S3 encodes them, and one a store sent broken is no
// key at all (undefined), never an exception that ends the whole listing.

import { expect, it } from 'vitest';
import { decodeListingKey, namesAPageAgain, versionsKeyMarker } from '../../../../../main/engine/s3/s3-listing.ts';

it('decodes "+" as a space and "%2B" as a plus; a broken escape or bytes that are not UTF-8 give no key', () => {
  expect(['a+b.txt', 'a%2Bb.txt', 'caf%C3%A9', 'plain'].map(decodeListingKey)).toEqual([
    'a b.txt',
    'a+b.txt',
    'café',
    'plain',
  ]);
  expect(['bad%zz.txt', 'cut%4', '%', 'latin1%E9'].map(decodeListingKey)).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

it("a versions page's marker: decoded, unless it is the page's last key as it is (Ceph sends it so)", () => {
  const page = ['x/100%', 'x/a%41', 'x/a b'];
  // Ceph: the last key (in byte order) sent as the key itself, which decoding would break or change.
  expect(versionsKeyMarker('x/a%41', true, page)).toBe('x/a%41');
  expect(versionsKeyMarker('x/100%', true, ['x/100%'])).toBe('x/100%');
  // S3 and MinIO: the last key encoded.
  expect(versionsKeyMarker('x/a%2541', true, page)).toBe('x/a%41');
  expect(versionsKeyMarker('x/a+b', true, ['x/a b'])).toBe('x/a b');
  // Not the last key: decoded, as before; "x/100%" then has a broken encoding, and no marker can be read.
  expect(versionsKeyMarker('x/100%', true, page)).toBeUndefined();
  // Keys not encoded: the marker is as sent.
  expect(versionsKeyMarker('x/a%41', false, [])).toBe('x/a%41');
});

it('refuses markers asked with before, however far back, and only those', () => {
  const asked = new Set<string>();
  const next = (key: string | undefined, versionId?: string) => namesAPageAgain('b', asked, { key, versionId });
  // A key going on with its older versions, a later key, the end: all new.
  expect([next('k', 'v1'), next('k', 'v2'), next('l', 'v1'), next(undefined)]).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
  // Back to the page of two pages ago, then the one just given.
  expect(next('k', 'v2')?.code).toBe('ListingRepeats');
  expect(next('l', 'v1')?.code).toBe('ListingRepeats');
});
