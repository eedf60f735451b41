// Name resolution that refuses addresses a host must not reach, at the moment of connecting.
//
// Checking an endpoint's name once, when the connection is added, is not enough: a virtual-hosted
// request goes to "<bucket>.<host>", a name never checked, and a name may resolve elsewhere on the
// next connection (DNS rebinding). This lookup goes on every socket the connection opens (its
// agents and its one-off retry sockets), so every address actually dialled is checked. An endpoint
// that is an address, not a name, is dialled with no lookup: `refusedAddress` judges it, once per
// connection (an address cannot change).

import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { BargeError } from '../../../src/errors.ts';

/** Why an address is refused, or undefined to allow it. */
export type AddressPolicy = (address: string) => string | undefined;

export function guardedLookup(refuse: AddressPolicy): LookupFunction {
  return ((
    hostname: string,
    options: dns.LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    dns.lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address as string, family);
      const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
      const problem = addresses.map((each) => refuse(each)).find((why) => why !== undefined);
      if (problem)
        return callback(endpointRefused(`${hostname} resolves to an address this host refuses: ${problem}`), '', 0);
      callback(null, address, family);
    });
  }) as LookupFunction;
}

/**
 * The refusal of a host that is an IP address `refuse` refuses, or undefined (a name, or an address
 * allowed). Node dials an address without calling the lookup: this is its check.
 */
export function refusedAddress(host: string, refuse: AddressPolicy): Error | undefined {
  const address = host.replace(/^\[|\]$/g, '');
  const problem = net.isIP(address) ? refuse(address) : undefined;
  return problem ? endpointRefused(problem) : undefined;
}

function endpointRefused(problem: string): BargeError {
  return new BargeError(
    'EndpointRefused',
    `${problem}; this host does not connect there (start it with --allow-internal-endpoints to allow it).`,
  );
}
