// SigV4 for the data plane's requests, lean: what @smithy/signature-v4 computes, for the one shape of
// request the wire sends (headers signed, the path already escaped, the payload's hash given in
// x-amz-content-sha256, or none and so the empty body's).
//
// Why not the SDK's signer on this path: it cost 40-90 µs a request on this machine (a deep copy of
// the request, an HMAC of the credentials only to look up its cache of signing keys, a date formatted
// by regular expressions, several awaits), on every PUT and GET of a small object. Here the signing key
// is kept per day, region and credentials, the date is formatted once a second, and what is left is one
// SHA-256 and one HMAC. The unit test holds it to the SDK's signer, header for header.

import { createHash, createHmac } from 'node:crypto';
import type { AwsCredentialIdentity, Provider } from '@smithy/types';

/** Headers never signed (the SDK's list): a proxy or the HTTP layer may change them on the way. */
const UNSIGNABLE = new Set([
  'authorization',
  'cache-control',
  'connection',
  'expect',
  'from',
  'keep-alive',
  'max-forwards',
  'pragma',
  'referer',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'x-amzn-trace-id',
]);
/** Headers the signer writes itself: any the caller gave are dropped first. */
const GENERATED = new Set(['authorization', 'x-amz-date', 'date']);
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** Signing keys kept at most (a key a region a day; more only when credentials change). */
const KEYS_KEPT = 16;

export interface HeaderSigned {
  readonly method: string;
  /** The path as it goes on the wire, each segment already escaped. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

interface SigningKey {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string | undefined;
  readonly key: Buffer;
}

export class LeanSigner {
  /** Private (#): an inspected connection or signer must not print a secret or a signing key. */
  readonly #keys = new Map<string, SigningKey>();
  private second = Number.NaN;
  private longDate = '';

  private readonly service: string;
  private readonly credentials: Provider<AwsCredentialIdentity>;

  constructor(service: string, credentials: Provider<AwsCredentialIdentity>) {
    this.service = service;
    this.credentials = credentials;
  }

  /** The headers, signed: the caller's (less those the signer writes), x-amz-date, the token, authorization. */
  async sign(request: HeaderSigned, date: Date, region: string): Promise<Record<string, string>> {
    const credentials = await this.credentials();
    if (typeof credentials?.accessKeyId !== 'string' || typeof credentials.secretAccessKey !== 'string')
      throw new Error('Resolved credential object is not valid');
    const longDate = this.formatted(date);
    const scope = `${longDate.slice(0, 8)}/${region}/${this.service}/aws4_request`;
    const headers: Record<string, string> = {};
    for (const name of Object.keys(request.headers)) {
      const value = request.headers[name];
      if (value !== undefined && value !== null && !GENERATED.has(name.toLowerCase())) headers[name] = value;
    }
    headers['x-amz-date'] = longDate;
    if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;

    // Canonical headers as the SDK makes them: names in order, lower-cased (a later spelling of the same
    // name wins), values with line breaks and runs of blanks as one space, trimmed of one space.
    const canonical = new Map<string, string>();
    let payloadHash = EMPTY_SHA256;
    for (const name of Object.keys(headers).sort()) {
      const lower = name.toLowerCase();
      if (lower === 'x-amz-content-sha256') payloadHash = headers[name]!;
      if (UNSIGNABLE.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-')) continue;
      canonical.set(lower, tidied(headers[name]!));
    }
    const names = [...canonical.keys()].sort();
    const signedHeaders = names.join(';');
    const canonicalRequest =
      `${request.method}\n${request.path}\n${canonicalQuery(request.query)}\n` +
      `${names.map((name) => `${name}:${canonical.get(name)}\n`).join('')}\n${signedHeaders}\n${payloadHash}`;
    const stringToSign =
      `AWS4-HMAC-SHA256\n${longDate}\n${scope}\n` + createHash('sha256').update(canonicalRequest).digest('hex');
    const signature = createHmac('sha256', this.signingKey(credentials, scope)).update(stringToSign).digest('hex');
    headers.authorization =
      `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, ` +
      `SignedHeaders=${signedHeaders}, Signature=${signature}`;
    return headers;
  }

  /** "20261126T150405Z", made once a second. */
  private formatted(date: Date): string {
    const second = Math.floor(date.getTime() / 1000);
    if (second !== this.second) {
      const iso = date.toISOString();
      this.longDate =
        iso.slice(0, 4) +
        iso.slice(5, 7) +
        iso.slice(8, 10) +
        'T' +
        iso.slice(11, 13) +
        iso.slice(14, 16) +
        iso.slice(17, 19) +
        'Z';
      this.second = second;
    }
    return this.longDate;
  }

  /** The key for `scope` (day/region/service/aws4_request) and these credentials: four HMACs, once. */
  private signingKey(credentials: AwsCredentialIdentity, scope: string): Buffer {
    const kept = this.#keys.get(scope);
    if (
      kept &&
      kept.accessKeyId === credentials.accessKeyId &&
      kept.secretAccessKey === credentials.secretAccessKey &&
      kept.sessionToken === credentials.sessionToken
    )
      return kept.key;
    let key: Buffer = Buffer.from(`AWS4${credentials.secretAccessKey}`, 'utf8');
    for (const part of scope.split('/')) key = createHmac('sha256', key).update(part).digest();
    if (this.#keys.size >= KEYS_KEPT) this.#keys.delete(this.#keys.keys().next().value!);
    this.#keys.set(scope, {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      sessionToken: credentials.sessionToken,
      key,
    });
    return key;
  }
}

/** A header value as SigV4 signs it (the SDK's three replacements, skipped for the usual clean value). */
function tidied(value: string): string {
  if (!/[\r\n\t]| {2}|^ | $/.test(value)) return value;
  return value
    .replace(/[\r\n]/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/^ | $/g, '');
}

/** The query's names and values escaped (RFC 3986), sorted by name. */
function canonicalQuery(query: Readonly<Record<string, string>> | undefined): string {
  if (!query) return '';
  const pairs: [string, string][] = [];
  for (const name of Object.keys(query)) {
    if (name.toLowerCase() === 'x-amz-signature') continue;
    const escaped = escapeUri(name);
    pairs.push([escaped, `${escaped}=${escapeUri(query[name]!)}`]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return pairs.map((pair) => pair[1]).join('&');
}

/** RFC 3986: what SigV4 signs, and so what the wire must send (s3-wire.ts builds its query with it). */
export function escapeUri(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
