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
 * Every key of either side, once, in key order, with what to do about it, a batch at a time. Each
 * side comes in batches (a listing's page, a stretch of a folder's walk), in key order (UTF-8
 * bytes): one that is not is a bug in its reader, and fails the sync rather than call keys new and
 * extra at random. Batches, not single entries: an await for each of 20,000 entries on each side
 * was a fifth of a sync's time, and a batch costs one.
 */
export async function* syncSteps<S extends SyncSide, D extends SyncSide>(
  sources: AsyncIterable<readonly S[]>,
  destinations: AsyncIterable<readonly D[]>,
  differs: Differs<S, D> = sizeOrTimeDiffers,
): AsyncGenerator<SyncStep<S, D>[]> {
  const left = new SideCursor<S>(sources, 'source');
  const right = new SideCursor<D>(destinations, 'destination');
  let steps: SyncStep<S, D>[] = [];
  try {
    // Both sides start at once: one awaited before the other left the listing idle while the folder's
    // 20,000 names were read and sorted (a read-ahead starts when first asked).
    await Promise.all([left.fill(), right.fill()]);
    for (;;) {
      const source = left.current();
      const destination = right.current();
      if (source === undefined && destination === undefined) break;
      const order =
        source === undefined ? 1 : destination === undefined ? -1 : compareUtf8(source.key, destination.key);
      if (order < 0) {
        if (!source!.leftOut) steps.push({ reason: 'new', key: source!.key, source: source! });
        left.advance();
      } else if (order > 0) {
        steps.push({ reason: 'extra', key: destination!.key, destination: destination! });
        right.advance();
      } else {
        // A source held but left out of the sends: its copy is kept as it is.
        if (!source!.leftOut) {
          const verdict = differs(source!, destination!);
          const why = verdict instanceof Promise ? await verdict : verdict;
          const both = { key: source!.key, source: source!, destination: destination! };
          steps.push(why === undefined ? { reason: 'unchanged', ...both } : { reason: 'changed', ...both, why });
        }
        left.advance();
        right.advance();
      }
      if (left.used() || right.used()) {
        if (steps.length > 0) yield steps;
        steps = [];
        await Promise.all([left.fill(), right.fill()]);
      }
    }
    if (steps.length > 0) yield steps;
  } finally {
    await Promise.all([left.close(), right.close()]);
  }
}

/** One side's batches, read an entry at a time, each checked to come after the one before it. */
class SideCursor<T extends SyncSide> {
  private readonly iterator: AsyncIterator<readonly T[]>;
  private batch: readonly T[] = [];
  private index = 0;
  private ended = false;
  private last: string | undefined;
  private readonly side: string;

  constructor(batches: AsyncIterable<readonly T[]>, side: string) {
    this.iterator = batches[Symbol.asyncIterator]();
    this.side = side;
  }

  /** The entry in front, or undefined once the side has ended. */
  current(): T | undefined {
    return this.batch[this.index];
  }

  advance(): void {
    this.index += 1;
    this.check();
  }

  /** Whether the batch in hand is used up while more may come. */
  used(): boolean {
    return this.index >= this.batch.length && !this.ended;
  }

  /** Reads batches until one has an entry, or the side ends. */
  async fill(): Promise<void> {
    while (this.index >= this.batch.length && !this.ended) {
      const next = await this.iterator.next();
      if (next.done) this.ended = true;
      else {
        this.batch = next.value;
        this.index = 0;
        this.check();
      }
    }
  }

  async close(): Promise<void> {
    await this.iterator.return?.(undefined);
  }

  private check(): void {
    const item = this.batch[this.index];
    if (item === undefined) return;
    if (this.last !== undefined && compareUtf8(item.key, this.last) <= 0)
      throw new Error(`The sync's ${this.side} was not in key order ("${item.key}" after "${this.last}").`);
    this.last = item.key;
  }
}
