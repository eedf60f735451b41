// What a sync does with each key: the source and the destination read side by side in key order.
//
// Both sides come in S3's key order (a listing as the store gives it, a folder by ordered-walk.ts),
// so one pass decides every key holding only the two entries in front of it: a million keys cost
// no memory beyond them. A key only at the source is new; only at the destination, extra; on both,
// changed or unchanged by `differs` (size and time by default, a checksum with --checksum).
//
// The time rule is s5cmd's and aws s3 sync's, the same both ways: a key is sent when the sizes
// differ or the source is newer than the destination, to the whole second (stores keep seconds). A
// destination newer than its source is left as it is: after an upload the object is always newer
// than its file, after a download the file newer than its object, so a second sync sends nothing.
// A date either side cannot tell is sent: nothing is called unchanged on a guess.
//
// A source entry a time, size or storage-class filter leaves out (`leftOut`) still holds its name:
// it is not sent, and its copy at the destination is not extra (a copy's date is when it was made,
// its size may differ: judged by its own, it would look deletable while its source is there).

import { compareUtf8 } from '../../../src/key-order.ts';
import { isNewer } from '../../../src/if-exists.ts';

/** One side's object or file: its key (the destination's key space), size and time. */
export interface SyncSide {
  readonly key: string;
  readonly size: number;
  /** Modification time (a file's mtime, an object's LastModified), ms; undefined where not known. */
  readonly modifiedMs: number | undefined;
  /**
   * A source entry a time, size or storage-class filter leaves out: held at the source, so its name
   * is no extra at the destination, but not sent (neither new nor changed).
   */
  readonly leftOut?: boolean;
}

export type SyncStep<S extends SyncSide, D extends SyncSide> =
  | { readonly reason: 'new'; readonly key: string; readonly source: S }
  | {
      readonly reason: 'changed';
      readonly key: string;
      readonly source: S;
      readonly destination: D;
      readonly why: string;
    }
  | { readonly reason: 'unchanged'; readonly key: string; readonly source: S; readonly destination: D }
  | { readonly reason: 'extra'; readonly key: string; readonly destination: D };

/** Why a key on both sides is sent ("size 10 B → 12 B", "newer"), or undefined when it is not. */
export type Differs<S extends SyncSide, D extends SyncSide> = (
  source: S,
  destination: D,
) => string | undefined | Promise<string | undefined>;

/** The default rule: size, then time (see the header). */
export function sizeOrTimeDiffers(source: SyncSide, destination: SyncSide): string | undefined {
  if (source.size !== destination.size)
    return `size differs (source ${source.size} B, destination ${destination.size} B)`;
  if (source.modifiedMs === undefined || destination.modifiedMs === undefined)
    return 'a modification time is unknown, so it is sent';
  if (isNewer(source.modifiedMs, destination.modifiedMs)) return 'source is newer';
  return undefined;
}

/**
 * Every key of either side, once, in key order, with what to do about it. Each side must come in
 * key order (UTF-8 bytes): one that does not is a bug in its reader, and fails the sync rather than
 * call keys new and extra at random.
 */
export async function* syncSteps<S extends SyncSide, D extends SyncSide>(
  sources: AsyncIterable<S>,
  destinations: AsyncIterable<D>,
  differs: Differs<S, D> = sizeOrTimeDiffers,
): AsyncGenerator<SyncStep<S, D>> {
  const left = ordered(sources, 'source');
  const right = ordered(destinations, 'destination');
  // Both sides start at once: one awaited before the other left the listing idle while the folder's
  // 20,000 names were read and sorted (a read-ahead starts when first asked).
  let source: IteratorResult<S>;
  let destination: IteratorResult<D>;
  try {
    [source, destination] = await Promise.all([left.next(), right.next()]);
    while (!source.done || !destination.done) {
      const order = source.done ? 1 : destination.done ? -1 : compareUtf8(source.value.key, destination.value.key);
      if (order < 0 && !source.done) {
        if (!source.value.leftOut) yield { reason: 'new', key: source.value.key, source: source.value };
        source = await left.next();
      } else if (order > 0 && !destination.done) {
        yield { reason: 'extra', key: destination.value.key, destination: destination.value };
        destination = await right.next();
      } else if (!source.done && !destination.done && source.value.leftOut) {
        // Held at the source, left out of the sends: its copy is kept as it is.
        source = await left.next();
        destination = await right.next();
      } else if (!source.done && !destination.done) {
        const why = await differs(source.value, destination.value);
        const both = { key: source.value.key, source: source.value, destination: destination.value };
        yield why === undefined ? { reason: 'unchanged', ...both } : { reason: 'changed', ...both, why };
        source = await left.next();
        destination = await right.next();
      }
    }
  } finally {
    await Promise.all([left.return(undefined), right.return(undefined)]);
  }
}

async function* ordered<T extends SyncSide>(items: AsyncIterable<T>, side: string): AsyncGenerator<T> {
  let last: string | undefined;
  for await (const item of items) {
    if (last !== undefined && compareUtf8(item.key, last) <= 0)
      throw new Error(`The sync's ${side} was not in key order ("${item.key}" after "${last}").`);
    last = item.key;
    yield item;
  }
}
