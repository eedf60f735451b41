// A listing's keys come URL-encoded: decoded as S3 encodes them, and one a store sent broken is no
// key at all (undefined), never an exception that ends the whole listing.

import { expect, it } from 'vitest';
import { decodeListingKey, repeatsItsPage, versionsKeyMarker } from '../../../../../main/engine/s3/s3-listing.ts';

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

it('refuses a next page that is the one just asked for, and only that', () => {
  const asked = { key: 'k', versionId: 'v1' };
  expect(repeatsItsPage('b', asked, { key: 'k', versionId: 'v1' })?.code).toBe('ListingRepeats');
  // The same key goes on with its older versions; a later key; the end.
  expect(repeatsItsPage('b', asked, { key: 'k', versionId: 'v2' })).toBeUndefined();
  expect(repeatsItsPage('b', asked, { key: 'l', versionId: 'v1' })).toBeUndefined();
  expect(repeatsItsPage('b', { key: undefined, versionId: undefined }, { key: undefined, versionId: undefined })).toBe(
    undefined,
  );
});
