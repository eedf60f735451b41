import { describe, expect, it } from 'vitest';
import { syncOverlapProblem } from '../../../src/sync-places.ts';

const places = (sourceBucket: string, sourcePrefix: string, bucket: string, prefix: string) => ({
  sourceBucket,
  sourcePrefix,
  bucket,
  prefix,
});

describe('syncOverlapProblem (rclone: no sync on overlapping remotes)', () => {
  it('refuses a destination above, below or equal to its source in one bucket, the top included', () => {
    expect(syncOverlapProblem(places('b', 'a/sub/', 'b', 'a/'))).toMatch(/the destination holds the source/);
    expect(syncOverlapProblem(places('b', 'a', 'b', 'a/sub'))).toMatch(/the destination lies inside the source/);
    expect(syncOverlapProblem(places('b', 'a', 'b', 'a/'))).toMatch(/they are the same prefix/);
    expect(syncOverlapProblem(places('b', '', 'b', 'x/'))).toMatch(/^Cannot sync s3:\/\/b\/ to s3:\/\/b\/x\/:/);
  });

  it('lets prefixes side by side, or in two buckets, be synced', () => {
    expect(syncOverlapProblem(places('b', 'a/sub/', 'b', 'a/subway/'))).toBeUndefined();
    expect(syncOverlapProblem(places('b', 'a/', 'c', 'a/'))).toBeUndefined();
  });
});
