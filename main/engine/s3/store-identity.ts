// Whether two connections reach one store, told from their endpoints.
//
// A move between two connections deletes its source after streaming it to the other: if both are one
// store and the names are the same, that deletes the only copy. Endpoints written differently are one
// store all the same: the host's case, a default port written or not, the loopback names (localhost,
// 127.0.0.1, ::1), a trailing slash, and every AWS endpoint (none given, s3.amazonaws.com, a regional
// one: bucket names are global there). This cannot see a proxy or a DNS alias in front of the same
// store; the move checks the source again before deleting it for that (jobs/move-guard.ts).

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const AWS_HOST = /(^|\.)amazonaws\.com$/;
const AWS_CHINA_HOST = /(^|\.)amazonaws\.com\.cn$/;

/** One name for the store an endpoint reaches (undefined: AWS's default). */
export function storeIdentity(endpoint: string | undefined): string {
  if (endpoint === undefined || endpoint.trim() === '') return 'aws';
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    return endpoint.trim().replace(/\/+$/, '').toLowerCase();
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (AWS_CHINA_HOST.test(host)) return 'aws-cn';
  if (AWS_HOST.test(host)) return 'aws';
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${LOOPBACK_HOSTS.has(host) ? 'loopback' : host}:${port}${path}`;
}

/** Whether two endpoints reach one store, as far as their addresses tell. */
export function sameStore(a: string | undefined, b: string | undefined): boolean {
  return storeIdentity(a) === storeIdentity(b);
}
