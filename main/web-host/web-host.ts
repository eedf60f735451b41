// The web host: the same window and API as the desktop app, served to a browser.
//
// It runs the engine where it is started (a laptop, or a cloud machine beside the bucket: locality is
// the biggest factor in S3 throughput) and serves the built UI (from memory: window-files.ts) plus
// the API over a WebSocket. It binds to loopback unless told otherwise. The window's files are
// served to whoever reaches it; the API and uploads need the start-up token, from this host's own
// origin, addressed by its own name (see access-token.ts); the API's socket carries the token in
// its upgrade, so none is open without it, and each socket's calls and answers are held to a bound
// (api-socket.ts), as are connections no token vouches for and requests one connection pipelines
// (connection-limits.ts). Files a browser uploads are streamed to the host (PUT
// /uploads/<stagingId>, a data channel beside the socket: bytes do not belong in JSON), written
// where the service's staging says, and uploaded by the same engine (the contract's uploads.stage
// and jobs.upload). The way back is a second channel: an object a page saves with the browser's own
// download is streamed from the store through here (GET /save/<link>, a link the page
// got over its socket: save-links.ts).

import { rm, utimes } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WebSocketServer } from 'ws';
import { freeBytes, receiveInto } from './staged-file.ts';
import { readWindowFiles } from './window-files.ts';
import type { BargeService } from '../service/barge-service.ts';
import { STAGED_PATH_REFUSALS } from '../service/staging-area.ts';
import { allowedHosts, bearerToken, isAllowedHost, isSameOrigin, sameToken } from './access-token.ts';
import { serveApi } from './api-socket.ts';
import { limitConnections } from './connection-limits.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/content-security-policy.ts';
import { API_PATH, API_PROTOCOL, offeredToken, SAVE_LINKS_PATH, STAGED_FILES_PATH } from '../../src/contract/api.ts';
import { attachmentDisposition } from './content-disposition.ts';
import type { Result } from '../../src/contract/result.ts';
import { failure, ok } from '../../src/contract/result.ts';
import { formatBytes } from '../../src/byte-units.ts';
import { printable } from '../../src/unsafe-text.ts';
import { BargeError } from '../../src/errors.ts';

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/** A message on the API's socket (a job's start carries its keys), from a client that presented the token. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/**
 * API sockets open at once (windows, tabs): each may hold up to api-socket.ts's CLOSE_UNSENT_BYTES
 * of what it has not taken, so their number is bounded too.
 */
export const MAX_API_SOCKETS = 32;
/** A request's headers (the token among them, for the API's socket) at most: Node's own default, fixed here. */
const MAX_HEADER_BYTES = 16 * 1024;
/** Staging keeps this much of its disk free: a browser upload that would eat into it is refused. */
const STAGING_FREE_MARGIN_BYTES = 512 * 1024 * 1024;
/** A socket that moves nothing for this long is closed. */
const INACTIVITY_TIMEOUT_MS = 60_000;
/** A TLS handshake must end within this time. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** A connection must send its request's headers within this time. */
const HEADERS_TIMEOUT_MS = 10_000;

/**
 * A window file's bytes go to the socket this much at a time, so a reader's progress shows in the
 * bytes its socket has written (connection-limits.ts tells a reader from a stalled one by them).
 */
const WINDOW_SLICE_BYTES = 64 * 1024;

