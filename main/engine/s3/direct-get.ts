// A GET whose body goes straight to a sink (a file), beside Node's HTTP client.
//
// Why: Node's client hands a body over in freshly allocated 64 KiB buffers, through its parser and
// two streams, and the file stream writes each one. Measured on a 1 GiB download at 16 ranges: 2.1 s
// of user CPU (parser 0.3 s, garbage collection 0.3 s, writes 0.3 s, stream plumbing most of the
// rest) against s5cmd's 0.06 s. Here each socket reads into one buffer of its own (net's `onread`),
// the bytes are copied into a reusable write buffer, and each full buffer is one positional write:
// nothing is allocated per chunk, and the socket is paused while its buffer is written.
//
// HTTP/1.1 as S3 answers a GET: a head, then a body framed by Content-Length or chunked encoding.
// Sockets are kept alive in a pool of their own; one that the server closed while it sat idle is
// replaced before any byte of the answer is lost (a GET can be sent again).

import net from 'node:net';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import type { IncomingHttpHeaders } from 'node:http';
import { abortError } from '../queue/retry-policy.ts';
import { currentRequest } from '../queue/request-signals.ts';

export interface DirectRequest {
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number;
  /** The path with its query, encoded. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** A socket quiet for this long fails the request. */
  readonly stallMs: number;
  /** On a new socket rather than a pooled one (a retry). */
  readonly fresh?: boolean;
  readonly lookup?: LookupFunction;
}

export interface ResponseHead {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
}

export interface BodySink {
  /** The head of a 2xx answer; a throw refuses the body (and closes the connection). */
  accept(head: ResponseHead): void;
  /** The next bytes of the body, in order; the buffer is reused once the promise settles. */
  write(chunk: Buffer): Promise<void>;
}

export interface DirectAnswer {
  readonly head: ResponseHead;
  /** The start of the body of an answer other than 2xx (S3's XML error), which goes to no sink. */
  readonly errorText?: string;
}

/** What each socket reads into: as large as a read from a busy socket usually is. */
const READ_BUFFER_BYTES = 64 * 1024;
/** What each request writes at once: a 1 GiB download is about a thousand writes. */
const WRITE_BUFFER_BYTES = 1024 * 1024;
const MAX_HEAD_BYTES = 64 * 1024;
const ERROR_TEXT_LIMIT = 64 * 1024;
/** An idle pooled socket is closed after this long (stores close theirs after 5-20 s). */
const IDLE_MS = 4_000;
const HEAD_END = Buffer.from('\r\n\r\n');

/** Write buffers free for the next request: reused, so a download allocates none per range. */
const spareWriteBuffers: Buffer[] = [];
const MAX_SPARE_WRITE_BUFFERS = 32;

/** A write buffer for a body of `bodyBytes` (if known): a small body gets one of its own size. */
function takeWriteBuffer(bodyBytes: number | undefined): Buffer {
  // Many small objects at once must not hold a MiB each (measured: 64 in flight of 1-byte objects).
  if (bodyBytes !== undefined && bodyBytes < WRITE_BUFFER_BYTES) return Buffer.allocUnsafe(Math.max(1, bodyBytes));
  return spareWriteBuffers.pop() ?? Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
}

function giveWriteBuffer(buffer: Buffer): void {
  if (buffer.length === WRITE_BUFFER_BYTES && spareWriteBuffers.length < MAX_SPARE_WRITE_BUFFERS)
    spareWriteBuffers.push(buffer);
}

/** A socket and the request reading from it now (its onread callback is fixed when it is made). */
class PooledSocket {
  readonly socket: net.Socket;
  /** Where the socket's bytes go; returns false to pause reading. */
  reader: ((chunk: Buffer) => boolean) | undefined;
  /** Whether it carried a request before (so may have been closed by the server while idle). */
  used = false;
  readonly key: string;

  constructor(request: DirectRequest, key: string) {
    this.key = key;
    const onread = {
      buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
      callback: (bytes: number, buffer: Uint8Array) =>
        this.reader?.(Buffer.from(buffer.buffer, buffer.byteOffset, bytes)) ?? false,
    };
    const options = {
      host: request.hostname,
      port: request.port,
      onread,
      ...(request.lookup ? { lookup: request.lookup } : {}),
    };
    this.socket = request.secure
      ? tls.connect({ ...options, servername: net.isIP(request.hostname) ? undefined : request.hostname })
      : net.connect(options);
    this.socket.setNoDelay(true);
  }
}

/** Kept-alive sockets by origin, newest first. */
export class DirectGetPool {
  private readonly idle = new Map<string, PooledSocket[]>();
  private closed = false;

