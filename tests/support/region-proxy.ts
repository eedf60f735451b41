// A proxy that makes the test server answer as AWS does for buckets in other regions.
//
// Each bucket named in `regions` is "in" that region; every other bucket is in the test server's
// own. A request for a bucket signed for another region (its SigV4 scope, in the Authorization
// header or a presigned link's X-Amz-Credential) is refused as AWS refuses it, with
// x-amz-bucket-region:
// - 'malformed' (AWS on a regional endpoint): 400 AuthorizationHeaderMalformed naming the region in
//   <Region>; a HEAD gets a bare 400 (a HEAD's answer has no body);
// - 'redirect' (AWS on another region's endpoint): 301 PermanentRedirect; a HEAD a bare 301.
// HEAD Bucket signed for the right region answers 200 with x-amz-bucket-region, as AWS does.
// ListBuckets is answered in any region, as AWS answers it. `lie` makes the store name that text
// instead of the bucket's region (a store that lies). Requests that pass are signed again for the
// test server (keeping the payload hash the client signed, as legacy-store-proxy.ts does).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from '../../main/engine/s3/s3-wire.ts';
import { resignForServer } from './resign-for-server.ts';

export type RegionRefusal = 'malformed' | 'redirect';

export interface RegionProxy {
  readonly endpoint: string;
  /** How a request signed for the wrong region is refused. */
  refusal: RegionRefusal;
  /** Named instead of the bucket's region when refusing, and in HEAD Bucket's answer, while set. */
  lie: string | undefined;
  /** Every request: method, path and query, the region it was signed for, and whether it was refused for it. */
  readonly seen: {
    method: string;
    url: string;
    bucket: string | undefined;
    signedRegion: string | undefined;
    refused: boolean;
    range?: string;
  }[];
  /** The requests for `bucket` refused for their region. */
  refusedFor(bucket: string): number;
  close(): Promise<void>;
}

const SIGNATURE_HEADER = /^(authorization$|x-amz-date$|x-amz-security-token$|connection$|keep-alive$)/i;
/** A presigned link's own parameters, dropped when the request is signed again for the server. */
const PRESIGN_PARAMETER = /^X-Amz-(Algorithm|Credential|Date|Expires|SignedHeaders|Signature|Security-Token)$/i;

/** The region a request was signed for: its SigV4 credential scope (key/date/region/s3/aws4_request). */
function signedRegionOf(request: http.IncomingMessage, url: URL): string | undefined {
  const credential =
    /Credential=([^,\s]+)/.exec(request.headers.authorization ?? '')?.[1] ??
    url.searchParams.get('X-Amz-Credential') ??
    undefined;
  return credential?.split('/')[2];
}

export async function startRegionProxy(
  upstream: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  serverRegion: string,
  regions: Readonly<Record<string, string>>,
): Promise<RegionProxy> {
  const target = new URL(upstream);
  const signer = new SignatureV4({
    service: 's3',
    region: serverRegion,
    credentials,
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const seen: RegionProxy['seen'] = [];
  const state = { refusal: 'malformed' as RegionRefusal, lie: undefined as string | undefined };
  const regionOf = (bucket: string) => regions[bucket] ?? serverRegion;

  const server = http.createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(String(error));
    });
  });

  function refuse(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    bucket: string,
    signedRegion: string | undefined,
  ): void {
    const named = state.lie ?? regionOf(bucket);
    const status = state.refusal === 'redirect' ? 301 : 400;
    const headers: Record<string, string> = { 'x-amz-bucket-region': named, 'content-type': 'application/xml' };
    // AWS reads the whole body of a refused upload before it answers: so does this proxy.
    request.resume();
    request.once('end', () => {
      if (request.method === 'HEAD') {
        response.writeHead(status, headers);
        response.end();
        return;
      }
      const body =
        state.refusal === 'redirect'
          ? `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PermanentRedirect</Code><Message>The bucket you are attempting to access must be addressed using the specified endpoint. Please send all future requests to this endpoint.</Message><Endpoint>${bucket}.s3.${named}.amazonaws.com</Endpoint><Bucket>${bucket}</Bucket><RequestId>0</RequestId><HostId>0</HostId></Error>`
          : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AuthorizationHeaderMalformed</Code><Message>The authorization header is malformed; the region '${signedRegion ?? ''}' is wrong; expecting '${named}'</Message><Region>${named}</Region><RequestId>0</RequestId><HostId>0</HostId></Error>`;
      response.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
      response.end(body);
    });
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://proxy');
    const method = request.method ?? 'GET';
    // Path-style: the bucket is the first segment (none for ListBuckets).
    const bucket = decodeURIComponent(url.pathname.split('/')[1] ?? '') || undefined;
    const signedRegion = signedRegionOf(request, url);
    const refused = bucket !== undefined && signedRegion !== regionOf(bucket);
    seen.push({
      method,
      url: url.pathname + url.search,
      bucket,
      signedRegion,
      refused,
      ...(request.headers.range ? { range: request.headers.range } : {}),
    });
    if (refused) return refuse(request, response, bucket, signedRegion);

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || SIGNATURE_HEADER.test(name)) continue;
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
    }
    headers.host = target.host;
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) if (!PRESIGN_PARAMETER.test(name)) query[name] = value;
    // A presigned GET carries no payload hash of its own.
    headers['x-amz-content-sha256'] ??= 'UNSIGNED-PAYLOAD';
    const signed = await resignForServer(signer, target, method, url.pathname, query, headers);
    const isHeadBucket =
      method === 'HEAD' && bucket !== undefined && url.pathname.replace(/\/$/, '') === `/${encodeURIComponent(bucket)}`;
    const outgoing = http.request(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: signed.path,
        headers: signed.headers,
        agent,
      },
      (upstreamResponse) => {
        const answer: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(upstreamResponse.headers))
          if (value !== undefined) answer[name] = value;
        if (isHeadBucket && bucket !== undefined) answer['x-amz-bucket-region'] = state.lie ?? regionOf(bucket);
        response.writeHead(upstreamResponse.statusCode ?? 502, answer);
        upstreamResponse.pipe(response);
      },
    );
    outgoing.on('error', (error) => response.destroy(error));
    response.on('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    request.pipe(outgoing);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get refusal() {
      return state.refusal;
    },
    set refusal(value) {
      state.refusal = value;
    },
    get lie() {
      return state.lie;
    },
    set lie(value) {
      state.lie = value;
    },
    seen,
    refusedFor: (bucket) => seen.filter((request) => request.bucket === bucket && request.refused).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
