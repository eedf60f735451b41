// Which region each bucket is in, learnt once per connection from what the store says.
//
// AWS's ListBuckets names the buckets of every region, and a request signed for a region other than
// its bucket's is refused: 400 AuthorizationHeaderMalformed naming the region, 301 PermanentRedirect,
// a bare 400 to a HEAD, 400 IllegalLocationConstraintException, each with x-amz-bucket-region. The
// connection's region is the default; a region the store has named for a bucket wins for that bucket,
// for every request after (control and data alike), as aws-cli does. On AWS the region is asked with
// a HEAD Bucket before a bucket's first request, so a job's first requests do not all go astray;
// elsewhere it is learnt from a refusal (most stores have one region, and say so when refusing).
// A named region that is not a region (src/region.ts) is never followed: a store can lie, and on AWS
// the region becomes a host name.

import { isRegion } from '../../../src/region.ts';
import type { BucketRegion } from '../../../src/contract/models.ts';
import { errorCode, httpStatus } from '../errors.ts';
import { markRegionRedirect } from '../queue/retry-policy.ts';

/**
 * The most regions one connection learns: more than AWS has. Each is an SDK client and a base URL
 * kept for the connection's life, so a store naming a new region on every refusal is not followed
 * past this.
 */
export const MAX_REGIONS_PER_CONNECTION = 64;

/** Codes that refuse a request for the region it was signed for, whatever the method. */
const REGION_REFUSALS = new Set([
  'AuthorizationHeaderMalformed',
  'PermanentRedirect',
  'IllegalLocationConstraintException',
]);

/** What the store said of a bucket's region when it refused a request. */
export interface RegionRefusal {
  /** The region the store names (x-amz-bucket-region, else the error's <Region>), if any. */
  readonly named: string | undefined;
}

/**
 * Whether `error` is a refusal for the region, and the region it names. A HEAD has no body to carry
 * a code: its refusal is a bare 400 or 301 with x-amz-bucket-region.
 */
export function regionRefusalOf(error: unknown, head: boolean): RegionRefusal | undefined {
  const status = httpStatus(error);
  if (status !== 400 && status !== 301) return undefined;
  const header = headerOf(error, 'x-amz-bucket-region');
  const refused = status === 301 || REGION_REFUSALS.has(errorCode(error)) || (head && header !== undefined);
  if (!refused) return undefined;
  const body = (error as { Region?: unknown }).Region;
  return { named: header ?? (typeof body === 'string' && body !== '' ? body : undefined) ?? regionInMessage(error) };
}

/**
 * The region a refusal names only in its words, as MinIO and stores modelled on it do ("the region is
 * wrong; expecting 'eu-central-1'"), where no header or <Region> says it. Checked as any named region.
 */
function regionInMessage(error: unknown): string | undefined {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? /expecting '([^']{1,63})'/.exec(message)?.[1] : undefined;
}

/**
 * A DeleteObjects answered 200 whose keys were each refused for the region (MinIO with a site region
 * does this): the refusal, shaped as the request's own would be, so it is learnt and the batch sent
 * again; undefined when no key was refused for that.
 */
export function regionRefusalInside(output: unknown): Error | undefined {
  const errors = (output as { Errors?: readonly { Code?: string; Message?: string }[] } | undefined)?.Errors ?? [];
  const refused = errors.find((entry) => entry.Code !== undefined && REGION_REFUSALS.has(entry.Code));
  if (!refused) return undefined;
  return Object.assign(new Error(refused.Message ?? 'Refused for its region.'), {
    name: refused.Code!,
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
  });
}

/** A response header of an error shaped like the SDK's (`$response.headers`), if it has one. */
export function headerOf(error: unknown, name: string): string | undefined {
  const value = (error as { $response?: { headers?: Record<string, unknown> } } | undefined)?.$response?.headers?.[
    name
  ];
  return typeof value === 'string' ? value : undefined;
}