  async get(request: DirectRequest, sink: BodySink): Promise<DirectAnswer> {
    if (request.signal?.aborted) throw abortError();
    for (;;) {
      const key = `${request.secure ? 's' : ''}${request.hostname}:${request.port}`;
      const pooled = request.fresh ? undefined : this.takeIdle(key);
      const connection = pooled ?? new PooledSocket(request, key);
      try {
        return await exchange(connection, request, sink, (reusable) => this.settle(connection, reusable));
      } catch (error) {
        // A socket the server closed while it sat in the pool fails before any byte of the answer:
        // the request is sent again on a new one, once per stale socket.
        if (pooled && (error as { beforeAnswer?: boolean }).beforeAnswer) continue;
        throw error;
      }
    }
  }

  /** Close every idle socket; sockets in use close when their request ends. */
  close(): void {
    this.closed = true;
    for (const sockets of this.idle.values()) for (const each of sockets) each.socket.destroy();
    this.idle.clear();
  }

  private takeIdle(key: string): PooledSocket | undefined {
    const sockets = this.idle.get(key);
    for (let candidate = sockets?.pop(); candidate; candidate = sockets?.pop()) {
      if (candidate.socket.destroyed) continue;
      candidate.socket.setTimeout(0);
      candidate.socket.removeAllListeners('timeout');
      candidate.socket.ref();
      return candidate;
    }
    return undefined;
  }

  /** After a request: back into the pool, or closed. */
  private settle(connection: PooledSocket, reusable: boolean): void {
    const socket = connection.socket;
    socket.removeAllListeners('timeout');
    if (!reusable || this.closed || socket.destroyed) {
      connection.reader = undefined;
      socket.destroy();
      return;
    }
    if (!connection.used) {
      connection.used = true;
      // Once per socket: a socket that closes while idle leaves the pool.
      socket.once('close', () => {
        const list = this.idle.get(connection.key);
        const at = list?.indexOf(connection) ?? -1;
        if (list && at >= 0) list.splice(at, 1);
      });
    }
    // An idle socket is still read: a server that closes it is seen at once, and bytes it sends
    // unasked (which would pass for the next answer) close it.
    connection.reader = () => {
      socket.destroy();
      return false;
    };
    socket.resume();
    // Idle sockets keep no process alive, and go after a while.
    socket.unref();
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    const sockets = this.idle.get(connection.key) ?? [];
    sockets.push(connection);
    this.idle.set(connection.key, sockets);
  }
}

function protocolError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ECONNRESET' });
}

function requestHead(request: DirectRequest): string {
  let head = `GET ${request.path} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(request.headers)) {
    // Values come from the store too (an ETag in If-Match): none may end the header early. Sent as
    // latin1, a character past U+00FF would lose its high byte (U+010A becomes a line feed), so only
    // what Node's own client allows goes: tab, printable ASCII and latin1.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[^\t\x20-\x7e\x80-\xff]/.test(value)) {
      throw Object.assign(
        new Error(`The header ${name.replace(/[^\x20-\x7e]/g, '?')} holds a character a header cannot carry.`),
        { name: 'InvalidHeader' },
      );
    }
    head += `${name}: ${value}\r\n`;
  }
  return `${head}connection: keep-alive\r\n\r\n`;
}

/** Status and headers of a response head (without its blank line), as Node's client gives them. */
export function parseHead(text: string): ResponseHead {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1];
  if (!status) throw protocolError(`The server's answer is not HTTP/1.1 ("${(lines[0] ?? '').slice(0, 40)}").`);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(status), headers };
}

/** How the body ends: after a length, after its last chunk, or when the server closes. */
type Framing = { kind: 'length'; left: number } | { kind: 'chunked'; decoder: ChunkedDecoder } | { kind: 'close' };

function framingOf(head: ResponseHead): Framing {
  const encoding = String(head.headers['transfer-encoding'] ?? '').toLowerCase();
  if (encoding.includes('chunked')) return { kind: 'chunked', decoder: new ChunkedDecoder() };
  const length = head.headers['content-length'];
  if (length !== undefined) {
    if (!/^\d+$/.test(length)) throw protocolError(`The server sent a bad Content-Length ("${length}").`);
    return { kind: 'length', left: Number(length) };
  }
  return { kind: 'close' };
}

/**
 * Chunked transfer coding, decoded as bytes arrive: each call hands over the data parts of one read
 * (views into it, never copies) and says whether the body ended.
 */
export class ChunkedDecoder {
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  private line = '';
  private left = 0;
  /** Bytes of trailer lines so far: a body's trailer is a few headers, not endless. */
  private trailerBytes = 0;

