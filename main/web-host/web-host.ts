// The web host: the same window and API as the desktop app, served to a browser.
//
// It runs the engine where it is started (a laptop, or a cloud machine beside the bucket: locality is
// the biggest factor in S3 throughput) and serves the built UI plus the API over a WebSocket. It binds
// to loopback unless told otherwise. The window's files are served to whoever reaches it; the API
// and uploads need the start-up token, from this host's own origin, addressed by its own name (see
// access-token.ts). Files a browser uploads are streamed to the host (PUT /uploads/<stagingId>, a
// data channel beside the socket: bytes do not belong in JSON), written where the service's staging
// says, and uploaded by the same engine (the contract's uploads.stage and jobs.upload). The way
// back is a second channel: an object a page saves with the browser's own download is streamed from
// the store through here (GET /save/<link>, a link the page got over its socket: save-links.ts).

import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import mime from 'mime';
import { freeBytes, receiveInto } from './staged-file.ts';
import type { BargeService } from '../service/barge-service.ts';
import { allowedHosts, bearerToken, isAllowedHost, isSameOrigin, sameToken } from './access-token.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/content-security-policy.ts';
import { SAVE_LINKS_PATH, STAGED_FILES_PATH } from '../../src/contract/api.ts';
import { attachmentDisposition } from './content-disposition.ts';
import type { Result } from '../../src/contract/result.ts';
import { failure, ok } from '../../src/contract/result.ts';

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
/** Staging keeps this much of its disk free: a browser upload that would eat into it is refused. */
const STAGING_FREE_MARGIN_BYTES = 512 * 1024 * 1024;
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
/** A staged file's answer status, by the service's error code. */
const STAGED_FILE_STATUS: Readonly<Record<string, number>> = { NotSupported: 404, NoSuchStaging: 404, InvalidPath: 400, ENOSPC: 507 };

export interface WebHostOptions {
  readonly service: BargeService;
  readonly token: string;
  /** Built UI (index.html and assets). */
  readonly staticDir: string;
  readonly host?: string;
  readonly port?: number;
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
  const staticRoot = path.resolve(options.staticDir);

  const listener = (request: http.IncomingMessage, response: http.ServerResponse) => {
    handle(request, response).catch(() => {
      // Nothing internal (paths, parser messages) goes back to the client.
      if (!response.headersSent) send(response, 500, failure('InternalError', 'The host could not handle that request.'));
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
    if (refused) return send(response, refused.status, failure(refused.code, refused.message), true);
    const url = new URL(request.url ?? '/', 'http://host');
    if (url.pathname.startsWith(STAGED_FILES_PATH)) {
      if (!sameToken(bearerToken(request), token)) return send(response, 401, failure('Unauthorized', 'Open the URL that "npm run serve" printed: it carries the access token.'), true);
      return receiveStagedFile(request, response, url);
    }
    if (url.pathname.startsWith(SAVE_LINKS_PATH)) return sendSavedObject(request, response, url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, failure('MethodNotAllowed', 'Method not allowed.'));
    // The window itself holds nothing secret: it is served to anyone who may reach the host, and
    // asks for the token (from the URL's fragment) before it can do anything.
    return serveStatic(response, url.pathname);
  }

  async function serveStatic(response: http.ServerResponse, pathname: string): Promise<void> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return send(response, 400, failure('InvalidRequest', 'Bad path.'));
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

  // A file of a staged batch (uploads.stage): PUT /uploads/<stagingId>?path=<relative path>, the
  // file as the body. Where it goes is the service's word; the disk's free space is this host's.
  async function receiveStagedFile(request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void> {
    const [stagingId, ...rest] = url.pathname.slice(STAGED_FILES_PATH.length).split('/');
    if (request.method !== 'PUT' || rest.length > 0) return send(response, 405, failure('MethodNotAllowed', 'Files of an upload are sent with PUT /uploads/<stagingId>?path=<relative path>.'), true);
    const target = await service.stagedFile(stagingId ?? '', url.searchParams.get('path') ?? '');
    if (!target.ok) {
      request.resume();
      const { code } = target.error;
      const full = code === 'ENOSPC' ? failure(code, "The host's disk for staging uploads is full: free some space there, then upload again.") : target;
      return send(response, STAGED_FILE_STATUS[code] ?? 400, full);
    }
    const { file, stagingRoot } = target.value;
    const length = Number(request.headers['content-length'] ?? 0);
    const margin = options.stagingFreeMarginBytes ?? STAGING_FREE_MARGIN_BYTES;
    if (length + margin > await freeBytes(stagingRoot)) {
      request.resume();
      return send(response, 507, failure('ENOSPC', "The host's disk for staging uploads is nearly full: free some space there, or upload fewer files at a time."));
    }
    // A body without a length (chunked), or many at once, is checked again as it is written.
    const failed = await receiveInto(request, file, { root: stagingRoot, marginBytes: margin });
    if (failed) {
      // Nothing half-written stays behind to fill the disk for every later upload.
      await rm(file, { force: true });
      if (failed.code === 'ENOSPC') return send(response, 507, failure('ENOSPC', "The host's disk for staging uploads is full: free some space there, then upload again."));
      throw failed;
    }
    return send(response, 200, ok(null));
  }

  // An object a page saves with the browser's own download: GET /save/<link>, where the link came
  // over the page's socket (objects.saveLink) and stands for that one object, once. A browser
  // following a link sends no Authorization header, and the token is never put in a URL: the link is
  // the token's stand-in, as narrow as it can be; the Host and Origin checks above apply as to all.
  async function sendSavedObject(request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void> {
    const link = url.pathname.slice(SAVE_LINKS_PATH.length);
    if (request.method !== 'GET') return send(response, 405, failure('MethodNotAllowed', 'A saved object is fetched with GET /save/<link>.'), true);
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(link)) return send(response, 404, failure('NoSuchSaveLink', 'There is no such download link.'));
    // The browser going away (the download cancelled) lets go of the store's answer too.
    const gone = new AbortController();
    response.once('close', () => gone.abort());
    const saved = await service.savedObject(link, gone.signal);
    if (!saved.ok) return send(response, saved.error.code === 'NoSuchSaveLink' ? 404 : 502, saved);
    const { fileName, size, body } = saved.value;
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      // Bytes to save, never a page of this origin to show: whatever the object's own type is.
      'content-type': 'application/octet-stream',
      'content-length': String(size),
      'content-disposition': attachmentDisposition(fileName),
      'cache-control': 'no-store',
    });
    // A body that fails its check throws here, its last chunk unsent: the connection is cut, and
    // the browser says the download failed rather than keep a wrong file.
    await pipeline(body, response);
  }

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
      void service.dispatch(call.method, call.params).then((result) => {
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
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A JSON answer; `close`: the connection ends with it (a refusal: whatever else comes is not read). */
function send(response: http.ServerResponse, status: number, body: Result<unknown>, close = false): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) });
  response.end(JSON.stringify(body));
}


function isLoopbackAddress(address: string): boolean {
  return /^(127\.|::1$|::ffff:127\.)/.test(address);
}
