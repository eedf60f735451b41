// The data plane on the wire: PutObject and UploadPart sent straight over Node's HTTP agent, and
// GetObject over raw sockets (direct-get.ts), signed with the SDK's credentials by a lean SigV4 signer
// that gives the SDK signer's signatures (lean-signer.ts).
//
// Why not the SDK client: its middleware stack costs about 1.7 ms of CPU per request (measured:
// 5.2 s of CPU for 2,000 small files, against 1.8 s here), and on small objects that CPU, not the
// network or the server, set the pace. Everything else (listing, deletes, multipart control, buckets)
// is one request per thousand objects or per file, and stays on the SDK.
//
// Errors come back shaped like the SDK's (`name` is S3's error code, `$metadata.httpStatusCode`,
// `$response.headers`), so retry classification and messages treat both paths alike.
//
// Each request goes to its bucket's region (bucket-regions.ts): signed for it, and on AWS sent to its
// regional endpoint; a refusal for the region teaches the connection where the bucket is.

import { createHash, createHmac } from 'node:crypto';
import type { Agent as HttpAgent, ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { http, https } from './node-http.ts';
import type { LookupFunction } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, Provider, SourceData } from '@smithy/types';
import { abortError } from '../queue/retry-policy.ts';
import { currentRequest } from '../queue/request-signals.ts';
import { decodeXmlEntities } from '../../../src/xml-entities.ts';
import type { StreamedBody } from '../disk/streamed-body.ts';

import { etagIsNotDigest, reportedChecksums } from '../integrity/store-answers.ts';
import type { StoredObject } from '../integrity/store-answers.ts';

export type { StreamedBody } from '../disk/streamed-body.ts';
export { etagIsNotDigest, reportedChecksums } from '../integrity/store-answers.ts';
export type { ReportedAlgorithm, StoredObject } from '../integrity/store-answers.ts';
import { DirectGetPool } from './direct-get.ts';
import { escapeUri, LeanSigner } from './lean-signer.ts';
import type { ByteGate } from '../queue/byte-gate.ts';
import { parseObjectSize } from './object-size.ts';
import type { BodySink } from './direct-get.ts';
import type { BucketRegions } from './bucket-regions.ts';
import { endpointFor } from './regional-endpoint.ts';
import { isRegion, REGION_RULE } from '../../../src/region.ts';
import { BargeError } from '../../../src/errors.ts';

function toBytes(data: SourceData): string | Uint8Array {
  return typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);
}

/** Node's hashes behind the interface the signer expects. */
export class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac('sha256', toBytes(secret)) : createHash('sha256');
  }
  update(data: SourceData): void {
    this.hash.update(toBytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
}

export interface WireOptions {
  /** The custom endpoint, or undefined for AWS (regional endpoint). */
  readonly endpoint: string | undefined;
  /** The region of every request, where `regions` is not given. */
  readonly region: string;
  /** Where each bucket is: its requests are signed for, and on AWS sent to, its region. */
  readonly regions?: BucketRegions;
  readonly pathStyle: boolean;
  readonly credentials: Provider<AwsCredentialIdentity>;
  readonly httpAgent: HttpAgent;
  readonly httpsAgent: HttpsAgent;
  /** What every body byte passes, both ways (queue/byte-gate.ts): counted, and held to the Max speed. */
  readonly gate?: ByteGate;
  /** The agents' name resolution, for one-off sockets too (addresses a host refuses). */
  readonly lookup?: LookupFunction;
  /** A socket quiet for this long fails the request (retried by the engine). */
  readonly stallTimeoutMs: number;
  /** What a refused request's error becomes, given the headers it carried (the connection learns from it). */
  readonly failed?: (error: Error, headers: Readonly<Record<string, string>>) => unknown;
}

interface WireRequest {
  readonly method: 'GET' | 'PUT' | 'HEAD';
  readonly bucket: string;
  readonly key: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer | StreamedBody;
  readonly contentLength?: number;
  readonly signal?: AbortSignal;
  /**
   * On a connection of its own rather than a pooled one: for a retry, since the pooled connection
   * it would get may be as worn as the one that broke (a middlebox that cuts long connections).
   */
  readonly fresh?: boolean;
}

const ERROR_BODY_LIMIT_BYTES = 64 * 1024;
/** The SHA-256 of no bytes: every request without a body signs it (GETs, HEADs, listings). */
const EMPTY_SHA256 = createHash('sha256').digest('hex');
/** The longest a sent body's drain may be waited for. */
const MAX_DRAIN_MS = 30 * 60 * 1000;
const MIB_BYTES = 1024 * 1024;

/** RFC 3986 encoding of one path segment, as S3's canonical request wants it. */
/** A path segment or query part as it is signed (lean-signer.ts): the wire sends what was signed. */
const encodeSegment = escapeUri;

function isDnsCompatible(bucket: string): boolean {
  return /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket);
}

