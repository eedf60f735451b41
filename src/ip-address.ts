// IP addresses as numbers, and the IPv4 address inside the IPv6 forms that carry one.
//
// One address has many spellings: 169.254.169.254 is also ::ffff:a9fe:a9fe, ::ffff:0:a9fe:a9fe,
// 64:ff9b::a9fe:a9fe, 64:ff9b:1::a9fe:a9fe, 2002:a9fe:a9fe::, ::169.254.169.254... A check that reads
// the text misses some of them; this reads the address once, into its eight 16-bit groups, and finds
// the IPv4 address wherever a standard puts one.

/** An IPv4 address as its four bytes (a.b.c.d), or undefined when `text` is not one in dotted form. */
export function parseIpv4(text: string): readonly [number, number, number, number] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255))
    return undefined;
  return parts.map(Number) as unknown as [number, number, number, number];
}

/**
 * An IPv6 address as its eight 16-bit groups, or undefined when `text` is not one. Takes "::",
 * a dotted IPv4 tail (::ffff:1.2.3.4), brackets ([::1]) and a zone (fe80::1%eth0), in any case.
 */
export function parseIpv6(text: string): readonly number[] | undefined {
  let address = text
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  // A dotted IPv4 tail is two groups.
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail) {
    const v4 = parseIpv4(tail[2]!);
    if (!v4) return undefined;
    address = `${tail[1]}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0]!);
  const rest = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return all.map((group) => parseInt(group, 16));
}

/** How an IPv6 address carries an IPv4 one, by the standard that puts it there. */
export type Ipv4Embedding = 'mapped' | 'translated' | 'compatible' | 'nat64' | 'nat64-local' | '6to4' | 'teredo';

/**
 * The IPv4 address an IPv6 address carries, and how: IPv4-mapped (::ffff:0:0/96), IPv4-translated
 * (::ffff:0:0:0/96, RFC 2765), IPv4-compatible (::/96, deprecated but still dialled), NAT64's
 * well-known prefix (64:ff9b::/96) and its local-use one (64:ff9b:1::/48, with the address in the
 * last 32 bits, as the common /96 translators put it), 6to4 (2002::/16, the next 32 bits) and Teredo
 * (2001::/32: the client's address, in the last 32 bits with every bit inverted).
 */
export function embeddedIpv4(
  groups: readonly number[],
): { readonly ipv4: string; readonly embedding: Ipv4Embedding } | undefined {
  const g = (i: number) => groups[i]!;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const last = v4(g(6), g(7));
  if (zeros(0, 5) && g(5) === 0xffff) return { ipv4: last, embedding: 'mapped' };
  if (zeros(0, 4) && g(4) === 0xffff && g(5) === 0) return { ipv4: last, embedding: 'translated' };
  if (zeros(0, 6)) return { ipv4: last, embedding: 'compatible' };
  if (g(0) === 0x64 && g(1) === 0xff9b && zeros(2, 6)) return { ipv4: last, embedding: 'nat64' };
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 1) return { ipv4: last, embedding: 'nat64-local' };
  if (g(0) === 0x2002) return { ipv4: v4(g(1), g(2)), embedding: '6to4' };
  if (g(0) === 0x2001 && g(1) === 0) return { ipv4: v4(g(6) ^ 0xffff, g(7) ^ 0xffff), embedding: 'teredo' };
  return undefined;
}

/** Embeddings whose address is dialled as the IPv4 address itself, on this machine: no relay between. */
const SAME_HOST: ReadonlySet<Ipv4Embedding> = new Set(['mapped', 'translated', 'compatible']);

/**
 * One spelling per host a socket reaches: an IPv4 address dotted, an IPv6 address as its eight
 * groups in hex, and an IPv6 form that is dialled as an IPv4 address (::ffff:1.2.3.4) as that IPv4
 * address. Undefined when `text` is no address.
 */
export function canonicalAddress(text: string): string | undefined {
  const v4 = parseIpv4(text);
  if (v4) return v4.join('.');
  const v6 = parseIpv6(text);
  if (!v6) return undefined;
  const carried = embeddedIpv4(v6);
  return carried && SAME_HOST.has(carried.embedding) ? carried.ipv4 : v6.map((group) => group.toString(16)).join(':');
}