  /** Feeds `chunk`; `emit` gets the data in it. Returns the bytes used (the rest follows the body). */
  feed(chunk: Buffer, emit: (data: Buffer) => void): number {
    let at = 0;
    while (at < chunk.length && this.state !== 'done') {
      if (this.state === 'data') {
        const take = Math.min(this.left, chunk.length - at);
        emit(chunk.subarray(at, at + take));
        at += take;
        this.left -= take;
        if (this.left === 0) this.state = 'data-end';
        continue;
      }
      const newline = chunk.indexOf(10, at);
      const end = newline < 0 ? chunk.length : newline;
      this.line += chunk.toString('latin1', at, end);
      if (this.line.length > 4096) throw protocolError('The server sent a chunk header too long to be one.');
      at = newline < 0 ? chunk.length : newline + 1;
      if (newline < 0) continue;
      const line = this.line.replace(/\r$/, '');
      this.line = '';
      if (this.state === 'size') {
        const size = /^([0-9a-fA-F]+)/.exec(line)?.[1];
        if (size === undefined) throw protocolError(`The server sent a bad chunk size ("${line.slice(0, 20)}").`);
        this.left = parseInt(size, 16);
        this.state = this.left === 0 ? 'trailer' : 'data';
      } else if (this.state === 'data-end') {
        if (line !== '') throw protocolError('A chunk of the body was longer than it said.');
        this.state = 'size';
      } else if (line === '') {
        this.state = 'done';
      } else if ((this.trailerBytes += line.length) > MAX_HEAD_BYTES) {
        throw protocolError('The server sent a trailer too long to be one.');
      }
    }
    return at;
  }

  get done(): boolean {
    return this.state === 'done';
  }
}

/**
 * One request on `connection`: the head is parsed, a 2xx body goes to the sink in full write
 * buffers, another body is kept as text (the store's error). `settle` gets the socket back, with
 * whether another request may use it.
 */
