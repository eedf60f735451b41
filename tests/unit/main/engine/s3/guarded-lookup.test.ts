import { expect, it } from 'vitest';
import { guardedLookup, refusedAddress } from '../../../../../main/engine/s3/guarded-lookup.ts';
import { internalAddressProblem } from '../../../../../src/internal-endpoints.ts';

const resolve = (lookup: ReturnType<typeof guardedLookup>, name: string, all: boolean) =>
  new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) => {
    lookup(name, { all }, (error, address) => done({ error, address }));
  });

it('refuses a name that resolves to a refused address, one address or all of them, and lets others through', async () => {
  const refuseLoopback = guardedLookup((address) =>
    address === '127.0.0.1' || address === '::1' ? `${address} is refused here` : undefined,
  );
  for (const all of [false, true]) {
    const refused = await resolve(refuseLoopback, 'localhost', all);
    expect(refused.error?.code).toBe('EndpointRefused');
    expect(refused.error?.message).toMatch(
      /^localhost resolves to an address this host refuses: (127\.0\.0\.1|::1) is refused here; this host does not connect there/,
    );
  }
  // With the web host's own policy, as a person reads it.
  const refused = await resolve(guardedLookup(internalAddressProblem), 'localhost', false);
  expect(refused.error?.message).toMatch(
    /^localhost resolves to an address this host refuses: (127\.0\.0\.1|::1) is a loopback address \(this machine's own services\); this host does not connect there \(start it with --allow-internal-endpoints to allow it\)\.$/,
  );
  const allowed = await resolve(
    guardedLookup(() => undefined),
    'localhost',
    false,
  );
  expect(allowed.error).toBeNull();
  expect(typeof allowed.address).toBe('string');
});

it("AWS's metadata block is refused, EKS Pod Identity included", () => {
  expect(internalAddressProblem('fd00:ec2::23')).toContain('cloud metadata service');
  expect(internalAddressProblem('fd00:ec2::254')).toContain('cloud metadata service');
  // The rest of fc00::/7 is a network's own too.
  expect(internalAddressProblem('fd00:ec3::1')).toContain('unique local address');
});

it('judges an endpoint that is an address, which Node dials without a lookup', () => {
  expect(refusedAddress('127.0.0.1', internalAddressProblem)).toMatchObject({
    code: 'EndpointRefused',
    message: expect.stringMatching(/^127\.0\.0\.1 is a loopback address/),
  });
  expect(refusedAddress('[::ffff:0:a9fe:a9fe]', internalAddressProblem)).toMatchObject({ code: 'EndpointRefused' });
  expect(refusedAddress('localhost', internalAddressProblem)).toBeUndefined();
  expect(refusedAddress('52.216.0.1', internalAddressProblem)).toBeUndefined();
});
