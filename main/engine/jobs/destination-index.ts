// What an upload's destination holds, listed once while the files are walked.
//
// An upload that must not replace objects in silence has to know, for each file, whether its key is
// taken. A HEAD per file would double the requests of a small-file upload; one ListObjectsV2 stream
// below the destination (1,000 keys a request) answers instead, beside the walk. Keys come in UTF-8
// byte order, so a key is known to be free once the listing has gone past it. Keys the listing does
// not cover, or every key once it has failed (no s3:ListBucket permission), are 'unknown': the job
// asks each of those by HEAD.

import { SpillingMap } from './spilling-map.ts';
import { compareUtf8 } from '../../../src/key-order.ts';
import { listObjectsPage } from '../s3/s3-listing.ts';
import type { ListingPage, ListOptions } from '../s3/s3-listing.ts';
import type { S3Connection } from '../s3/s3-connection.ts';

/**
 * How the listing's requests go: as the job's own (queued in its scheduler, retried), so Threads holds for them too.
 */
export type PageRequest = <T>(send: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/** An object the destination holds, or (`ours`) one this job is writing. */
export interface ObjectThere {
  /** Unknown where the store would not say (a HEAD refused). */
  readonly size?: number;
  readonly etag?: string;
  readonly lastModified?: number;
  readonly ours?: true;
}

/** What is under a key: an object, nothing ('free'), or what the listing cannot say ('unknown'). */
export type Lookup = ObjectThere | 'free' | 'unknown';

/** Up to this many sources, each is listed by its own prefix; more, and the destination's level is. */
export const PREFIX_PER_SOURCE_MAX = 16;

/**
 * What to list. `prefixes`: each source's own (its key up to the extension of its last segment, so
 * "report (1).pdf" beside "report.pdf" is covered too), in order. `level`: the one folder all
 * sources go into, listed with "/", descending only into the folders named as sources: a thousand
 * files picked into a folder of a million objects cost the folder's level, not a HEAD each.
 */
export type ListingPlan =
  | { readonly kind: 'prefixes'; readonly prefixes: readonly string[] }
  | { readonly kind: 'level'; readonly prefix: string; readonly names: ReadonlySet<string> };

/** The plan for sources going to these keys (a file's key, or a folder's prefix without its "/"). */
export function listingPlan(keys: readonly string[]): ListingPlan {
  const parent = (key: string) => key.slice(0, key.lastIndexOf('/') + 1);
  const level = keys.length > 0 ? parent(keys[0]!) : '';
  if (keys.length > PREFIX_PER_SOURCE_MAX && keys.every((key) => parent(key) === level)) {
    return { kind: 'level', prefix: level, names: new Set(keys.map((key) => key.slice(level.length))) };
  }
  const stems = [...new Set(keys.map(stemOf))].sort(compareUtf8);
  const prefixes: string[] = [];
  for (const stem of stems) if (!prefixes.some((kept) => stem.startsWith(kept))) prefixes.push(stem);
  return { kind: 'prefixes', prefixes };
}

/** A key up to the extension of its last segment ("a/report.pdf" → "a/report"; "a/.env" stays). */
function stemOf(key: string): string {
  const dot = key.lastIndexOf('.');
  return dot > key.lastIndexOf('/') + 1 ? key.slice(0, dot) : key;
}

/** Whether the plan's listing says what is under `key`. */
export function covers(plan: ListingPlan, key: string): boolean {
  if (plan.kind === 'prefixes') return plan.prefixes.some((prefix) => key.startsWith(prefix));
  if (!key.startsWith(plan.prefix)) return false;
  const rest = key.slice(plan.prefix.length);
  const slash = rest.indexOf('/');
  return slash < 0 || plan.names.has(rest.slice(0, slash));
}

export { compareUtf8 } from '../../../src/key-order.ts';

/**
 * What a listing says of an object. A date or a size the store wrote so that it cannot be read (a
 * faulty gateway's LastModified, a Size that is no size, listed as 0 with `badSize`) is unknown:
 * "Replace if newer" and the question treat it so, never as a date or as 0 B.
 */
function objectThere(object: {
  readonly size: number;
  readonly badSize?: string;
  readonly etag?: string;
  readonly lastModified?: number;
}): ObjectThere {
  const dated = object.lastModified !== undefined && Number.isFinite(object.lastModified);
  return {
    ...(object.badSize === undefined ? { size: object.size } : {}),
    etag: object.etag,
    ...(dated ? { lastModified: object.lastModified } : {}),
  };
}

/** Past every key that begins with a prefix (the highest code point), once that prefix is listed. */
const AFTER_PREFIX = '\u{10FFFF}';

/**
 * One step of the listing, in key order: an object, or a place passed (a folder not descended into, a prefix's end).
 */
interface Listed {
  readonly key: string;
  readonly object?: ObjectThere;
}

export class DestinationIndex {
  private readonly known = new SpillingMap<ObjectThere>();
  /** The listing has answered every key up to this one (in UTF-8 order). */
  private cursor: string | undefined;
  private state: 'listing' | 'done' | 'failed' = 'listing';
  private waiters: { key: string; claim: ObjectThere | undefined; resolve: (lookup: Lookup) => void }[] = [];
  private readonly stop = new AbortController();
  private readonly plan: ListingPlan;
  /** The listing, running: settles when it has ended, however it ended. */
  readonly listed: Promise<void>;

  /** Start listing what `plan` covers in `bucket`, each page through `request`, until done, failed or `close`. */
  constructor(connection: S3Connection, bucket: string, plan: ListingPlan, request: PageRequest) {
    this.plan = plan;
    this.listed = this.run(connection, bucket, request);
  }

  /**
   * What is under `key`. With `claim`, a key found free is this job's from then on (the same
   * answer, in the same turn): a second file looking for it (a numbered copy's name that another
   * file of the job has) finds it taken.
   */
  lookup(key: string, claim?: ObjectThere): Promise<Lookup> {
    const ours = this.known.get(key);
    if (ours?.ours) return Promise.resolve(ours);
    if (!covers(this.plan, key)) return Promise.resolve('unknown');
    if (this.answered(key)) return Promise.resolve(this.answer(key, claim));
    if (this.state !== 'listing') return Promise.resolve('unknown');
    return new Promise((resolve) => this.waiters.push({ key, claim, resolve }));
  }

  /** Make a key this job's (one found free by HEAD): false if another of its files has it already. */
  claim(key: string, object: ObjectThere): boolean {
    if (this.known.get(key)?.ours) return false;
    this.known.set(key, { ...object, ours: true });
    return true;
  }

  close(): void {
    this.stop.abort();
    this.settle('failed');
    this.known.close();
  }

  private answered(key: string): boolean {
    return this.state === 'done' || (this.cursor !== undefined && compareUtf8(key, this.cursor) <= 0);
  }

  private answer(key: string, claim: ObjectThere | undefined): Lookup {
    const there = this.known.get(key);
    if (there) return there;
    if (claim) this.known.set(key, { ...claim, ours: true });
    return 'free';
  }

  private async run(connection: S3Connection, bucket: string, request: PageRequest): Promise<void> {
    try {
      for await (const step of this.steps(connection, bucket, request)) {
        if (step.object && !this.known.get(step.key)?.ours) this.known.set(step.key, step.object);
        if (this.cursor === undefined || compareUtf8(step.key, this.cursor) > 0) this.cursor = step.key;
        this.wake();
      }
      this.settle('done');
    } catch {
      // No listing (refused, or the job is ending): what it has said stands; the rest is asked by HEAD.
      this.settle('failed');
    }
  }

  /** Waiters whose keys the listing has now answered; the others wait on. */
  private wake(): void {
    if (this.waiters.length === 0) return;
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (this.answered(waiter.key)) waiter.resolve(this.answer(waiter.key, waiter.claim));
      else this.waiters.push(waiter);
    }
  }

  private settle(state: 'done' | 'failed'): void {
    if (this.state !== 'listing') return;
    this.state = state;
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting)
      waiter.resolve(this.answered(waiter.key) ? this.answer(waiter.key, waiter.claim) : 'unknown');
  }

  private async *steps(connection: S3Connection, bucket: string, request: PageRequest): AsyncGenerator<Listed> {
    const stop = this.stop.signal;
    const pages = async function* (options: ListOptions): AsyncGenerator<ListingPage> {
      let token: string | undefined;
      do {
        const page = await request((signal) =>
          listObjectsPage(connection, { ...options, retry: false, signal: AbortSignal.any([signal, stop]) }, token),
        );
        yield page;
        token = page.nextToken;
      } while (token && !stop.aborted);
    };
    const below = async function* (prefix: string): AsyncGenerator<Listed> {
      for await (const page of pages({ bucket, prefix })) {
        for (const object of page.objects) yield { key: object.key, object: objectThere(object) };
      }
      yield { key: prefix + AFTER_PREFIX };
    };
    const plan = this.plan;
    if (plan.kind === 'prefixes') {
      for (const prefix of plan.prefixes) yield* below(prefix);
      return;
    }
    for await (const page of pages({ bucket, prefix: plan.prefix, delimiter: '/' })) {
      // Objects and folders of one page, in the one order the store gives them together.
      const entries = [
        ...page.objects.map((object) => ({ key: object.key, object })),
        ...page.prefixes.map((folder) => ({ key: folder, object: undefined })),
      ].sort((a, b) => compareUtf8(a.key, b.key));
      for (const entry of entries) {
        if (entry.object) {
          yield { key: entry.key, object: objectThere(entry.object) };
        } else if (plan.names.has(entry.key.slice(plan.prefix.length, -1))) {
          yield* below(entry.key);
        } else {
          yield { key: entry.key };
        }
      }
    }
  }
}