/** Where one request goes: the region it is signed for, and the base URL it is sent to. */
interface Place {
  readonly region: string;
  readonly base: URL;
}

export class S3Wire {
  /** Presigned URLs (rare): the SDK's signer. */
  private readonly signer: SignatureV4;
  /** Every request of the data plane: the same signatures, a tenth of the CPU (lean-signer.ts). */
  private readonly leanSigner: LeanSigner;
  private readonly options: WireOptions;
  /** Each region's base URL (one for a custom endpoint, one per region on AWS). */
  private readonly bases = new Map<string, URL>();
  /** Server time minus local time, learnt from a RequestTimeTooSkewed answer. */
  private clockOffsetMs = 0;
  /** A socket quiet for this long fails the request; follows the setting. */
  stallTimeoutMs: number;
  /** Sockets of GETs whose bodies go straight into files (direct-get.ts). */
  private readonly directGets = new DirectGetPool();

  constructor(options: WireOptions) {
    this.options = options;
    this.stallTimeoutMs = options.stallTimeoutMs;
    // The region names the host requests go to: one that is no region could name any host.
    if (!isRegion(options.region))
      throw new BargeError('InvalidRegion', `"${options.region.slice(0, 80)}" is not a region: ${REGION_RULE}.`);
    this.signer = new SignatureV4({
      service: 's3',
      region: options.region,
      credentials: options.credentials,
      sha256: NodeSha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
    this.leanSigner = new LeanSigner('s3', options.credentials);
  }

  /** Where a request for `bucket` goes now (its region once learnt; the default until then). */
  private async placeOf(bucket: string): Promise<Place> {
    return this.place(this.options.regions ? await this.options.regions.regionFor(bucket) : this.options.region);
  }

  private place(region: string): Place {
    let base = this.bases.get(region);
    if (base === undefined) {
      base = endpointFor(this.options.endpoint, region);
      this.bases.set(region, base);
    }
    return { region, base };
  }

  /** After a failed request: a refusal for the region teaches the bucket's region (and marks the error to go again). */
  private async learnFrom(error: unknown, bucket: string, place: Place, head: boolean): Promise<void> {
    await this.options.regions?.afterFailure(bucket, place.region, error, head);
  }

  /**
   * A HEAD Bucket's x-amz-bucket-region, from any answer (AWS sends it with 200, 301, 400 and 403),
   * signed for the default region. Rejects only when no answer came.
   */
  async askBucketRegion(bucket: string): Promise<string | undefined> {
    try {
      const response = await this.exchange({ method: 'HEAD', bucket, key: '' }, this.place(this.options.region));
      response.resume();
      const named = response.headers['x-amz-bucket-region'];
      return typeof named === 'string' ? named : undefined;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === undefined) throw error;
      const named = (error as { $response?: { headers?: IncomingHttpHeaders } }).$response?.headers?.[
        'x-amz-bucket-region'
      ];
      return typeof named === 'string' ? named : undefined;
    }
  }

  async putObject(
    bucket: string,
    key: string,
    body: Buffer | StreamedBody,
    contentLength: number,
    headers: Record<string, string>,
    signal?: AbortSignal,
    fresh = false,
  ): Promise<StoredObject> {
    const response = await this.send({ method: 'PUT', bucket, key, body, contentLength, headers, signal, fresh });
    response.resume();
    return storedObject(response.headers);
  }

  async uploadPart(
    bucket: string,
    key: string,
    uploadId: string,
    partNumber: number,
    body: StreamedBody,
    contentLength: number,
    signal?: AbortSignal,
    headers?: Record<string, string>,
    fresh = false,
  ): Promise<StoredObject & { etag: string }> {
    const response = await this.send({
      method: 'PUT',
      bucket,
      key,
      query: { partNumber: String(partNumber), uploadId },
      body,
      contentLength,
      headers,
      signal,
      fresh,
    });
    response.resume();
    // Without its ETag a part cannot be named in CompleteMultipartUpload: fail it now (and retry).
    if (!response.headers.etag)
      throw Object.assign(new Error(`The store sent no ETag for part ${partNumber}.`), { name: 'IncompleteBody' });
    return { ...storedObject(response.headers), etag: response.headers.etag };
  }

  /**
   * An object's headers, with its checksums (x-amz-checksum-mode); `partNumber` asks about one part
   * (its size, and the number of parts in x-amz-mp-parts-count).
   */
  async headObject(
    bucket: string,
    key: string,
    options: { partNumber?: number; ifMatch?: string; signal?: AbortSignal; versionId?: string },
  ): Promise<IncomingHttpHeaders> {
    const headers: Record<string, string> = { 'x-amz-checksum-mode': 'ENABLED' };
    if (options.ifMatch) headers['if-match'] = options.ifMatch;
    const query = versionQuery(options.versionId, options.partNumber);
    const response = await this.send({ method: 'HEAD', bucket, key, query, headers, signal: options.signal });
    response.resume();
    return response.headers;
  }

  /**
   * A GET whose body goes to `sink` as it arrives, without Node's HTTP client (direct-get.ts): how
   * downloads fetch their ranges. Resolves with the answer's headers once the whole body is in the sink.
   */
  async getObjectInto(
    bucket: string,
    key: string,
    options: { range?: [number, number]; ifMatch?: string; signal?: AbortSignal; fresh?: boolean; versionId?: string },
    sink: BodySink,
  ): Promise<IncomingHttpHeaders> {
    const headers: Record<string, string> = { 'x-amz-checksum-mode': 'ENABLED' };
    if (options.range) headers.range = `bytes=${options.range[0]}-${options.range[1]}`;
    if (options.ifMatch) headers['if-match'] = options.ifMatch;
    if (options.signal?.aborted) throw abortError();
    const place = await this.placeOf(bucket);
    const query = versionQuery(options.versionId);
    const signed = await this.signed({ method: 'GET', bucket, key, headers, ...(query ? { query } : {}) }, place);
    const secure = place.base.protocol === 'https:';
    // The socket is not read while a chunk waits at the gate (direct-get.ts: no stall while it does).
    const gate = this.options.gate;
    const answer = await this.directGets.get(
      {
        secure,
        hostname: signed.hostname,
        port: place.base.port ? Number(place.base.port) : secure ? 443 : 80,
        path: signed.path,
        headers: signed.headers,
        signal: options.signal,
        stallMs: this.stallTimeoutMs,
        fresh: options.fresh,
        lookup: this.options.lookup,
      },
      {
        accept(head) {
          // A store that ignores Range sends the whole object: written at the range's offset, it would
          // corrupt the file.
          if (options.range && head.status !== 206) {
            throw Object.assign(
              new Error(`Asked for a byte range, got HTTP ${head.status} (the store ignored Range).`),
              { name: 'RangeIgnored' },
            );
          }
          sink.accept(head);
        },
        write: gate
          ? (chunk) => {
              const held = gate.down(chunk.length, options.signal);
              return held ? held.then(() => sink.write(chunk)) : sink.write(chunk);
            }
          : (chunk) => sink.write(chunk),
      },
    );
    if (answer.errorText !== undefined) {
      const error = this.errorOf(answer.head.status, answer.head.headers, answer.errorText);
      await this.learnFrom(error, bucket, place, false);
      throw error;
    }
    return answer.head.headers;
  }

  /** Close the sockets this wire keeps of its own (the agents' are closed with them). */
  close(): void {
    this.directGets.close();
  }

  /**
   * One ListObjectsV2 page, parsed here: the SDK's generic XML deserializer took about 50 ms of CPU
   * per page of 1,000 keys (measured), which made a listing CPU-bound.
   */
  async listObjectsV2(
    bucket: string,
    params: { prefix?: string; delimiter?: string; continuationToken?: string; startAfter?: string; maxKeys?: number },
    signal?: AbortSignal,
  ): Promise<ListObjectsV2Page> {
    const query: Record<string, string> = { 'list-type': '2', 'encoding-type': 'url' };
    if (params.prefix) query.prefix = params.prefix;
    if (params.delimiter) query.delimiter = params.delimiter;
    if (params.continuationToken) query['continuation-token'] = params.continuationToken;
    else if (params.startAfter) query['start-after'] = params.startAfter;
    if (params.maxKeys !== undefined) query['max-keys'] = String(params.maxKeys);
    const response = await this.send({ method: 'GET', bucket, key: '', query, signal });
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return parseListObjectsV2(Buffer.concat(chunks).toString('utf8'));
  }

  /** A link that lets anyone holding it GET the object until it expires (no credentials needed). */
  async presignGet(bucket: string, key: string, expiresInSeconds: number): Promise<string> {
    // Whoever follows the link cannot be redirected by it: the bucket's region is asked first if
    // nothing has said it yet.
    const { base, region } = this.place(
      this.options.regions ? (await this.options.regions.confirmed(bucket)).region : this.options.region,
    );
    const target = this.target(bucket, key, base);
    // A presigned request's payload is UNSIGNED-PAYLOAD (the server knows no body in advance); the
    // header only tells the signer so and must appear neither in the URL nor among signed headers.
    const signed = await this.signer.presign(
      {
        method: 'GET',
        protocol: base.protocol,
        hostname: target.hostname,
        port: base.port ? Number(base.port) : undefined,
        path: target.path,
        query: {},
        headers: { host: target.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      },
      {
        expiresIn: expiresInSeconds,
        signingRegion: region,
        signingDate: new Date(Date.now() + this.clockOffsetMs),
        unsignableHeaders: new Set(['x-amz-content-sha256']),
        unhoistableHeaders: new Set(['x-amz-content-sha256']),
      },
    );
    const query = Object.entries(signed.query ?? {})
      .map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(String(v))}`)
      .join('&');
    return `${base.protocol}//${target.host}${target.path}?${query}`;
  }

  /** Host and path of a request, path-style or virtual-hosted. */
  private target(bucket: string, key: string, base: URL): { hostname: string; host: string; path: string } {
    const virtualHost = !this.options.pathStyle && isDnsCompatible(bucket);
    const hostname = virtualHost ? `${bucket}.${base.hostname}` : base.hostname;
    const basePath = base.pathname.replace(/\/$/, '');
    const keyPath = key.split('/').map(encodeSegment).join('/');
    const bucketPath = virtualHost ? basePath : `${basePath}/${encodeSegment(bucket)}`;
    // A bucket-level request (a listing) has no key, and no slash after the bucket.
    const path = key === '' ? bucketPath || '/' : `${bucketPath}/${keyPath}`;
    return { hostname, host: base.port ? `${hostname}:${base.port}` : hostname, path };
  }

  private async send(request: WireRequest): Promise<IncomingMessage> {
    let place: Place | undefined;
    try {
      place = await this.placeOf(request.bucket);
      return await this.exchange(request, place);
    } catch (error) {
      // A streamed body that did not go out whole still holds a file open: release it on every failure.
      if (request.body && !Buffer.isBuffer(request.body)) await request.body.release();
      if (place) await this.learnFrom(error, request.bucket, place, request.method === 'HEAD');
      throw error;
    }
  }

  /** A request's host, path (with its query) and headers, signed for its place. */
  private async signed(
    request: Omit<WireRequest, 'signal' | 'fresh'>,
    place: Place,
  ): Promise<{ hostname: string; path: string; headers: Record<string, string> }> {
    const { base, region } = place;
    const { hostname, host, path } = this.target(request.bucket, request.key, base);
    const headers: Record<string, string> = { ...request.headers, host };
    if (request.contentLength !== undefined) headers['content-length'] = String(request.contentLength);
    // A buffered body is hashed into the signature (integrity on plain HTTP too); a streamed one is
    // sent unsigned, as the SDK does for streams.
    // (A body with its checksum in a trailer says so itself: STREAMING-UNSIGNED-PAYLOAD-TRAILER.)
    headers['x-amz-content-sha256'] =
      request.headers?.['x-amz-content-sha256'] ??
      (Buffer.isBuffer(request.body)
        ? createHash('sha256').update(request.body).digest('hex')
        : request.body
          ? 'UNSIGNED-PAYLOAD'
          : EMPTY_SHA256);
    const signedHeaders = await this.leanSigner.sign(
      { method: request.method, path, query: request.query, headers },
      new Date(Date.now() + this.clockOffsetMs),
      region,
    );
    const query = request.query
      ? `?${Object.entries(request.query)
          .map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`)
          .join('&')}`
      : '';
    return { hostname, path: path + query, headers: signedHeaders };
  }

  private async exchange(request: WireRequest, place: Place): Promise<IncomingMessage> {
    if (request.signal?.aborted) throw abortError();
    const gate = this.options.gate;
    // A whole body in memory (a small file) passes the gate as one chunk, before it is signed.
    const held = gate && Buffer.isBuffer(request.body) ? gate.up(request.body.length, request.signal) : undefined;
    if (held) await held;
    const signed = await this.signed(request, place);
    if (request.signal?.aborted) throw abortError();
    const { hostname, path } = signed;
    const { base } = place;
    const secure = base.protocol === 'https:';
    let sent: ClientRequest | undefined;
    const timer = currentRequest();
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = (secure ? https : http).request(
        {
          protocol: base.protocol,
          host: hostname,
          port: base.port || undefined,
          method: request.method,
          path,
          headers: signed.headers,
          // false: a one-off agent, whose connection closes after this request.
          agent: request.fresh ? false : secure ? this.options.httpsAgent : this.options.httpAgent,
          ...(request.fresh && this.options.lookup ? { lookup: this.options.lookup } : {}),
        },
        resolve,
      );
      sent = outgoing;
      const stallMs = this.stallTimeoutMs;
      const onStall = () =>
        outgoing.destroy(
          Object.assign(new Error(`No data for ${stallMs / 1000} s`), { name: 'TimeoutError', code: 'ETIMEDOUT' }),
        );
      outgoing.setTimeout(stallMs, onStall);
      // Once the whole body is handed to the kernel, the socket goes quiet while those bytes still
      // leave, at the link's pace, from buffers below us (the kernel's, a proxy's): on a slow link
      // that takes far longer than the stall timeout, and is no stall. The wait for the answer
      // allows them to drain at no less than a MiB per stall timeout (35 KB/s at the default 30 s);
      // the answer's own bytes are watched as before.
      const bodyBytes = request.contentLength ?? 0;
      // For what limits a transfer: the body is all out; what follows is the store's answer. A
      // streamed body tells its bytes as they go (a long PUT is read while it runs), one in memory here.
      if (timer && bodyBytes > 0)
        outgoing.once('finish', () => {
          timer.sent();
          if (Buffer.isBuffer(request.body)) timer.moved(bodyBytes);
        });
      if (bodyBytes > 0) {
        outgoing.once('finish', () =>
          outgoing.setTimeout(stallMs + Math.min(MAX_DRAIN_MS, (stallMs * bodyBytes) / MIB_BYTES), onStall),
        );
        outgoing.once('response', () => outgoing.setTimeout(stallMs, onStall));
      }
      const onAbort = () => outgoing.destroy(abortError());
      request.signal?.addEventListener('abort', onAbort, { once: true });
      outgoing.once('close', () => request.signal?.removeEventListener('abort', onAbort));
      // A body that fails (the file changed, a read error) is the real cause; the request it takes
      // down only reports a reset.
      let bodyError: Error | undefined;
      outgoing.once('error', (error) => reject(bodyError ?? error));
      if (request.body === undefined) outgoing.end();
      else if (Buffer.isBuffer(request.body)) outgoing.end(request.body);
      else {
        // Each chunk goes once the socket took the one before (its buffer is then used again). A
        // request that ends first fails the writes still waiting; a body that fails ends the request.
        const waiting = new Set<(error: Error) => void>();
        const closed = () =>
          bodyError ??
          Object.assign(new Error('The connection closed before the body was sent.'), { code: 'ECONNRESET' });
        const send = (chunk: Buffer) =>
          new Promise<void>((resolve, reject) => {
            if (outgoing.destroyed) return reject(closed());
            waiting.add(reject);
            timer?.moved(chunk.length);
            outgoing.write(chunk, (error) => {
              waiting.delete(reject);
              if (error) reject(error);
              else resolve();
            });
          });
        outgoing.once('close', () => {
          for (const fail of waiting) fail(closed());
          waiting.clear();
        });
        // Each chunk passes the gate on its way to the socket: held back, not copied.
        // A chunk held at the gate is no stall of the socket: its timer waits with it.
        const write = gate
          ? (chunk: Buffer) => {
              const held = gate.up(chunk.length, request.signal);
              if (!held) return send(chunk);
              outgoing.setTimeout(0);
              return held.then(() => {
                outgoing.setTimeout(stallMs);
                return send(chunk);
              });
            }
          : send;
        request.body.pipeTo(write).then(
          () => outgoing.end(),
          (error: Error) => {
            bodyError ??= error;
            outgoing.destroy(error);
          },
        );
      }
    });
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    const error = await this.errorFrom(response);
    // The store answered before the body was all sent (a refusal): the request is ended, or its
    // socket would stay taken, and the body's writes waiting, until the store closes it.
    if (sent && !sent.writableFinished) sent.destroy();
    throw this.options.failed?.(error, signed.headers) ?? error;
  }

  private async errorFrom(response: IncomingMessage): Promise<Error> {
    let text = '';
    for await (const chunk of response) {
      if (text.length < ERROR_BODY_LIMIT_BYTES) text += (chunk as Buffer).toString('utf8');
    }
    return this.errorOf(response.statusCode ?? 0, response.headers, text);
  }

  /** An answer other than 2xx as an error shaped like the SDK's (see the top of this file). */
  private errorOf(status: number, headers: IncomingHttpHeaders, text: string): Error {
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? STATUS_CODES[status] ?? `Http${status}`;
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? `HTTP ${status}`;
    if (code === 'RequestTimeTooSkewed' || code === 'RequestExpired') this.learnClockOffset(headers);
    // The header a refusal names, as the SDK's errors carry it (NotImplemented's <Header>, InvalidArgument's
    // <ArgumentName>),
    // and the region a refusal for the region names (AuthorizationHeaderMalformed), as the SDK reads it; the
    // bucket a refusal of its name names (<BucketName>, or MinIO's <Resource>).
    const named = Object.fromEntries(
      ['Header', 'ArgumentName', 'Region', 'BucketName', 'Resource'].flatMap((field) => {
        const value = new RegExp(`<${field}>([^<]*)</${field}>`).exec(text)?.[1];
        return value ? [[field, decodeXmlEntities(value)]] : [];
      }),
    );
    const error = Object.assign(new Error(message), {
      name: code,
      ...named,
      $fault: status >= 500 ? 'server' : 'client',
      $metadata: { httpStatusCode: status },
    });
    // Hidden, as the SDK hides it: the headers stay out of logs and serialised errors.
    Object.defineProperty(error, '$response', { value: { statusCode: status, headers }, enumerable: false });
    return error;
  }

  /** Sign the next requests with the server's clock, as the SDK does after a skew error. */
  private learnClockOffset(headers: IncomingHttpHeaders): void {
    const serverDate = headers.date ? Date.parse(headers.date) : Number.NaN;
    if (Number.isFinite(serverDate)) this.clockOffsetMs = serverDate - Date.now();
  }
}

/** The version an answer names (x-amz-version-id), if any: "null" is an unversioned bucket's. */
/** A request's query naming one version of the key (and one part), or none. */
function versionQuery(versionId: string | undefined, partNumber?: number): Record<string, string> | undefined {
  if (versionId === undefined && partNumber === undefined) return undefined;
  return {
    ...(partNumber === undefined ? {} : { partNumber: String(partNumber) }),
    ...(versionId === undefined ? {} : { versionId }),
  };
}

export function versionIdOf(headers: IncomingHttpHeaders): string | undefined {
  const versionId = headers['x-amz-version-id'];
  return typeof versionId === 'string' && versionId !== 'null' ? versionId : undefined;
}

function storedObject(headers: IncomingHttpHeaders): StoredObject {
  const checksums = reportedChecksums(headers);
  const [strongest] = Object.entries(checksums);
  return {
    etag: headers.etag,
    versionId: versionIdOf(headers),
    checksum: strongest ? `${strongest[0]}:${strongest[1]}` : undefined,
    checksums,
    encrypted: etagIsNotDigest(headers),
  };
}

const STATUS_CODES: Readonly<Record<number, string>> = {
  301: 'PermanentRedirect',
  302: 'Redirect',
  303: 'Redirect',
  304: 'NotModified',
  307: 'Redirect',
  308: 'Redirect',
  400: 'BadRequest',
  403: 'AccessDenied',
  404: 'NotFound',
  412: 'PreconditionFailed',
  416: 'InvalidRange',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

export interface ListObjectsV2Page {
  /** `size` is 0 where the listing's Size is no size; `badSize` is then what it said. */
  readonly contents: readonly {
    key: string;
    size: number;
    badSize?: string;
    lastModified: string | undefined;
    etag: string | undefined;
    storageClass: string | undefined;
  }[];
  readonly commonPrefixes: readonly string[];
  readonly isTruncated: boolean;
  readonly nextContinuationToken: string | undefined;
  /** Whether keys and prefixes are URL-encoded (the store honoured encoding-type=url). */
  readonly urlEncoded: boolean;
}

function tag(xml: string, name: string): string | undefined {
  const start = xml.indexOf(`<${name}>`);
  if (start < 0) return undefined;
  const end = xml.indexOf(`</${name}>`, start);
  return end < 0 ? undefined : decodeXmlEntities(xml.slice(start + name.length + 2, end));
}

function* blocks(xml: string, name: string): Generator<string> {
  const open = `<${name}>`;
  const close = `</${name}>`;
  for (let start = xml.indexOf(open); start >= 0; start = xml.indexOf(open, start)) {
    const end = xml.indexOf(close, start);
    if (end < 0) return;
    yield xml.slice(start + open.length, end);
    start = end + close.length;
  }
}

/** The fields of a ListObjectsV2 answer that listing uses (S3's XML has no nesting among them). */
export function parseListObjectsV2(xml: string): ListObjectsV2Page {
  const contents = [];
  for (const block of blocks(xml, 'Contents')) {
    const stated = tag(block, 'Size');
    const size = parseObjectSize(stated);
    const entry = {
      key: tag(block, 'Key') ?? '',
      size: size ?? 0,
      lastModified: tag(block, 'LastModified'),
      etag: tag(block, 'ETag'),
      storageClass: tag(block, 'StorageClass'),
    };
    contents.push(size === undefined ? { ...entry, badSize: stated ?? '' } : entry);
  }
  const commonPrefixes = [];
  for (const block of blocks(xml, 'CommonPrefixes')) commonPrefixes.push(tag(block, 'Prefix') ?? '');
  // XML escapes "<" in text, so no key can fake one of these tags.
  const field = (name: string) => tag(xml, name);
  return {
    contents,
    commonPrefixes,
    isTruncated: field('IsTruncated') === 'true',
    nextContinuationToken: field('NextContinuationToken'),
    urlEncoded: field('EncodingType') === 'url',
  };
}
