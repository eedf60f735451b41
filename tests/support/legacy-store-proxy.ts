// A proxy that makes the test server behave like the large family of S3-compatible stores that
// predate S3's flexible checksums (Ceph's RGW 16.2, probed in ../shared/LAB.md):
// - x-amz-checksum-* and x-amz-sdk-checksum-* request headers are dropped, so the store neither
//   checks nor echoes a CRC; CompleteMultipartUpload's part checksums too;
// - answers carry no x-amz-checksum-* header and no checksum in their XML;
// - HEAD ?partNumber=N answers with the whole object and no x-amz-mp-parts-count;
// - CompleteMultipartUpload answers with an empty <ETag>;
// - ListParts of an upload that is gone answers NoSuchKey (404), not NoSuchUpload.
// Content-MD5 and a signed x-amz-content-sha256 still reach the store, which checks them, as RGW does.
//
// It can also be a store that refuses S3's flexible-checksum headers (`refuseChecksumHeaders`): any
// request carrying x-amz-checksum-* (but x-amz-checksum-mode), x-amz-sdk-checksum-* or x-amz-trailer
// is answered 501 NotImplemented, naming no header, or 400 InvalidArgument naming it; one that
// refuses a DeleteObjects without Content-MD5 (`deleteNeedsContentMd5`); or refuse whatever a test
// names (`refuse`). Refused requests never reach the test server.
//
// Changing a signed request breaks its signature, so the proxy signs every request again with the
// test server's credentials (keeping the payload hash the client signed: a damaged body still fails
// against it). It can also flip one byte of request bodies (PUT) or of GET bodies on the way: the
// damage that TCP did not catch.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from '../../main/engine/s3/s3-wire.ts';
import { resignForServer } from './resign-for-server.ts';
import { flipByteAt } from './fault-proxy.ts';

/** A request as the proxy saw it: what it asked, the headers that matter for checks, and the answer. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly contentMd5: boolean;
  readonly sha256Signed: boolean;
  /** The flexible-checksum headers it carried, by name (lower case). */
  readonly checksumHeaders: readonly string[];
  /** Its body was aws-chunked (a checksum after the body). */
  readonly chunked: boolean;
  status?: number;
  /** The code of the proxy's own refusal, when the request never reached the store. */
  refused?: string;
}

/** An S3 error answer the proxy gives itself. */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** Named as AWS names it in a NotImplemented answer (<Header>). */
  readonly header?: string;
  /** Named as AWS names it in an InvalidArgument answer (<ArgumentName>). */
  readonly argumentName?: string;
}

export interface LegacyStoreProxy {
  readonly endpoint: string;
  /** Behave as a store that ignores flexible checksums (true), or pass everything through (false). */
  legacy: boolean;
  /** Flip the byte at this offset of every PUT body / GET body, while set. */
  flipRequests: number | undefined;
  flipResponses: number | undefined;
  /** Refuse every request carrying a flexible-checksum header: 501 NotImplemented, or 400 InvalidArgument naming it. */
  refuseChecksumHeaders: 'NotImplemented' | 'InvalidArgument' | undefined;
  /** Refuse a DeleteObjects without Content-MD5 (400 MissingContentMD5). */
  deleteNeedsContentMd5: boolean;
  /** Refuse what this answers for; undefined passes the request on (once a promise of it settles, if it is one). */
  refuse:
    | ((
        request: SeenRequest,
        headers: Readonly<Record<string, string>>,
      ) => Refusal | undefined | Promise<Refusal | undefined>)
    | undefined;
  /** Requests seen: method, path and query, and the headers that matter for checks. */
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * The headers of S3's flexible checksums that such stores refuse (asking for checksums back, x-amz-checksum-mode, is
 * not one).
 */
export const CHECKSUM_REQUEST_HEADER = /^(x-amz-checksum-(?!mode$)|x-amz-sdk-checksum-|x-amz-trailer$)/i;

