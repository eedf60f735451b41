// Where a sync between two prefixes may not go: a prefix inside, above or equal to its source.
//
// In one bucket of one connection, a destination below its source lists its own copies as sources:
// each run nests them one level deeper. A destination above its source holds the source, which
// its listing then calls extra: `sync --delete s3://b/a/sub/ s3://b/a/` copied the objects, then
// deleted the source. rclone refuses both ("can't sync or move files on overlapping remotes"); so
// does Barge, in the contract (window, web host, command line alike) and in a restored job's spec.

import { asFolderPrefix } from './s3-url.ts';

/** Two prefixes of a sync: the source's and the destination's, with their buckets. */
export interface SyncPlaces {
  readonly sourceBucket: string;
  readonly sourcePrefix: string;
  readonly bucket: string;
  readonly prefix: string;
}

/** Why a sync between these prefixes (one connection) is refused, in words to act on; undefined when it is not. */
export function syncOverlapProblem(places: SyncPlaces): string | undefined {
  if (places.sourceBucket !== places.bucket) return undefined;
  const source = asFolderPrefix(places.sourcePrefix);
  const destination = asFolderPrefix(places.prefix);
  if (!source.startsWith(destination) && !destination.startsWith(source)) return undefined;
  const from = `s3://${places.sourceBucket}/${source}`;
  const to = `s3://${places.bucket}/${destination}`;
  const how =
    source === destination
      ? 'they are the same prefix'
      : destination.startsWith(source)
        ? 'the destination lies inside the source, so each run would copy its own copies one level deeper'
        : 'the destination holds the source, so --delete would take the source for extra and delete it';
  return (
    `Cannot sync ${from} to ${to}: ${how}. A sync's source and destination in one bucket may not be ` +
    `one inside the other (or the same): choose a destination outside the source, and not above it.`
  );
}
