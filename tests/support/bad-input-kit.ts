// What the bad-input suites need beside the shared fixtures: temporary credentials held to a policy
// (MinIO's STS AssumeRole), a TLS server with a self-signed certificate, small tmpfs mounts (a full
// disk, a read-only one), a proxy that rewrites answers (a store holding keys MinIO refuses to
// store, or sending no Date header), and an inventory of what a job left behind.

import { execFileSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';
import type { SourceData } from '@smithy/types';
import { listAllVersions, listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { serverConfig } from './fixtures.ts';

export const isRoot = process.getuid?.() === 0;

class Sha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac('sha256', secret as Buffer) : createHash('sha256');
  }
  update(data: SourceData): void {
    this.hash.update(data as Buffer);
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
}

export interface TemporaryCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
}

/**
 * Temporary credentials from the test server's STS, allowed no more than `policy` allows (a session
 * policy narrows the root user's rights): a user who may list but not write, for instance.
 */
export async function assumeRole(policy: object): Promise<TemporaryCredentials> {
  const config = serverConfig();
  const url = new URL(config.endpoint!);
  const body = new URLSearchParams({
    Action: 'AssumeRole',
    Version: '2011-06-15',
    DurationSeconds: '900',
    Policy: JSON.stringify(policy),
  }).toString();
  const signer = new SignatureV4({
    service: 'sts',
    region: config.region!,
    credentials: { accessKeyId: config.accessKeyId!, secretAccessKey: config.secretAccessKey! },
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: Number(url.port),
    path: '/',
    query: {},
    headers: { host: url.host, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const response = await fetch(new URL('/', url), { method: 'POST', headers: signed.headers, body });
  const text = await response.text();
  const field = (name: string) => {
    const value = new RegExp(`<${name}>([^<]+)</${name}>`).exec(text)?.[1];
    if (!value) throw new Error(`AssumeRole answered HTTP ${response.status} without ${name}: ${text.slice(0, 500)}`);
    return value;
  };
  return {
    accessKeyId: field('AccessKeyId'),
    secretAccessKey: field('SecretAccessKey'),
    sessionToken: field('SessionToken'),
  };
}

export interface LocalServer {
  readonly endpoint: string;
  close(): Promise<void>;
}

/** An HTTPS server on loopback whose certificate nobody trusts (self-signed, made with openssl). */
export async function selfSignedTlsServer(dir: string): Promise<LocalServer> {
  const key = path.join(dir, 'tls-key.pem');
  const cert = path.join(dir, 'tls-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const server = https.createServer({ key: await readFile(key), cert: await readFile(cert) }, (_request, response) => {
    response.writeHead(500);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Mount {
  readonly dir: string;
  unmount(): Promise<void>;
}

/** A tmpfs of `sizeBytes` (root only): a small disk to fill, or a read-only one. */
export async function mountTmpfs(options: { sizeBytes: number; readOnly?: boolean }): Promise<Mount> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-tmpfs-'));
  execFileSync('mount', [
    '-t',
    'tmpfs',
    '-o',
    `${options.readOnly ? 'ro,' : ''}size=${options.sizeBytes}`,
    'tmpfs',
    dir,
  ]);
  return {
    dir,
    async unmount() {
      execFileSync('umount', [dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** A Content-Length to state instead of the body's own (a store that lies about sizes). */
  statedLength?: string;
}

/**
 * A proxy in front of the test server that hands each whole answer to `rewrite` before sending it
 * on: a store that lists keys MinIO would never store ("../x", "/etc/x"), answers without the Date
 * header a client corrects its clock from, or states sizes that are no sizes.
 */
export async function rewritingProxy(
  rewrite: (request: http.IncomingMessage, answer: Answer) => Answer,
): Promise<LocalServer> {
  const upstream = new URL(serverConfig().endpoint!);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    // Only the headers the rewrite leaves: no Date of the proxy's own.
    response.sendDate = false;
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const out = rewrite(request, {
            status: answer.statusCode ?? 502,
            headers: { ...answer.headers },
            body: Buffer.concat(chunks),
          });
          // A HEAD has no body: its Content-Length is the object's, as the store gave it.
          const length =
            out.statedLength ??
            (request.method === 'HEAD' ? out.headers['content-length'] : undefined) ??
            String(out.body.length);
          const headers = { ...out.headers, 'content-length': length };
          delete headers['transfer-encoding'];
          response.writeHead(out.status, headers);
          response.end(out.body);
        });
      },
    );
    forward.on('error', () => response.socket?.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          agent.destroy();
          resolve();
        });
      }),
  };
}

/** What a bucket holds: every version and delete marker, and every incomplete multipart upload. */
export async function bucketContents(
  connection: S3Connection,
  bucket: string,
): Promise<{ versions: string[]; uploads: string[] }> {
  const versions = [];
  for await (const v of listAllVersions(connection, { bucket }))
    versions.push(`${v.key} ${v.versionId}${v.isDeleteMarker ? ' (delete marker)' : ''}`);
  const uploads = [];
  for await (const u of listMultipartUploads(connection, bucket)) uploads.push(u.key);
  return { versions: versions.sort(), uploads: uploads.sort() };
}

/** Every file (not folder) below `dir`, as relative paths; none when `dir` does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  if (!(await stat(dir).catch(() => undefined))) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}
