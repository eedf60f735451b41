// Endpoints that are not stores out on the internet but a machine's or a network's own services:
// cloud metadata services (which hand out the machine's credentials), link-local, loopback, private
// and the other special-purpose addresses no public store has. A web host that others can reach must
// not let a token holder point an "S3 connection" at them: it would read the answers of internal
// services through the host, and tell open ports from closed ones (connections.check).

import { embeddedIpv4, parseIpv4, parseIpv6 } from './ip-address.ts';

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Why the endpoint is refused (an internal service or address, no URL at all), or undefined. */
export function internalEndpointProblem(endpoint: string): string | undefined {
  let host: string;
  try {
    host = new URL(endpoint).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return 'it is not a URL';
  }
  const name = host.replace(/\.$/, '');
  if (METADATA_NAMES.has(name)) return `${host} is a cloud metadata service`;
  if (name === 'localhost' || name.endsWith('.localhost')) return `${host} is this machine (loopback)`;
  return internalAddressProblem(host);
}

/** One row of a table of address blocks: the first address, the prefix length, what it is. */
type Block = readonly [first: string, bits: number, what: string];

const PRIVATE = "a private address (a network's own services)";
const METADATA = 'a cloud metadata service';

/** IPv4 blocks no public store is in (IANA's special-purpose registry, less what is globally reachable). */
const IPV4_BLOCKS: readonly Block[] = [
  ['100.100.100.200', 32, METADATA],
  ['192.0.0.192', 32, METADATA],
  ['0.0.0.0', 8, 'an unspecified address ("this host")'],
  ['10.0.0.0', 8, PRIVATE],
  ['100.64.0.0', 10, "a shared address (carrier-grade NAT: a network's own)"],
  ['127.0.0.0', 8, "a loopback address (this machine's own services)"],
  ['169.254.0.0', 16, 'a link-local address (cloud metadata services live there)'],
  ['172.16.0.0', 12, PRIVATE],
  ['192.0.0.0', 24, 'an IETF protocol address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.168.0.0', 16, PRIVATE],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

const IPV6_BLOCKS: readonly Block[] = [
  // fd00:ec2::254 (EC2 instance metadata), fd00:ec2::23 (EKS Pod Identity) and the rest of AWS's block.
  ['fd00:ec2::', 32, METADATA],
  ['::', 128, 'an unspecified address ("this host")'],
  ['::1', 128, "a loopback address (this machine's own services)"],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, "a site-local address (a network's own)"],
  ['fc00::', 7, "a unique local address (a network's own services)"],
  ['ff00::', 8, 'a multicast address'],
  ['100::', 64, 'a discard-only address'],
  ['2001:db8::', 32, 'a documentation address'],
  ['64:ff9b:1::', 48, "a local-use NAT64 address (a network's own translator)"],
];

/**
 * Why an IP address is refused, or undefined: metadata services, loopback, private (RFC 1918,
 * fc00::/7), carrier-grade NAT (100.64/10), link-local, unspecified and the other special-purpose
 * blocks; in IPv6 also the IPv4 address any IPv6 form carries (mapped, translated, compatible,
 * NAT64, 6to4, Teredo). A name (not an address) is not judged here: what it resolves to is.
 */
export function internalAddressProblem(address: string): string | undefined {
  const ip = address.toLowerCase().replace(/^\[|\]$/g, '');
  const v4 = parseIpv4(ip);
  if (v4) {
    const what = blockOf(ipv4Bits(v4), IPV4_TABLE);
    return what && `${address} is ${what}`;
  }
  const v6 = parseIpv6(ip);
  if (!v6) return undefined;
  const what = blockOf(ipv6Bits(v6), IPV6_TABLE);
  if (what) return `${address} is ${what}`;
  const carried = embeddedIpv4(v6);
  const inner = carried && blockOf(ipv4Bits(parseIpv4(carried.ipv4)!), IPV4_TABLE);
  return inner && `${address} carries ${carried.ipv4}, ${inner}`;
}

/** A table's blocks as numbers: the first address shifted to its prefix, and the shift. */
type NumericBlock = readonly [prefix: bigint, shift: bigint, what: string];

const IPV4_TABLE: readonly NumericBlock[] = IPV4_BLOCKS.map(([first, bits, what]) => [
  ipv4Bits(parseIpv4(first)!) >> BigInt(32 - bits),
  BigInt(32 - bits),
  what,
]);
const IPV6_TABLE: readonly NumericBlock[] = IPV6_BLOCKS.map(([first, bits, what]) => [
  ipv6Bits(parseIpv6(first)!) >> BigInt(128 - bits),
  BigInt(128 - bits),
  what,
]);

/** What the first block holding `bits` is, or undefined. */
function blockOf(bits: bigint, table: readonly NumericBlock[]): string | undefined {
  return table.find(([prefix, shift]) => bits >> shift === prefix)?.[2];
}

function ipv4Bits(bytes: readonly number[]): bigint {
  return bytes.reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
}

function ipv6Bits(groups: readonly number[]): bigint {
  return groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
}