/** Which refusal, if any, the proxy's settings give this request. */
async function refusalFor(
  state: RefusalSettings,
  request: SeenRequest,
  headers: Readonly<Record<string, string>>,
  isDeleteObjects: boolean,
): Promise<Refusal | undefined> {
  const named = request.checksumHeaders[0];
  if (state.refuseChecksumHeaders === 'NotImplemented' && named) {
    return {
      status: 501,
      code: 'NotImplemented',
      message: 'A header you provided implies functionality that is not implemented',
    };
  }
  if (state.refuseChecksumHeaders === 'InvalidArgument' && named) {
    return {
      status: 400,
      code: 'InvalidArgument',
      message: `Unsupported header ${named} received for this API call.`,
      argumentName: named,
    };
  }
  if (state.deleteNeedsContentMd5 && isDeleteObjects && !request.contentMd5) {
    return { status: 400, code: 'MissingContentMD5', message: 'DeleteObjects requires one valid Content-MD5 header' };
  }
  return state.refuse?.(request, headers);
}

interface RefusalSettings {
  refuseChecksumHeaders: LegacyStoreProxy['refuseChecksumHeaders'];
  deleteNeedsContentMd5: boolean;
  refuse: LegacyStoreProxy['refuse'];
}

function refusalBody(refusal: Refusal): Buffer {
  const header = refusal.header ? `<Header>${refusal.header}</Header>` : '';
  const argument = refusal.argumentName ? `<ArgumentName>${refusal.argumentName}</ArgumentName>` : '';
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message>${header}${argument}<RequestId>proxy</RequestId></Error>`,
  );
}

const DROPPED_REQUEST_HEADER =
  /^(x-amz-checksum-(?!mode$)|x-amz-sdk-checksum-|x-amz-trailer$|authorization$|x-amz-date$|connection$|keep-alive$)/i;
const SIGNATURE_HEADER = /^(authorization$|x-amz-date$|connection$|keep-alive$)/i;
const DROPPED_RESPONSE_HEADER = /^(x-amz-checksum-|x-amz-mp-parts-count$)/i;
const XML_CHECKSUM = /<Checksum(CRC32C|CRC32|CRC64NVME|SHA1|SHA256|Type)>[^<]*<\/Checksum\1>/g;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startLegacyStoreProxy(
  upstream: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  region = 'us-east-1',
): Promise<LegacyStoreProxy> {
  const target = new URL(upstream);
  const signer = new SignatureV4({
    service: 's3',
    region,
    credentials,
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const seen: LegacyStoreProxy['seen'] = [];
  const state = {
    legacy: true,
    flipRequests: undefined as number | undefined,
    flipResponses: undefined as number | undefined,
    refuseChecksumHeaders: undefined as LegacyStoreProxy['refuseChecksumHeaders'],
    deleteNeedsContentMd5: false,
    refuse: undefined as LegacyStoreProxy['refuse'],
  };

  const server = http.createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(String(error));
    });
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://proxy');
    const method = request.method ?? 'GET';
    // A store that cannot answer for one part answers for the whole object.
    const legacy = state.legacy;
    if (legacy && (method === 'HEAD' || method === 'GET')) url.searchParams.delete('partNumber');
    const isComplete = legacy && method === 'POST' && url.searchParams.has('uploadId');
    const isListParts = legacy && method === 'GET' && url.searchParams.has('uploadId');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || (legacy ? DROPPED_REQUEST_HEADER : SIGNATURE_HEADER).test(name)) continue;
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
    }
    headers.host = target.host;
    const record: SeenRequest = {
      method,
      url: url.pathname + url.search,
      contentMd5: 'content-md5' in headers,
      sha256Signed: /^[0-9a-f]{64}$/.test(headers['x-amz-content-sha256'] ?? ''),
      checksumHeaders: Object.keys(request.headers)
        .filter((name) => CHECKSUM_REQUEST_HEADER.test(name))
        .map((name) => name.toLowerCase()),
      chunked: /aws-chunked/.test(String(request.headers['content-encoding'] ?? '')),
    };
    seen.push(record);
    const refusal = await refusalFor(state, record, headers, method === 'POST' && url.searchParams.has('delete'));
    if (refusal) {
      record.status = refusal.status;
      record.refused = refusal.code;
      // Answered before the body is read, as a store refusing on its headers does; the rest of the
      // body is read and dropped, so the client's socket stays usable.
      request.resume();
      const out = refusalBody(refusal);
      response.writeHead(refusal.status, { 'content-type': 'application/xml', 'content-length': String(out.length) });
      response.end(out);
      return;
    }
    let body: Buffer | NodeJS.ReadableStream | undefined;
    if (isComplete) {
      // The part checksums go: the store would not have kept any.
      const text = (await readAll(request)).toString('utf8').replace(XML_CHECKSUM, '');
      body = Buffer.from(text);
      headers['content-length'] = String(body.length);
      if (/^[0-9a-f]{64}$/.test(headers['x-amz-content-sha256'] ?? ''))
        headers['x-amz-content-sha256'] = createHash('sha256').update(body).digest('hex');
    } else if (method === 'PUT' || method === 'POST') {
      body =
        state.flipRequests !== undefined && method === 'PUT' ? request.pipe(flipByteAt(state.flipRequests)) : request;
    } else {
      request.resume();
    }
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) query[name] = value;
    const signed = await resignForServer(signer, target, method, url.pathname, query, headers);
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
        record.status = upstreamResponse.statusCode;
        const answer: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(upstreamResponse.headers)) {
          if (value !== undefined && !(legacy && DROPPED_RESPONSE_HEADER.test(name))) answer[name] = value;
        }
        if ((isComplete || isListParts) && upstreamResponse.statusCode === 200) {
          void readAll(upstreamResponse).then((raw) => {
            let text = raw.toString('utf8').replace(XML_CHECKSUM, '');
            // RGW 16.2 answers CompleteMultipartUpload with an empty ETag.
            if (isComplete) text = text.replace(/<ETag>[^<]*<\/ETag>/, '<ETag></ETag>');
            const out = Buffer.from(text);
            delete answer['transfer-encoding'];
            answer['content-length'] = String(out.length);
            response.writeHead(200, answer);
            response.end(out);
          });
          return;
        }
        if (legacy && isListParts && upstreamResponse.statusCode === 404) {
          // RGW 16.2 names a gone upload's parts as a missing key.
          upstreamResponse.resume();
          const out = Buffer.from(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message></Message></Error>',
          );
          response.writeHead(404, { 'content-type': 'application/xml', 'content-length': String(out.length) });
          response.end(out);
          return;
        }
        response.writeHead(upstreamResponse.statusCode ?? 502, answer);
        const flip = state.flipResponses;
        const damage =
          method === 'GET' &&
          flip !== undefined &&
          (upstreamResponse.statusCode === 200 || upstreamResponse.statusCode === 206) &&
          !url.searchParams.has('list-type');
        (damage ? upstreamResponse.pipe(flipByteAt(flip)) : upstreamResponse).pipe(response);
      },
    );
    outgoing.on('error', (error) => response.destroy(error));
    response.on('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    if (body === undefined) outgoing.end();
    else if (Buffer.isBuffer(body)) outgoing.end(body);
    else body.pipe(outgoing);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get legacy() {
      return state.legacy;
    },
    set legacy(value) {
      state.legacy = value;
    },
    get flipRequests() {
      return state.flipRequests;
    },
    set flipRequests(value) {
      state.flipRequests = value;
    },
    get flipResponses() {
      return state.flipResponses;
    },
    set flipResponses(value) {
      state.flipResponses = value;
    },
    get refuseChecksumHeaders() {
      return state.refuseChecksumHeaders;
    },
    set refuseChecksumHeaders(value) {
      state.refuseChecksumHeaders = value;
    },
    get deleteNeedsContentMd5() {
      return state.deleteNeedsContentMd5;
    },
    set deleteNeedsContentMd5(value) {
      state.deleteNeedsContentMd5 = value;
    },
    get refuse() {
      return state.refuse;
    },
    set refuse(value) {
      state.refuse = value;
    },
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
