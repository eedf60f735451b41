// An HTTP proxy in front of the test S3 server that injects faults on demand: cut a response body
// after some bytes, or answer 503 SlowDown. Requests pass through unchanged (the Host header too,
// so signatures stay valid); only the faults a test asks for are added.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform } from 'node:stream';

export type Fault =
  | { readonly kind: 'cut-body'; readonly afterBytes: number }
  /** Send headers and some of the body, then nothing more: the connection stays open, silent. */
  | { readonly kind: 'stall-body'; readonly afterBytes: number }
  /** Take the request and never answer. */
  | { readonly kind: 'stall' }
  | { readonly kind: 'slow-down' }
  /** Answer with this error, as a store that cannot do what was asked does. */
  | { readonly kind: 'refuse'; readonly status: number; readonly code: string }
  /** Flip one byte of the response body (damage on the way that TCP did not catch). */
  | { readonly kind: 'corrupt-body'; readonly atByte: number }
  /** Flip one byte of the request body on its way to the store. */
  | { readonly kind: 'corrupt-request'; readonly atByte: number }
  /** Hold the request this long before passing it on (latency, as a far-away store has). */
  | { readonly kind: 'delay'; readonly ms: number }
  /** Hold the request until `until` settles, then pass it on (a store slow to answer, as long as a test needs). */
  | { readonly kind: 'hold'; readonly until: Promise<void> }
  /** Pass the request on, then drop the connection instead of its answer: the store did it, the client never hears. */
  | { readonly kind: 'lose-answer' }
  /** Answer with the store's body changed (a store that words its answers its own way; not compressed ones). */
  | { readonly kind: 'rewrite-body'; readonly rewrite: (body: string) => string };

export interface FaultProxy {
  readonly endpoint: string;
  /** Requests seen, by method. */
  readonly seen: { method: string; url: string; range?: string; status?: number }[];
  /** Requests the proxy holds right now, and the most it held at once since the last reset. */
  readonly inFlight: { now: number; peak: number };
  /** Decide the fault (if any) for each request. */
  setRule(rule: (request: http.IncomingMessage) => Fault | undefined): void;
  close(): Promise<void>;
}

/**
 * A store that serves `capacity` requests at once and turns the rest away with 503 SlowDown: of `n` requests in
 * flight, a request is refused with the chance (n - capacity) / n (as S3 past a prefix's request rate, or a
 * gateway with a fixed number of workers). Unlike refusing a fixed share, fewer requests at once are refused
 * less, and none at or below the capacity. A chance, not "refuse while full": a refusal is answered at once
 * and frees its place, so a client with more threads than the capacity would have its spare threads refused
 * over and over, many times for each request served.
 */
export function slowDownBeyond(
  capacity: number,
  inFlight: FaultProxy['inFlight'],
  random: () => number = Math.random,
): (request: http.IncomingMessage) => Fault | undefined {
  return () => (random() * inFlight.now >= capacity ? { kind: 'slow-down' } : undefined);
}

/** A pass-through stream that inverts the bits of the byte at `atByte` (counted from the start). */
export function flipByteAt(atByte: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (atByte >= seen && atByte < seen + chunk.length) {
        chunk = Buffer.from(chunk);
        chunk[atByte - seen] = chunk[atByte - seen]! ^ 0xff;
      }
      seen += chunk.length;
      done(null, chunk);
    },
  });
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  let rule: (request: http.IncomingMessage) => Fault | undefined = () => undefined;
  const seen: FaultProxy['seen'] = [];
  const inFlight = { now: 0, peak: 0 };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((request, response) => {
    const record: FaultProxy['seen'][number] = {
      method: request.method ?? '',
      url: request.url ?? '',
      range: request.headers.range,
    };
    seen.push(record);
    inFlight.now += 1;
    inFlight.peak = Math.max(inFlight.peak, inFlight.now);
    response.once('close', () => {
      inFlight.now -= 1;
    });
    const fault = rule(request);
    if (fault?.kind === 'slow-down' || fault?.kind === 'refuse') {
      const [status, code, message] =
        fault.kind === 'refuse'
          ? [fault.status, fault.code, 'Refused by the fault proxy.']
          : [503, 'SlowDown', 'Please reduce your request rate.'];
      request.resume();
      request.on('end', () => {
        record.status = status;
        response.writeHead(status, { 'content-type': 'application/xml' });
        response.end(
          `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
        );
      });
      return;
    }
    if (fault?.kind === 'stall') {
      request.resume();
      return;
    }
    if (fault?.kind === 'delay') {
      request.pause();
      setTimeout(() => pass(request, response, record, undefined), fault.ms);
      return;
    }
    if (fault?.kind === 'hold') {
      request.pause();
      void fault.until.finally(() => pass(request, response, record, undefined));
      return;
    }
    pass(request, response, record, fault);
  });
  const pass = (
    request: http.IncomingMessage,
    response: http.ServerResponse,
    record: FaultProxy['seen'][number],
    fault: Fault | undefined,
  ) => {
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (upstreamResponse) => {
        record.status = upstreamResponse.statusCode;
        if (fault?.kind === 'lose-answer') {
          upstreamResponse.resume();
          upstreamResponse.on('end', () => response.socket?.destroy());
          return;
        }
        if (fault?.kind === 'rewrite-body') {
          const chunks: Buffer[] = [];
          upstreamResponse.on('data', (chunk: Buffer) => chunks.push(chunk));
          upstreamResponse.on('end', () => {
            const body = Buffer.from(fault.rewrite(Buffer.concat(chunks).toString('utf8')));
            const { 'transfer-encoding': _chunked, ...headers } = upstreamResponse.headers;
            response.writeHead(upstreamResponse.statusCode ?? 502, { ...headers, 'content-length': body.length });
            response.end(body);
          });
          return;
        }
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        if (fault?.kind === 'corrupt-body') {
          upstreamResponse.pipe(flipByteAt(fault.atByte)).pipe(response);
          return;
        }
        if (fault?.kind !== 'cut-body' && fault?.kind !== 'stall-body') {
          upstreamResponse.pipe(response);
          return;
        }
        let sent = 0;
        upstreamResponse.on('data', (chunk: Buffer) => {
          if (sent + chunk.length >= fault.afterBytes) {
            response.write(chunk.subarray(0, Math.max(0, fault.afterBytes - sent)));
            upstreamResponse.destroy();
            // Give the partial body time to leave, then drop the connection mid-body (or go silent).
            if (fault.kind === 'cut-body') setTimeout(() => response.socket?.destroy(), 20);
            return;
          }
          sent += chunk.length;
          response.write(chunk);
        });
        upstreamResponse.on('end', () => response.end());
      },
    );
    forward.on('error', () => response.socket?.destroy());
    if (fault?.kind === 'corrupt-request') request.pipe(flipByteAt(fault.atByte)).pipe(forward);
    else request.pipe(forward);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    seen,
    inFlight,
    setRule(next) {
      rule = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
