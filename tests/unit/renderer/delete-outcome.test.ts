// What the delete dialog says a delete does: hidden behind a marker where the bucket keeps
// versions, gone for good elsewhere, and all versions gone when asked.

import { expect, it } from 'vitest';
import { deleteOutcome } from '../../../renderer/components/DeleteDialog.tsx';

it('says what happens, in a bucket with versions and without', () => {
  expect(deleteOutcome(1, '5 B', false, 'enabled')).toBe(
    'This hides 1 object (5 B): each gets a delete marker, and its versions are kept (Show versions lists the ' +
      'markers; Undelete on one brings its object back).',
  );
  expect(deleteOutcome(2_000, '1.0 MiB', false, 'off')).toBe(
    'This permanently deletes 2,000 objects (1.0 MiB): the bucket keeps no versions. It cannot be undone.',
  );
  expect(deleteOutcome(3, '3 B', true, 'enabled')).toBe(
    'This permanently deletes 3 versions (3 B). It cannot be undone.',
  );
  expect(deleteOutcome(1, '1 B', true, 'off')).toBe('This permanently deletes 1 version (1 B). It cannot be undone.');
  expect(deleteOutcome(2, '2 B', false, 'suspended')).toMatch(
    /^This hides 2 objects \(2 B\): versions kept before versioning was suspended stay/,
  );
  // The store would not say: nothing is claimed either way.
  expect(deleteOutcome(2, '2 B', false, undefined)).toBe('This deletes 2 objects (2 B).');
});