export interface BucketRegionsOptions {
  /** The connection's region: --region, AWS_REGION, the profile's; for buckets not known yet. */
  readonly defaultRegion: string;
  /** Ask the store before a bucket's first request (AWS), rather than wait for a refusal. */
  readonly askFirst: boolean;
  /**
   * One HEAD Bucket: the x-amz-bucket-region of its answer, whatever its status; undefined when it
   * has none. Rejects only when no answer came.
   */
  readonly ask: (bucket: string) => Promise<string | undefined>;
}

export class BucketRegions {
  readonly defaultRegion: string;
  private readonly options: BucketRegionsOptions;
  private readonly learnt = new Map<string, string>();
  /** Every region requests may go to: the default and those learnt. */
  private readonly regions = new Set<string>();
  /** Asked once per bucket: the answer (or its absence) is kept; a question that got no answer is not. */
  private readonly asked = new Map<string, Promise<string | undefined>>();

  constructor(options: BucketRegionsOptions) {
    this.options = options;
    this.defaultRegion = options.defaultRegion;
    this.regions.add(options.defaultRegion);
  }

  /** The region the bucket is known to be in, if the store has said. */
  known(bucket: string): string | undefined {
    return this.learnt.get(bucket);
  }

  /**
   * The region to send a request for `bucket` to: learnt, else (on AWS, once asked) the default.
   * Synchronous once known, so requests already queued for the bucket follow as soon as it is.
   */
  regionFor(bucket: string): string | Promise<string> {
    const known = this.learnt.get(bucket);
    if (known !== undefined) return known;
    if (!this.options.askFirst) return this.defaultRegion;
    return this.ask(bucket).then(
      (named) => named ?? this.defaultRegion,
      () => this.defaultRegion,
    );
  }

  /** The bucket's region, asking the store if it has not said yet (a link to sign, a bucket's details). */
  async confirmed(bucket: string): Promise<BucketRegion> {
    const named = this.learnt.get(bucket) ?? (await this.ask(bucket).catch(() => undefined));
    return named === undefined ? { region: this.defaultRegion, told: false } : { region: named, told: true };
  }

  /**
   * That `bucket` is in `region` (a bucket made here is in the region it was made in); false when
   * `region` is not a region, or one too many for this connection.
   */
  learn(bucket: string, region: string): boolean {
    if (!isRegion(region)) return false;
    if (!this.regions.has(region)) {
      if (this.regions.size >= MAX_REGIONS_PER_CONNECTION) return false;
      this.regions.add(region);
    }
    this.learnt.set(bucket, region);
    return true;
  }

  /**
   * After a request for `bucket`, signed for `signedRegion`, failed with `error`: if the store
   * refused it for its region and named another, valid one, that region is learnt and the error
   * marked so the request goes again, there (retry-loop.ts). A refusal that names no region asks
   * the store once (HEAD Bucket). Anything else leaves the error as it is.
   */
  async afterFailure(bucket: string, signedRegion: string, error: unknown, head: boolean): Promise<void> {
    const refusal = regionRefusalOf(error, head);
    if (!refusal) return;
    if (error && typeof error === 'object' && Object.isExtensible(error))
      (error as { signedRegion?: string }).signedRegion = signedRegion;
    const named = refusal.named ?? (await this.ask(bucket).catch(() => undefined));
    if (named === undefined || named === signedRegion || !this.learn(bucket, named)) return;
    markRegionRedirect(error, named);
  }

  /** A HEAD Bucket's x-amz-bucket-region, asked once per bucket (again only if no answer came). */
  private ask(bucket: string): Promise<string | undefined> {
    let asking = this.asked.get(bucket);
    if (asking === undefined) {
      asking = this.options
        .ask(bucket)
        .then((named) => (named !== undefined && this.learn(bucket, named) ? named : undefined));
      asking.catch(() => this.asked.delete(bucket));
      this.asked.set(bucket, asking);
    }
    return asking;
  }
}
