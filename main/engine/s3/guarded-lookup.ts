// Name resolution that refuses addresses a host must not reach, at the moment of connecting.
//
// Checking an endpoint's name once, when the connection is added, is not enough: a virtual-hosted
// request goes to "<bucket>.<host>", a name never checked, and a name may resolve elsewhere on the
// next connection (DNS rebinding). This lookup goes on every socket the connection opens (its
// agents and its one-off retry sockets), so every address actually dialled is checked.

import dns from 'node:dns';
import type { LookupFunction } from 'node:net';

/** Why an address is refused, or undefined to allow it. */
export type AddressPolicy = (address: string) => string | undefined;

export function guardedLookup(refuse: AddressPolicy): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    dns.lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address as string, family);
      const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
      const problem = addresses.map((each) => refuse(each)).find((why) => why !== undefined);
      if (problem) {
        return callback(Object.assign(new Error(`${hostname} resolves to ${problem}; this host does not connect there (start it with --allow-internal-endpoints to allow it).`), { code: 'EndpointRefused' }), '', 0);
      }
      callback(null, address, family);
    });
  }) as LookupFunction;
}
