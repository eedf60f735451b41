// Endpoints that are not object stores but a machine's own inside services: the cloud instance
// metadata services (which hand out the machine's credentials) and link-local addresses. A web host
// that others can reach must not let a token holder point an "S3 connection" at them.

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Why the endpoint is refused (a metadata service, a link-local address), or undefined. */
export function internalEndpointProblem(endpoint: string): string | undefined {
  let host: string;
  try {
    host = new URL(endpoint).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
  if (METADATA_NAMES.has(host.replace(/\.$/, ''))) return `${host} is a cloud metadata service`;
  if (/^169\.254\.\d{1,3}\.\d{1,3}$/.test(host)) return `${host} is a link-local address (cloud metadata services live there)`;
  if (host === '100.100.100.200') return `${host} is a cloud metadata service`;
  if (/^fe[89ab][0-9a-f]:/.test(host)) return `${host} is a link-local address`;
  if (host === 'fd00:ec2::254') return `${host} is a cloud metadata service`;
  return undefined;
}
