// A request a test proxy changed, signed again for the test server.
//
// A proxy that changes a signed request (drops a header, rewrites a body) breaks its signature, so it
// signs it again with the server's credentials. The payload hash the client signed is kept: a body
// damaged on the way still fails against it, as it would at a real store.

import type { SignatureV4 } from '@smithy/signature-v4';

/** RFC 3986 encoding of one query name or value, as SigV4's canonical request wants it. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The path (with its query) and the signed headers of `method pathname?query` to `target`. */
export async function resignForServer(
  signer: SignatureV4,
  target: URL,
  method: string,
  pathname: string,
  query: Readonly<Record<string, string>>,
  headers: Record<string, string>,
): Promise<{ path: string; headers: Record<string, string> }> {
  const signed = await signer.sign({
    method,
    protocol: target.protocol,
    hostname: target.hostname,
    port: Number(target.port) || undefined,
    path: pathname,
    query: { ...query },
    headers,
  });
  const search = Object.entries(query)
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .join('&');
  return { path: pathname + (search ? `?${search}` : ''), headers: signed.headers };
}
