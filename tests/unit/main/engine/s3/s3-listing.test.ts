// A listing's keys come URL-encoded: decoded as S3 encodes them, and one a store sent broken is no
// key at all (undefined), never an exception that ends the whole listing.

import { expect, it } from 'vitest';
import { decodeListingKey } from '../../../../../main/engine/s3/s3-listing.ts';

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
