// The web host: the same window and API as the desktop app, served to a browser.
//
// It runs the engine where it is started (a laptop, or a cloud machine beside the bucket: locality is
// the biggest factor in S3 throughput) and serves the built UI plus the API over a WebSocket. It binds
// to loopback unless told otherwise. The window's files are served to whoever reaches it; the API
// and uploads need the start-up token, from this host's own origin, addressed by its own name (see
// access-token.ts). Files a browser uploads are streamed to the host, staged, and uploaded by the
// same engine.

import { createReadStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import mime from 'mime';
import { keyToRelativePath } from '../../src/key-path.ts';
import { freeBytes, receiveInto } from './staged-file.ts';
import type { BargeService } from '../service/barge-service.ts';
import { allowedHosts, bearerToken, isAllowedHost, isSameOrigin, sameToken } from './access-token.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/content-security-policy.ts';

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** A socket must present the token in its first message within this time. */
const AUTH_TIMEOUT_MS = 5000;
/** Limits, so one client cannot exhaust the host. */
const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** Staging keeps this much of its disk free: a browser upload that would eat into it is refused. */
const STAGING_FREE_MARGIN_BYTES = 512 * 1024 * 1024;
/** Files staged for a job that never started go after this long. */
const STAGED_UNSTARTED_TTL_MS = 60 * 60 * 1000;
/** Progress that a slow socket has not taken yet is dropped beyond this (the next batch supersedes it). */
const SOCKET_BACKLOG_BYTES = 4 * 1024 * 1024;
/** Connections one address beyond loopback may hold at once. */
const MAX_CONNECTIONS_PER_ADDRESS = 64;
/** A socket that moves nothing for this long is closed. */
const INACTIVITY_TIMEOUT_MS = 60_000;
/** A TLS handshake must end within this time. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** A connection must send its request's headers within this time. */
const HEADERS_TIMEOUT_MS = 10_000;

const callSchema = z.object({ id: z.number().int(), method: z.string().max(100), params: z.unknown() });
const authSchema = z.object({ auth: z.string().max(200) });
const startUploadSchema = z.object({ connectionId: z.string().min(1), bucket: z.string().min(1), prefix: z.string().max(1024), entries: z.array(z.string().min(1)).min(1) });

export interface WebHostOptions {
  readonly service: BargeService;
  readonly token: string;
  /** Built UI (index.html and assets). */
  readonly staticDir: string;
  readonly host?: string;
  readonly port?: number;
  /** Where browser uploads are staged before the engine sends them (default: a private temp folder). */
  readonly stagingDir?: string;
  /** How long a connection may take to send a request's headers (default 10 s). */
  readonly headersTimeoutMs?: number;
  /** Sockets idle this long are closed (default 60 s). */
  readonly inactivityTimeoutMs?: number;
  /** Names this host answers to beyond the loopback ones and --host (its public name, its addresses). */
  readonly publicNames?: readonly string[];
  /** How much of the staging disk to keep free (default 512 MiB). */
  readonly stagingFreeMarginBytes?: number;
  /** Serve over HTTPS with this certificate and key (PEM). */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
}

export interface WebHost {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { service, token } = options;
  // Private to this user and this run: staged files are other people's data.
  const stagingRoot = options.stagingDir ?? (await mkdtemp(path.join(os.tmpdir(), 'barge-web-uploads-')));
  await chmod(stagingRoot, 0o700);
  const platform = process.platform === 'win32' ? 'win32' : 'posix';
  const staticRoot = path.resolve(options.staticDir);

  const listener = (request: http.IncomingMessage, response: http.ServerResponse) => {
    handle(request, response).catch(() => {
      // Nothing internal (paths, parser messages) goes back to the client.
      if (!response.headersSent) send(response, 500, { error: { code: 'InternalError', message: 'The host could not handle that request.' } });
      else response.destroy();
    });
  };
  // A connection that sends no request within the headers timeout is closed: idle sockets cannot
  // pile up. (No limit on a whole request: an upload takes as long as its file.)
  const serverOptions = { headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout: 0, connectionsCheckingInterval: Math.min(1000, options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS) };
  const server = options.tls
    ? https.createServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key, handshakeTimeout: HANDSHAKE_TIMEOUT_MS }, listener)
    : http.createServer(serverOptions, listener);
  // A body may take hours (a large file on a slow link), so no request has a time limit; a socket
  // that moves nothing for this long is closed, however it got there (a trickle holds no socket long).
  const inactivityMs = options.inactivityTimeoutMs ?? INACTIVITY_TIMEOUT_MS;
  server.setTimeout(inactivityMs, (socket) => socket.destroy());
  // Between requests Node watches a kept-alive socket with this instead.
  server.keepAliveTimeout = Math.min(server.keepAliveTimeout, inactivityMs);

  // Filled in once the port is known.
  let hosts: ReadonlySet<string> = new Set();
  const scheme = options.tls ? 'https' : 'http';

  /** Why a request is refused before anything else is looked at, or undefined. */
  function refusal(request: http.IncomingMessage): { status: number; code: string; message: string } | undefined {
    // DNS rebinding: a page on evil.example that resolves to this machine names evil.example here.
    if (!isAllowedHost(request, hosts)) return { status: 421, code: 'MisdirectedRequest', message: `This host answers only to ${[...hosts].join(', ')} (start it with --public-name for another).` };
    if (!isSameOrigin(request, scheme)) return { status: 403, code: 'Forbidden', message: 'Requests from another origin are refused.' };
    return undefined;
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const refused = refusal(request);
    // A refused request's connection is closed once answered: its body is not waited for.
    if (refused) return send(response, refused.status, { error: { code: refused.code, message: refused.message } }, true);
    const url = new URL(request.url ?? '/', 'http://host');
    if (url.pathname.startsWith('/uploads/')) {
      if (!sameToken(bearerToken(request), token)) return send(response, 401, { error: { code: 'Unauthorized', message: 'Open the URL that "npm run serve" printed: it carries the access token.' } }, true);
      return handleUpload(request, response, url);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { error: { code: 'MethodNotAllowed', message: 'Method not allowed.' } });
    // The window itself holds nothing secret: it is served to anyone who may reach the host, and
    // asks for the token (from the URL's fragment) before it can do anything.
    return serveStatic(response, url.pathname);
  }

  async function serveStatic(response: http.ServerResponse, pathname: string): Promise<void> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return send(response, 400, { error: { code: 'InvalidRequest', message: 'Bad path.' } });
    }
    const relative = decoded.replace(/^\/+/, '') || 'index.html';
    const file = path.resolve(staticRoot, relative);
    const inside = file.startsWith(staticRoot + path.sep);
    const info = inside ? await stat(file).catch(() => undefined) : undefined;
    const target = info?.isFile() ? file : path.join(staticRoot, 'index.html');
    const headers: Record<string, string> = { ...SECURITY_HEADERS, 'content-type': mime.getType(target) ?? 'application/octet-stream', 'cache-control': 'no-store' };
    response.writeHead(200, headers);
    await pipeline(createReadStream(target), response);
  }

  // Browser uploads: PUT /uploads/<batch>?path=<relative path> for each file, then
  // POST /uploads/<batch>/start with where they go.
  async function handleUpload(request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void> {
    const [, , batch, action] = url.pathname.split('/');
    if (!batch || !/^[0-9a-f-]{36}$/.test(batch)) return send(response, 400, { error: { code: 'InvalidRequest', message: 'Bad upload batch.' } });
    const batchDir = path.join(stagingRoot, batch);
    if (request.method === 'PUT' && action === undefined) {
      const mapped = keyToRelativePath(url.searchParams.get('path') ?? '', '', platform);
      if (!mapped.ok || mapped.isFolderMarker) return send(response, 400, { error: { code: 'InvalidPath', message: `That file path ${mapped.ok ? 'is a folder' : mapped.reason}.` } });
      const file = path.join(batchDir, ...mapped.segments);
      const length = Number(request.headers['content-length'] ?? 0);
      const margin = options.stagingFreeMarginBytes ?? STAGING_FREE_MARGIN_BYTES;
      if (length + margin > await freeBytes(stagingRoot)) {
        request.resume();
        return send(response, 507, { error: { code: 'ENOSPC', message: "The host's disk for staging uploads is nearly full: free some space there, or upload fewer files at a time." } });
      }
      try {
        await mkdir(path.dirname(file), { recursive: true });
      } catch {
        request.resume();
        return send(response, 400, { error: { code: 'InvalidPath', message: 'That file path clashes with another file of the same upload.' } });
      }
      unstarted.set(batch, Date.now());
      // A body without a length (chunked), or many at once, is checked again as it is written.
      const failure = await receiveInto(request, file, { root: stagingRoot, marginBytes: margin });
      if (failure) {
        // Nothing half-written stays behind to fill the disk for every later upload.
        await rm(file, { force: true });
        if (failure.code === 'ENOSPC') {
          return send(response, 507, { error: { code: 'ENOSPC', message: "The host's disk for staging uploads is full: free some space there, then upload again." } });
        }
        throw failure;
      }
      return send(response, 200, { ok: true });
    }
    if (request.method === 'POST' && action === 'start') {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of request) {
        size += (chunk as Buffer).length;
        if (size > MAX_JSON_BODY_BYTES) return send(response, 413, { ok: false, error: { code: 'PayloadTooLarge', message: 'The request is too large.' } });
        chunks.push(chunk as Buffer);
      }
      // Only a valid start takes the batch off the expiry list: a refused one's files still expire.
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        return send(response, 400, { ok: false, error: { code: 'InvalidRequest', message: 'The request is not JSON.' } });
      }
      const parsed = startUploadSchema.safeParse(body);
      if (!parsed.success) return send(response, 400, { ok: false, error: { code: 'InvalidRequest', message: parsed.error.issues[0]?.message ?? 'invalid' } });
      const entries = parsed.data.entries.map((entry) => keyToRelativePath(entry, '', platform));
      if (entries.some((e) => !e.ok || e.segments.length !== 1)) return send(response, 400, { ok: false, error: { code: 'InvalidPath', message: 'Bad entry name.' } });
      const paths = parsed.data.entries.map((entry) => path.join(batchDir, entry));
      const { connectionId, bucket, prefix } = parsed.data;
      // Named after what the user dropped, not after the staging folder.
      const what = parsed.data.entries.length === 1 ? parsed.data.entries[0] : `${parsed.data.entries.length} items`;
      unstarted.delete(batch);
      const result = await service.uploadPaths({ connectionId, bucket, prefix, paths }, `${what} → s3://${bucket}/${prefix}`);
      if (result.ok) staged.set(result.value.id, batchDir);
      else await rm(batchDir, { recursive: true, force: true });
      return send(response, 200, result);
    }
    return send(response, 405, { error: { code: 'MethodNotAllowed', message: 'Method not allowed.' } });
  }

  // Staged files stay while their job may still need them (a failed job can be retried), and go
  // when it completes or is cleared; whatever is left goes when the host stops. Files staged for a
  // job that never started (the page went away mid-upload) go after a while.
  const staged = new Map<string, string>();
  const unstarted = new Map<string, number>();
  const expiry = setInterval(() => {
    const now = Date.now();
    for (const [batch, since] of unstarted) {
      if (now - since < STAGED_UNSTARTED_TTL_MS) continue;
      unstarted.delete(batch);
      void rm(path.join(stagingRoot, batch), { recursive: true, force: true });
    }
  }, Math.min(STAGED_UNSTARTED_TTL_MS / 6, 10 * 60 * 1000));
  expiry.unref();
  const perAddress = new Map<string, number>();
  server.on('connection', (connection) => {
    const address = connection.remoteAddress ?? '';
    // A connection that sends nothing is dropped after the headers timeout (bytesRead, not a data
    // listener, which would steal a TLS socket's bytes).
    const idle = setTimeout(() => {
      if (connection.bytesRead === 0) connection.destroy();
    }, options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS);
    idle.unref();
    connection.once('close', () => clearTimeout(idle));
    // On loopback every client shares one address, and any local process could fill the quota and
    // lock the user out: there, only the idle timeout applies.
    if (isLoopbackAddress(address)) return;
    const count = (perAddress.get(address) ?? 0) + 1;
    if (count > MAX_CONNECTIONS_PER_ADDRESS) {
      connection.destroy();
      return;
    }
    perAddress.set(address, count);
    connection.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  const stopCleaning = service.subscribe((event) => {
    const done = event.type === 'jobs' ? event.jobs.filter((j) => j.state.status === 'completed').map((j) => j.id) : event.type === 'jobs-removed' ? event.ids : [];
    for (const id of done) {
      const batchDir = staged.get(id);
      if (batchDir === undefined) continue;
      staged.delete(id);
      void rm(batchDir, { recursive: true, force: true });
    }
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://host');
    if (url.pathname !== '/api' || refusal(request)) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => awaitToken(ws));
  });

  /** A socket's first message must be {auth: token}; until then it gets nothing, and a wrong one closes it. */
  function awaitToken(ws: WebSocket): void {
    const timer = setTimeout(() => ws.close(4401, 'No token'), AUTH_TIMEOUT_MS);
    ws.once('message', (data) => {
      clearTimeout(timer);
      let presented: string | undefined;
      try {
        presented = authSchema.parse(JSON.parse(String(data))).auth;
      } catch {
        presented = undefined;
      }
      if (!sameToken(presented, token)) {
        ws.close(4401, 'Wrong token');
        return;
      }
      ws.send(JSON.stringify({ authenticated: true }));
      serveApi(ws);
    });
  }

  function serveApi(ws: WebSocket): void {
    const unsubscribe = service.subscribe((event) => {
      if (ws.readyState !== ws.OPEN) return;
      // A client that does not keep up misses progress batches (the next one supersedes them),
      // never a removal; the host's memory does not grow with its backlog.
      if (ws.bufferedAmount > SOCKET_BACKLOG_BYTES && (event.type === 'jobs' || event.type === 'stats')) return;
      ws.send(JSON.stringify({ event }));
    });
    ws.on('close', unsubscribe);
    ws.on('message', (data) => {
      let call;
      try {
        call = callSchema.parse(JSON.parse(String(data)));
      } catch {
        ws.send(JSON.stringify({ id: null, result: { ok: false, error: { code: 'InvalidRequest', message: 'Messages are {id, method, params} JSON.' } } }));
        return;
      }
      // Uploads from a browser go through the staging endpoints: a page may not name host paths.
      const answer = call.method === 'jobs.upload'
        ? Promise.resolve({ ok: false, error: { code: 'Forbidden', message: 'Upload files by sending them to the host (/uploads).' } })
        : service.dispatch(call.method, call.params);
      void answer.then((result) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: call.id, result }));
      });
    });
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(host, port, options.publicNames, scheme);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    // The token in the fragment: a browser sends it to no server, this one included.
    url: `${scheme}://${shownHost === '0.0.0.0' || shownHost === '[::]' ? '127.0.0.1' : shownHost}:${port}/#token=${token}`,
    port,
    async close() {
      stopCleaning();
      clearInterval(expiry);
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (!options.stagingDir) await rm(stagingRoot, { recursive: true, force: true });
    },
  };
}

/** A JSON answer; `close`: the connection ends with it (a refusal: whatever else comes is not read). */
function send(response: http.ServerResponse, status: number, body: unknown, close = false): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) });
  response.end(JSON.stringify(body));
}


function isLoopbackAddress(address: string): boolean {
  return /^(127\.|::1$|::ffff:127\.)/.test(address);
}
