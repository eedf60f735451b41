// This machine's own addresses, which a host others can reach refuses as endpoints.
//
// Loopback is not the only way a machine reaches itself: a socket to its own public IPv4 address or
// global IPv6 one goes to its own services too (past most firewalls), so a token holder could read
// every service listening on 0.0.0.0 or :: through the host, and tell open ports from closed ones.
// GitLab's URL blocker refuses the server's own addresses for this reason. The interfaces are read
// at each check: addresses come and go (DHCP, VPNs), and reading them costs microseconds.

import { networkInterfaces } from 'node:os';
import { canonicalAddress } from '../../src/ip-address.ts';

/** Why `address` is refused as one of this machine's own, or undefined. */
export function ownAddressProblem(address: string): string | undefined {
  const wanted = canonicalAddress(address);
  if (wanted === undefined) return undefined;
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (canonicalAddress(entry.address) === wanted)
        return `${address} is one of this machine's own addresses (its own services)`;
    }
  }
  return undefined;
}

/** The same for an endpoint whose host is an address (a name is judged by what it resolves to). */
export function ownEndpointProblem(endpoint: string): string | undefined {
  let host: string;
  try {
    host = new URL(endpoint).hostname;
  } catch {
    return undefined;
  }
  return ownAddressProblem(host.replace(/^\[|\]$/g, ''));
}