/** A staged file's answer status, by the service's error code. */
const STAGED_FILE_STATUS: Readonly<Record<string, number>> = {
  NotSupported: 404,
  NoSuchStaging: 404,
  InvalidPath: 400,
  ENOSPC: 507,
};

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
  /**
   * The command that started it (default `npm run serve`): a request without the token is told to open the URL it
   * printed.
   */
  readonly command?: string;
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
  const TOKEN_REFUSED = tokenRefused(options.command ?? 'npm run serve');
  const windowFiles = await readWindowFiles(options.staticDir);

  const listener = (request: http.IncomingMessage, response: http.ServerResponse) => {
    // A request read with others its connection pipelined past the limit, which closed it.
    if (request.socket.destroyed) return;
    handle(request, response).catch(() => {
      // Nothing internal (paths, parser messages) goes back to the client.
      if (!response.headersSent)
        send(response, 500, failure('InternalError', 'The host could not handle that request.'));
      else response.destroy();
    });
  };
  // A connection that sends no request within the headers timeout is closed: idle sockets cannot
  // pile up. (No limit on a whole request: an upload takes as long as its file.)
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const serverOptions = {
    headersTimeout,
    requestTimeout: 0,
    connectionsCheckingInterval: Math.min(1000, headersTimeout),
    maxHeaderSize: MAX_HEADER_BYTES,
  };
  const server = options.tls
    ? https.createServer({
        ...serverOptions,
        cert: options.tls.cert,
        key: options.tls.key,
        handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      })
    : http.createServer(serverOptions);
  // A body may take hours (a large file on a slow link), so no request has a time limit; a socket
  // that moves nothing for this long is closed, however it got there (a trickle holds no socket long).
  const inactivityMs = options.inactivityTimeoutMs ?? INACTIVITY_TIMEOUT_MS;
  server.setTimeout(inactivityMs, (socket) => socket.destroy());
  // Between requests Node watches a kept-alive socket with this instead.
  server.keepAliveTimeout = Math.min(server.keepAliveTimeout, inactivityMs);

  // The limits see each request first: one past them is not handled.
  const connections = limitConnections(server, { firstBytesTimeoutMs: headersTimeout });
  server.on('request', listener);

  // Filled in once the port is known.
  let hosts: ReadonlySet<string> = new Set();
  const scheme = options.tls ? 'https' : 'http';

  /** Why a request is refused before anything else is looked at, or undefined. */
  function refusal(request: http.IncomingMessage): { status: number; code: string; message: string } | undefined {
    // DNS rebinding: a page on evil.example that resolves to this machine names evil.example here.
    // Which names it does answer to is not said: with --host 0.0.0.0 they are this machine's names and addresses.
    if (!isAllowedHost(request, hosts))
      return {
        status: 421,
        code: 'MisdirectedRequest',
        message: 'This host does not answer to that name (start it with --public-name to add one).',
      };
    if (!isSameOrigin(request, scheme))
      return { status: 403, code: 'Forbidden', message: 'Requests from another origin are refused.' };
    return undefined;
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const refused = refusal(request);
    if (refused) return send(response, refused.status, failure(refused.code, refused.message));
    const url = requestTarget(request);
    if (!url) return send(response, 400, failure('InvalidRequest', 'Bad request target.'));
    // The API is a WebSocket; asked over plain HTTP it says whether the token is right (a browser
    // cannot see why a WebSocket's upgrade was refused, so the window asks here).
    if (url.pathname === API_PATH) {
      if (!sameToken(bearerToken(request), token)) return send(response, 401, failure('Unauthorized', TOKEN_REFUSED));
      if (sockets.clients.size >= MAX_API_SOCKETS)
        return send(response, 503, failure('TooManySockets', TOO_MANY_SOCKETS));
      return send(
        response,
        426,
        failure('UpgradeRequired', `The API is a WebSocket at ${API_PATH}, opened with the token among its protocols.`),
      );
    }
    if (url.pathname.startsWith(STAGED_FILES_PATH)) {
      if (!sameToken(bearerToken(request), token)) return send(response, 401, failure('Unauthorized', TOKEN_REFUSED));
      connections.vouch(request, response);
      return receiveStagedFile(request, response, url);
    }
    if (url.pathname.startsWith(SAVE_LINKS_PATH)) return sendSavedObject(request, response, url);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(response, 405, failure('MethodNotAllowed', 'Method not allowed.'));
    // The window itself holds nothing secret: it is served to anyone who may reach the host, and
    // asks for the token (from the URL's fragment) before it can do anything.
    return serveWindow(request, response, url.pathname);
  }

  async function serveWindow(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    pathname: string,
  ): Promise<void> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return send(response, 400, failure('InvalidRequest', 'Bad path.'));
    }
    const file = windowFiles.fileFor(decoded);
    if (!file)
      return send(
        response,
        404,
        failure('NotFound', 'This host has no window to serve: build it (npm run build), then start the host again.'),
      );
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': file.contentType,
      'content-length': String(file.body.length),
      'cache-control': 'no-store',
    });
    if (request.method === 'HEAD' || file.body.length <= WINDOW_SLICE_BYTES) {
      response.end(request.method === 'HEAD' ? undefined : file.body);
      return;
    }
    await pipeline(Readable.from(slices(file.body, WINDOW_SLICE_BYTES)), response);
  }

  // A file of a staged batch (uploads.stage): PUT /uploads/<stagingId>?path=<relative path>
  // [&modified=<ms>], the file as the body. Where it goes is the service's word; the disk's free space is this host's.
  // Its bytes count into its job as they land (the job's first phase, when it has started); its
  // end is told either way, and a refusal or a browser gone mid-body fails that job in words.
  async function receiveStagedFile(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    url: URL,
  ): Promise<void> {
    const [stagingId, ...rest] = url.pathname.slice(STAGED_FILES_PATH.length).split('/');
    if (request.method !== 'PUT' || rest.length > 0)
      return send(
        response,
        405,
        failure('MethodNotAllowed', 'Files of an upload are sent with PUT /uploads/<stagingId>?path=<relative path>.'),
      );
    const relativePath = url.searchParams.get('path') ?? '';
    const target = await service.stagedFile(stagingId ?? '', relativePath);
    if (!target.ok) {
      request.resume();
      const { code } = target.error;
      const full = code === 'ENOSPC' ? failure(code, STAGING_FULL) : target;
      // The token holder's body is read to its end, and dropped: the window reads why, and sends the next file.
      return send(response, STAGED_FILE_STATUS[code] ?? 400, full, false);
    }
    const staged = target.value;
    const refuse = (status: number, code: string, message: string) => {
      staged.ended(new BargeError(code, message));
      return send(response, status, failure(code, message), false);
    };
    let received = 0;
    try {
      const { file, stagingRoot } = staged;
      const length = Number(request.headers['content-length'] ?? 0);
      const margin = options.stagingFreeMarginBytes ?? STAGING_FREE_MARGIN_BYTES;
      if (length + margin > (await freeBytes(stagingRoot))) {
        request.resume();
        return refuse(
          507,
          'ENOSPC',
          "The host's disk for staging uploads is nearly full: free some space there, or upload fewer files at a time.",
        );
      }
      // Its upload cancelled or failed meanwhile: the rest of the body is not wanted.
      const cut = () => request.destroy();
      staged.signal.addEventListener('abort', cut, { once: true });
      // A body without a length (chunked), or many at once, is checked again as it is written.
      const failed = await receiveInto(request, file, { root: stagingRoot, marginBytes: margin }, (bytes) => {
        received += bytes;
        staged.received(bytes);
      }).finally(() => staged.signal.removeEventListener('abort', cut));
      if (failed) {
        // A path the disk refused to open (too long, a folder there): nothing was written.
        const refusal = STAGED_PATH_REFUSALS[failed.code ?? ''];
        if (refusal) return refuse(400, 'InvalidPath', refusal);
        // Nothing half-written stays behind to fill the disk for every later upload.
        await rm(file, { force: true });
        if (failed.code === 'ENOSPC') return refuse(507, 'ENOSPC', STAGING_FULL);
        if (staged.signal.aborted) return;
        // The browser went away mid-body (its page closed, the connection lost): its job fails in words.
        staged.ended(
          new BargeError(
            'BrowserGone',
            `The browser stopped sending ${printable(relativePath)} after ` +
              `${formatBytes(received)}${length > 0 ? ` of ${formatBytes(length)}` : ''} (its page was closed, ` +
              `or the connection broke): nothing was uploaded. Drop the files again.`,
          ),
        );
        throw failed;
      }
      // The file's own modification time (the browser's File.lastModified), not the moment it arrived:
      // "Replace if newer" and the question about an object already there compare that one. Set
      // before its job hears the file is here, so the job reads that time.
      const modifiedMs = Number(url.searchParams.get('modified'));
      if (Number.isFinite(modifiedMs) && modifiedMs > 0)
        await utimes(file, new Date(), new Date(modifiedMs)).catch(() => undefined);
      staged.ended();
      return send(response, 200, ok(null));
    } finally {
      // However it went (a throw included), its job hears that this file ended.
      staged.ended(
        new BargeError('InternalError', `The host could not take ${printable(relativePath)}: drop the files again.`),
      );
    }
  }

  // An object a page saves with the browser's own download: GET /save/<link>, where the link came
  // over the page's socket (objects.saveLink) and stands for that one object, once. A browser
  // following a link sends no Authorization header, and the token is never put in a URL: the link is
  // the token's stand-in, as narrow as it can be; the Host and Origin checks above apply as to all.
  async function sendSavedObject(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    url: URL,
  ): Promise<void> {
    const link = url.pathname.slice(SAVE_LINKS_PATH.length);
    if (request.method !== 'GET')
      return send(response, 405, failure('MethodNotAllowed', 'A saved object is fetched with GET /save/<link>.'));
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(link))
      return send(response, 404, failure('NoSuchSaveLink', 'There is no such download link.'));
    const followed = service.followSaveLink(link);
    if (!followed.ok) return send(response, 404, followed);
    // A link given to a token holder: a download that may wait for the store, then take hours, is
    // not a stranger's, from now on (strangers' requests while the store is asked must not cut it).
    connections.vouch(request, response);
    // The browser going away (the download cancelled) lets go of the store's answer too.
    const gone = new AbortController();
    response.once('close', () => gone.abort());
    const saved = await followed.value.open(gone.signal);
    if (!saved.ok) return send(response, 502, saved);
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

  // No compression: a small message must not inflate into a large one. One message of a socket at
  // a time, each in a turn of its own (allowSynchronousEvents off): a socket's flood of small
  // messages, read 64 KiB at a time, no longer holds everyone else's requests back (GET / once
  // waited 35 s behind 32 such sockets).
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    allowSynchronousEvents: false,
    handleProtocols: () => API_PROTOCOL,
  });
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands the socket over with no 'error' listener: a reset now would be thrown, and end the host.
    socket.on('error', () => socket.destroy());
    const refused = upgradeRefusal(request);
    if (refused) {
      const body = JSON.stringify(failure(refused.code, refused.message));
      const answer =
        `HTTP/1.1 ${refused.status} ${http.STATUS_CODES[refused.status]}\r\nConnection: ` +
        `close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      socket.end(answer, () => socket.destroy());
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      // A frame the WebSocket library refuses (bad UTF-8, too long, a reserved bit) is an 'error' on
      // the socket, which ws then closes (1007, 1009, 1002): without a listener it would end the host.
      ws.on('error', () => undefined);
      serveApi(ws, service);
    });
  });

  /** Why an upgrade is refused, or undefined: only the API's socket, with the token, is opened. */
  function upgradeRefusal(
    request: http.IncomingMessage,
  ): { status: number; code: string; message: string } | undefined {
    const refused = refusal(request);
    if (refused) return refused;
    const url = requestTarget(request);
    if (!url) return { status: 400, code: 'InvalidRequest', message: 'Bad request target.' };
    if (url.pathname !== API_PATH)
      return { status: 404, code: 'NotFound', message: `The API's socket is at ${API_PATH}.` };
    if (!sameToken(offeredToken(request.headers['sec-websocket-protocol']), token))
      return { status: 401, code: 'Unauthorized', message: TOKEN_REFUSED };
    if (sockets.clients.size >= MAX_API_SOCKETS)
      return { status: 503, code: 'TooManySockets', message: TOO_MANY_SOCKETS };
    if (
      !(request.headers['sec-websocket-protocol'] ?? '').split(',').some((offered) => offered.trim() === API_PROTOCOL)
    ) {
      return { status: 400, code: 'InvalidRequest', message: `Offer the protocol ${API_PROTOCOL} beside the token.` };
    }
    return undefined;
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(host, port, options.publicNames, scheme);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  // A host listening on every address is reached, from this machine, at the loopback one.
  const reachedAt = shownHost === '0.0.0.0' || shownHost === '[::]' ? '127.0.0.1' : shownHost;
  return {
    // The token in the fragment: a browser sends it to no server, this one included.
    url: `${scheme}://${reachedAt}:${port}/#token=${token}`,
    port,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Said to a request without the token, naming the command that printed the URL (`npm run demo` is not `npm run serve`).
 */
function tokenRefused(command: string): string {
  return `Open the URL that "${command}" printed: it carries the access token.`;
}
const STAGING_FULL = "The host's disk for staging uploads is full: free some space there, then upload again.";
const TOO_MANY_SOCKETS = `This host has ${MAX_API_SOCKETS} windows open already: close one, then reload this one.`;

/**
 * What a request asks for, or undefined if its target is not a path: a request line may hold
 * anything (`http://[/`, `//other/api`), and a browser sends a server only a path.
 */
function requestTarget(request: http.IncomingMessage): URL | undefined {
  const target = request.url ?? '';
  if (!target.startsWith('/') || target.startsWith('//')) return undefined;
  try {
    return new URL(target, 'http://host');
  } catch {
    return undefined;
  }
}

/** `bytes` in slices of `size` (views: nothing is copied). */
function* slices(bytes: Buffer, size: number): Generator<Buffer> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

/**
 * A JSON answer. A refusal or a failure (4xx, 5xx) ends its connection unless told (`close`):
 * whatever else comes on it, a body trickled for ever among it, is not read.
 */
function send(response: http.ServerResponse, status: number, body: Result<unknown>, close = status >= 400): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json',
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(JSON.stringify(body));
}
