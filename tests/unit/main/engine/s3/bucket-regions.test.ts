import { describe, expect, it, vi } from 'vitest';
import {
  BucketRegions,
  MAX_REGIONS_PER_CONNECTION,
  regionRefusalInside,
  regionRefusalOf,
} from '../../../../../main/engine/s3/bucket-regions.ts';
import { regionRedirectOf } from '../../../../../main/engine/queue/retry-policy.ts';

/** An error shaped as the SDK's and the wire's are: a code, a status, headers, and maybe <Region>. */
function refusal(name: string, status: number, headers: Record<string, string> = {}, region?: string): Error {
  const error = Object.assign(
    new Error(name),
    { name, $metadata: { httpStatusCode: status } },
    region ? { Region: region } : {},
  );
  Object.defineProperty(error, '$response', { value: { statusCode: status, headers }, enumerable: false });
  return error;
}

const malformed = (named = 'eu-west-1') =>
  refusal('AuthorizationHeaderMalformed', 400, { 'x-amz-bucket-region': named }, named);

function regions(options: { askFirst?: boolean; ask?: (bucket: string) => Promise<string | undefined> } = {}) {
  const ask = vi.fn(options.ask ?? (async () => undefined));
  return { ask, regions: new BucketRegions({ defaultRegion: 'us-east-1', askFirst: options.askFirst ?? false, ask }) };
}

describe('regionRefusalOf', () => {
  it("knows AWS's refusals for the region, and the region they name (the header first)", () => {
    expect(regionRefusalOf(malformed(), false)).toEqual({ named: 'eu-west-1' });
    expect(regionRefusalOf(refusal('AuthorizationHeaderMalformed', 400, {}, 'ap-south-1'), false)).toEqual({
      named: 'ap-south-1',
    });
    expect(regionRefusalOf(refusal('PermanentRedirect', 301, { 'x-amz-bucket-region': 'eu-west-1' }), false)).toEqual({
      named: 'eu-west-1',
    });
    expect(
      regionRefusalOf(
        refusal('IllegalLocationConstraintException', 400, { 'x-amz-bucket-region': 'af-south-1' }),
        false,
      ),
    ).toEqual({ named: 'af-south-1' });
    expect(regionRefusalOf(refusal('PermanentRedirect', 301), false)).toEqual({ named: undefined });
  });

  it("reads a HEAD's bare 400 with the header as a refusal for the region, and nothing else", () => {
    expect(regionRefusalOf(refusal('BadRequest', 400, { 'x-amz-bucket-region': 'eu-west-1' }), true)).toEqual({
      named: 'eu-west-1',
    });
    expect(regionRefusalOf(refusal('BadRequest', 400, { 'x-amz-bucket-region': 'eu-west-1' }), false)).toBeUndefined();
    expect(regionRefusalOf(refusal('BadRequest', 400), true)).toBeUndefined();
    expect(regionRefusalOf(refusal('AccessDenied', 403, { 'x-amz-bucket-region': 'eu-west-1' }), true)).toBeUndefined();
    expect(regionRefusalOf(refusal('InvalidArgument', 400), false)).toBeUndefined();
    expect(regionRefusalOf(new Error('socket hang up'), false)).toBeUndefined();
  });

  it('reads the region a refusal names only in its words (MinIO: "expecting \'eu-central-1\'")', () => {
    const words = Object.assign(refusal('AuthorizationHeaderMalformed', 400), {
      message: "The authorization header is malformed; the region is wrong; expecting 'eu-central-1'.",
    });
    expect(regionRefusalOf(words, false)).toEqual({ named: 'eu-central-1' });
  });
});

describe('regionRefusalInside', () => {
  it('finds a DeleteObjects answered 200 whose keys were refused for the region, as a 400 of that code', () => {
    const output = {
      Errors: [
        { Key: 'a', Code: 'AuthorizationHeaderMalformed', Message: "the region is wrong; expecting 'eu-central-1'" },
      ],
    };
    const inside = regionRefusalInside(output);
    expect(inside).toMatchObject({ name: 'AuthorizationHeaderMalformed', $metadata: { httpStatusCode: 400 } });
    expect(regionRefusalOf(inside, false)).toEqual({ named: 'eu-central-1' });
  });

  it('leaves keys refused for anything else, and answers without errors, alone', () => {
    expect(regionRefusalInside({ Errors: [{ Key: 'a', Code: 'AccessDenied', Message: 'no' }] })).toBeUndefined();
    expect(regionRefusalInside({ Deleted: [{ Key: 'a' }] })).toBeUndefined();
    expect(regionRefusalInside(undefined)).toBeUndefined();
  });
});

