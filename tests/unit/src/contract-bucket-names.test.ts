// Every method that names a bucket takes a bucket's name, never a path or a query: "..", "a/../b" or
// "b?versions" would address something else than the bucket the user confirmed (Empty and delete).

import { expect, it } from 'vitest';
import { methodSchemas } from '../../../src/contract/api.ts';

it('takes bucket names as stores have them, and refuses paths, queries and control characters', () => {
  const named = (name: string) =>
    methodSchemas['buckets.emptyAndDelete'].safeParse({ connectionId: 'env', name }).success;
  for (const name of ['my-bucket', 'logs.2024', 'Old_Bucket']) expect(named(name)).toBe(true);
  for (const name of ['.', '..', 'a/../b', 'b?versions', 'b#x', 'a b', 'a%2Fb', 'tab\there', ''])
    expect(named(name)).toBe(false);
  // The same rule wherever a bucket is named.
  expect(methodSchemas['jobs.delete'].safeParse({ connectionId: 'env', bucket: '..', prefixes: [''] }).success).toBe(
    false,
  );
  expect(methodSchemas['objects.list'].safeParse({ connectionId: 'env', bucket: 'a/b', prefix: '' }).success).toBe(
    false,
  );
});
