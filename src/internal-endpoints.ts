// Endpoints that are not object stores but a machine's own inside services: the cloud instance
// metadata services (which hand out the machine's credentials) and link-local addresses. A web host
// that others can reach must not let a token holder point an "S3 connection" at them.

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Why the endpoint is refused (a metadata service, a link-local address, no URL at all), or undefined. */
export function internalEndpointProblem(endpoint: string): string | undefined {
  let host: string;
  try {
    host = new URL(endpoint).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return 'it is not a URL';
  }
  if (METADATA_NAMES.has(host.replace(/\.$/, ''))) return `${host} is a cloud metadata service`;
  return internalAddressProblem(host);
}

/**
 * Why an IP address is refused, or undefined: link-local (169.254/16, fe80::/10, where metadata
 * services live) and the known metadata addresses, also when written as IPv4-mapped or NAT64 IPv6.
 */
export function internalAddressProblem(address: string): string | undefined {
  const ip = address.toLowerCase().replace(/^\[|\]$/g, '');
  const v4 = embeddedIpv4(ip) ?? ip;
  if (/^169\.254\.\d{1,3}\.\d{1,3}$/.test(v4)) return `${address} is a link-local address (cloud metadata services live there)`;
  if (v4 === '100.100.100.200' || v4 === '192.0.0.192') return `${address} is a cloud metadata service`;
  if (/^fe[89ab][0-9a-f]:/.test(ip)) return `${address} is a link-local address`;
  // fd00:ec2::254 (EC2 instance metadata), fd00:ec2::23 (EKS Pod Identity) and the rest of AWS's block.
  if (/^fd00:ec2:/.test(ip)) return `${address} is a cloud metadata service`;
  return undefined;
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d, ::ffff:a9fe:a9fe), IPv4-compatible or NAT64 (64:ff9b::) IPv6 one. */
function embeddedIpv4(ip: string): string | undefined {
  const match = /^(?:::ffff:|::|64:ff9b::)(?:(\d{1,3}(?:\.\d{1,3}){3})|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(ip);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}