describe('BucketRegions', () => {
  it("sends a bucket to the connection's region until the store names another, then there, and marks the refusal to go again", async () => {
    const { regions: where } = regions();
    expect(where.regionFor('b')).toBe('us-east-1');
    const error = malformed();
    await where.afterFailure('b', 'us-east-1', error, false);
    expect(regionRedirectOf(error)).toBe('eu-west-1');
    expect(where.regionFor('b')).toBe('eu-west-1');
    expect(where.known('b')).toBe('eu-west-1');
    // Other buckets keep the default.
    expect(where.regionFor('other')).toBe('us-east-1');
  });

  it('never follows a named region that is not a region, nor the one the request was signed for', async () => {
    const { regions: where, ask } = regions({ ask: async () => 'eu-west-1' });
    for (const lie of ['x@127.0.0.1:19096/#', 'eu-west-1.evil.example', '169.254.169.254', '-', '']) {
      const error = refusal('AuthorizationHeaderMalformed', 400, { 'x-amz-bucket-region': lie }, 'eu-west-1');
      await where.afterFailure('b', 'us-east-1', error, false);
      expect(regionRedirectOf(error)).toBeUndefined();
    }
    const same = malformed('us-east-1');
    await where.afterFailure('b', 'us-east-1', same, false);
    expect(regionRedirectOf(same)).toBeUndefined();
    expect(where.regionFor('b')).toBe('us-east-1');
    // A refusal that named something was not asked about.
    expect(ask).not.toHaveBeenCalled();
  });

  it('follows no more regions than AWS has: a store naming a new one on every refusal is not followed past them', async () => {
    const { regions: where } = regions();
    const names = Array.from({ length: MAX_REGIONS_PER_CONNECTION + 5 }, (_, i) => `made-up-${i}`);
    const followed = [];
    for (const name of names) {
      const error = malformed(name);
      await where.afterFailure(`b-${name}`, 'us-east-1', error, false);
      if (regionRedirectOf(error)) followed.push(name);
    }
    // The connection's own region is one of them.
    expect(followed).toHaveLength(MAX_REGIONS_PER_CONNECTION - 1);
    expect(where.regionFor(`b-${names.at(-1)!}`)).toBe('us-east-1');
    // A bucket in a region already known is still followed.
    const known = malformed('made-up-0');
    await where.afterFailure('another', 'us-east-1', known, false);
    expect(regionRedirectOf(known)).toBe('made-up-0');
  });

  it('asks the store (HEAD Bucket), once, when a refusal names no region', async () => {
    const { regions: where, ask } = regions({ ask: async () => 'eu-central-1' });
    const first = refusal('PermanentRedirect', 301);
    const second = refusal('PermanentRedirect', 301);
    await Promise.all([
      where.afterFailure('b', 'us-east-1', first, false),
      where.afterFailure('b', 'us-east-1', second, false),
    ]);
    expect(ask).toHaveBeenCalledTimes(1);
    expect([regionRedirectOf(first), regionRedirectOf(second)]).toEqual(['eu-central-1', 'eu-central-1']);
  });

  it("on AWS, asks before a bucket's first request, once for all the requests waiting, and uses the default when no answer comes", async () => {
    let answer: (region: string | undefined) => void = () => undefined;
    const { regions: where, ask } = regions({
      askFirst: true,
      ask: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    const waiting = [where.regionFor('b'), where.regionFor('b'), where.regionFor('b')];
    answer('eu-west-1');
    expect(await Promise.all(waiting)).toEqual(['eu-west-1', 'eu-west-1', 'eu-west-1']);
    expect(ask).toHaveBeenCalledTimes(1);
    // Known now: no waiting at all.
    expect(where.regionFor('b')).toBe('eu-west-1');

    const { regions: offline, ask: failing } = regions({
      askFirst: true,
      ask: async () => {
        throw Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
      },
    });
    expect(await offline.regionFor('c')).toBe('us-east-1');
    // A question that got no answer is asked again.
    expect(await offline.regionFor('c')).toBe('us-east-1');
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it("says a bucket's region for its details: as the store names it, else the connection's", async () => {
    const { regions: told } = regions({ ask: async () => 'eu-west-1' });
    expect(await told.confirmed('b')).toEqual({ region: 'eu-west-1', told: true });
    expect(told.regionFor('b')).toBe('eu-west-1');
    const { regions: silent } = regions({ ask: async () => undefined });
    expect(await silent.confirmed('b')).toEqual({ region: 'us-east-1', told: false });
    const { regions: liar } = regions({ ask: async () => 'x@127.0.0.1' });
    expect(await liar.confirmed('b')).toEqual({ region: 'us-east-1', told: false });
  });
});