function exchange(
  connection: PooledSocket,
  request: DirectRequest,
  sink: BodySink,
  settle: (reusable: boolean) => void,
): Promise<DirectAnswer> {
  const socket = connection.socket;
  // Taken now: a pooled socket's callbacks run in the context of the request that opened it.
  const timer = currentRequest();
  return new Promise<DirectAnswer>((resolve, reject) => {
    let head: ResponseHead | undefined;
    let framing: Framing | undefined;
    let headBytes = Buffer.alloc(0);
    let anyByteArrived = false;
    /** Interim answers (100 Continue) seen: a server may not send them forever. */
    let interim = 0;
    /** A head must arrive whole in a while, however slowly its bytes trickle (each resets the stall timer). */
    let headDeadline: NodeJS.Timeout | undefined;
    let errorText: string | undefined;
    // The body's bytes not yet written, and the write under way (one at a time: the socket waits).
    let buffer: Buffer | undefined;
    let filled = 0;
    let writing: Promise<void> | undefined;
    /** The body's length, where the head says it. */
    let bodyBytes: number | undefined;
    let finished = false;

    /** What is in the buffer, out to the sink. */
    const flush = (): Promise<void> => {
      if (!buffer || filled === 0) return Promise.resolve();
      const bytes = buffer.subarray(0, filled);
      filled = 0;
      return sink.write(bytes);
    };

    const finish = (error: Error | undefined, reusable: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(headDeadline);
      request.signal?.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      // Whatever arrived is written before the request ends, failed or not: a retry resumes after it.
      const writes = async () => {
        if (writing) await writing;
        await flush();
      };
      const end = (failure: Error | undefined) => {
        if (buffer) giveWriteBuffer(buffer);
        buffer = undefined;
        // A server that says it closes the connection does (HTTP/1.1's "Connection: close").
        const closing = /\bclose\b/i.test(String(head?.headers.connection ?? ''));
        settle(reusable && failure === undefined && !closing);
        if (failure) reject(failure);
        else resolve({ head: head!, errorText });
      };
      writes().then(
        () => end(error),
        (writeError: unknown) => end(error ?? (writeError as Error)),
      );
    };

    /** `stale`: the failure may be a server's close of a reused socket (not a timeout). */
    const fail = (error: Error, stale = true) => {
      // Nothing of the answer arrived on a reused socket: the server had closed it (see get()).
      if (stale && !anyByteArrived && connection.used) Object.assign(error, { beforeAnswer: true });
      socket.destroy();
      finish(error, false);
    };

    const onError = (error: Error) => fail(error);
    // A body framed by the connection ends with it; any other must have ended before.
    const onEnd = () => {
      if (head && framing?.kind === 'close') finish(undefined, false);
      else
        fail(
          protocolError(
            head
              ? 'The connection closed before the whole body arrived.'
              : 'The connection closed before the server answered.',
          ),
        );
    };
    const onAbort = () => {
      socket.destroy();
      finish(abortError(), false);
    };

    const bodyDone = () =>
      (framing?.kind === 'length' && framing.left === 0) || (framing?.kind === 'chunked' && framing.decoder.done);

    /** Bytes of the body into the write buffer (or the error text). */
    const copyIn = (data: Buffer): void => {
      if (errorText !== undefined) {
        errorText += data.toString('utf8');
        return;
      }
      buffer ??= takeWriteBuffer(bodyBytes);
      timer?.moved(data.length);
      // Never more than a read at once (READ_BUFFER_BYTES), and the buffer is written once less than
      // two reads' room is left: it always has room (a small body's buffer holds the whole body).
      if (data.length > buffer.length - filled) throw protocolError('A read did not fit its buffer.');
      filled += data.copy(buffer, filled);
    };

    /** After a read: the buffer out if it is nearly full (the socket waits), or the request done. */
    const afterRead = (): boolean => {
      if (buffer && buffer.length - filled < 2 * READ_BUFFER_BYTES) {
        // The socket waits for the disk, not the other way round: no stall while it does.
        socket.setTimeout(0);
        const pending = flush();
        writing = pending;
        pending.then(
          () => {
            if (writing === pending) writing = undefined;
            if (finished) return;
            socket.setTimeout(request.stallMs);
            if (bodyDone()) finish(undefined, true);
            else socket.resume();
          },
          (error: unknown) => {
            if (writing === pending) writing = undefined;
            socket.destroy();
            finish(error as Error, false);
          },
        );
        return false;
      }
      if (bodyDone()) {
        finish(undefined, true);
        return false;
      }
      return true;
    };

    /** The body's part of one read. */
    const onBody = (chunk: Buffer): boolean => {
      if (framing!.kind === 'chunked') {
        const decoder = framing!.decoder;
        const used = decoder.feed(chunk, copyIn);
        if (used < chunk.length) throw protocolError('The server sent bytes after the body.');
      } else if (framing!.kind === 'length') {
        if (chunk.length > framing!.left) throw protocolError('The server sent more bytes than Content-Length said.');
        framing!.left -= chunk.length;
        copyIn(chunk);
      } else {
        copyIn(chunk);
      }
      // An error's text is all that is kept of its body: past the limit, the rest is not read (and the
      // socket not reused), so no answer is endless.
      if (errorText !== undefined && errorText.length >= ERROR_TEXT_LIMIT) {
        finish(undefined, false);
        return false;
      }
      return afterRead();
    };

    const onHead = (chunk: Buffer): boolean => {
      headDeadline ??= setTimeout(
        () =>
          fail(
            Object.assign(new Error(`The server's answer did not arrive whole in ${(2 * request.stallMs) / 1000} s`), {
              name: 'TimeoutError',
              code: 'ETIMEDOUT',
            }),
            false,
          ),
        2 * request.stallMs,
      );
      const joined = headBytes.length ? Buffer.concat([headBytes, chunk]) : chunk;
      const end = joined.indexOf(HEAD_END);
      if (end < 0) {
        if (joined.length > MAX_HEAD_BYTES) throw protocolError('The server sent a head too long to be one.');
        headBytes = Buffer.from(joined);
        return true;
      }
      headBytes = Buffer.alloc(0);
      const parsed = parseHead(joined.toString('latin1', 0, end));
      const rest = joined.subarray(end + HEAD_END.length);
      // An interim answer (100 Continue) comes before the real one; a few, not forever.
      if (parsed.status < 200) {
        if (++interim > 8) throw protocolError('The server sent interim answers and no answer.');
        return rest.length ? onHead(rest) : true;
      }
      clearTimeout(headDeadline);
      timer?.answered();
      head = parsed;
      framing = framingOf(parsed);
      bodyBytes = framing.kind === 'length' ? framing.left : undefined;
      if (parsed.status < 300) sink.accept(parsed);
      else errorText = '';
      return rest.length || framing.kind === 'length' ? onBody(rest) : true;
    };

    connection.reader = (chunk) => {
      if (finished) return false;
      anyByteArrived = true;
      try {
        return head ? onBody(chunk) : onHead(chunk);
      } catch (error) {
        fail(error as Error);
        return false;
      }
    };

    socket.on('error', onError);
    socket.on('end', onEnd);
    socket.on('close', onEnd);
    socket.setTimeout(request.stallMs, () =>
      fail(
        Object.assign(new Error(`No data for ${request.stallMs / 1000} s`), {
          name: 'TimeoutError',
          code: 'ETIMEDOUT',
        }),
        false,
      ),
    );
    request.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      socket.write(requestHead(request), 'latin1');
      socket.resume();
    } catch (error) {
      fail(error as Error);
    }
  });
}
