// Connections no token vouches for: how many the host keeps, for how long, and from where.
//
// A connection is vouched for while it carries a request that presented the token (an upload's
// Authorization, the API socket's upgrade) or a save link. Until then, and between its requests,
// and while it fetches the window's files (which anyone may), it is a stranger's: a stranger could
// hold thousands of them, waiting or stalled mid-answer (1,000 stalled fetches of a large file held
// 160 MB), and a local process could before, since loopback had no cap at all. So at most
// MAX_UNVOUCHED_CONNECTIONS are kept, loopback included; when one more arrives, or one more
// request, the connection idle longest is closed: a flood cannot lock anyone out, since a browser
// sends its request as soon as it connects and fetches the window's few files at once. Beyond
// loopback one network holds at most MAX_CONNECTIONS_PER_NETWORK connections, vouched for or not:
// an IPv4 address, or an IPv6 /64 (what one machine is given: counted by address, one /64 is 2^64).
// One connection has at most MAX_REQUESTS_UNDER_WAY unanswered, past which it is closed: browsers
// never pipeline, and one connection of 10,000 pipelined requests grew the host from 96 MB to 1 GB.

import type http from 'node:http';
import net from 'node:net';

/** Connections no token vouches for, at most, over every address (loopback too). */
export const MAX_UNVOUCHED_CONNECTIONS = 128;
/** Connections one network beyond loopback (an IPv4 address, an IPv6 /64) may hold at once. */
export const MAX_CONNECTIONS_PER_NETWORK = 64;
/** Requests one connection may have unanswered (pipelined); one more closes it. */
export const MAX_REQUESTS_UNDER_WAY = 8;

export interface ConnectionLimits {
  /** A connection that sends nothing within this is closed. */
  readonly firstBytesTimeoutMs: number;
  readonly maxUnvouched?: number;
  readonly maxPerNetwork?: number;
}

export interface ConnectionGuard {
  /** `request` presented the token (or a save link): its connection is not a stranger's until `response` ends. */
  vouch(request: http.IncomingMessage, response: http.ServerResponse): void;
}

export function limitConnections(server: http.Server, limits: ConnectionLimits): ConnectionGuard {
  const maxUnvouched = limits.maxUnvouched ?? MAX_UNVOUCHED_CONNECTIONS;
  const perNetwork = new NetworkCounts(limits.maxPerNetwork ?? MAX_CONNECTIONS_PER_NETWORK);
  // The raw connections no token vouches for, the one idle longest first, by remote address and
  // port (the same for a TLS socket and the connection under it).
  const unvouched = new Map<string, net.Socket>();
  const keyOf = (socket: net.Socket) => `${socket.remoteAddress}|${socket.remotePort}`;
  const keep = (key: string, connection: net.Socket) => {
    unvouched.delete(key);
    unvouched.set(key, connection);
    if (unvouched.size <= maxUnvouched) return;
    const [oldestKey, oldest] = unvouched.entries().next().value!;
    unvouched.delete(oldestKey);
    oldest.destroy();
  };

  server.on('connection', (connection: net.Socket) => {
    const key = keyOf(connection);
    const address = connection.remoteAddress ?? '';
    // One that sends nothing is dropped (bytesRead, not a data listener, which would steal a TLS
    // socket's bytes); once it has begun, the server's headers timeout takes over.
    const idle = setTimeout(() => {
      if (connection.bytesRead === 0) connection.destroy();
    }, limits.firstBytesTimeoutMs);
    idle.unref();
    connection.once('close', () => {
      clearTimeout(idle);
      if (unvouched.get(key) === connection) unvouched.delete(key);
    });
    if (!perNetwork.admit(address)) {
      connection.destroy();
      return;
    }
    connection.once('close', () => perNetwork.release(address));
    keep(key, connection);
  });
  // Requests not yet answered, by the socket they came over.
  const underWay = new WeakMap<net.Socket, number>();
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const socket = request.socket;
    const count = (underWay.get(socket) ?? 0) + 1;
    underWay.set(socket, count);
    response.once('close', () => underWay.set(socket, (underWay.get(socket) ?? 1) - 1));
    // Pipelined past the bound: the requests already read are not answered.
    if (count > MAX_REQUESTS_UNDER_WAY) {
      socket.destroy();
      return;
    }
    // Each request a stranger's connection makes counts as its latest sign of life.
    const key = keyOf(socket);
    const connection = unvouched.get(key);
    if (connection) keep(key, connection);
  });
  // An upgraded connection is an API socket (which carried the token), or refused and closed.
  server.on('upgrade', (request: http.IncomingMessage) => unvouched.delete(keyOf(request.socket)));

  return {
    vouch(request, response) {
      const key = keyOf(request.socket);
      const connection = unvouched.get(key);
      if (!connection) return;
      unvouched.delete(key);
      // Answered and kept alive, it waits for its next request as a stranger's again.
      response.once('close', () => {
        if (!connection.destroyed) keep(key, connection);
      });
    },
  };
}

/** Connections per network beyond loopback (loopback is not counted: it is bounded as waiting). */
export class NetworkCounts {
  private readonly counts = new Map<string, number>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Whether a connection from `address` may stay; if so it counts until `release`. */
  admit(address: string): boolean {
    if (isLoopbackAddress(address)) return true;
    const network = clientNetwork(address);
    const count = (this.counts.get(network) ?? 0) + 1;
    if (count > this.max) return false;
    this.counts.set(network, count);
    return true;
  }

  release(address: string): void {
    if (isLoopbackAddress(address)) return;
    const network = clientNetwork(address);
    const left = (this.counts.get(network) ?? 1) - 1;
    if (left > 0) this.counts.set(network, left);
    else this.counts.delete(network);
  }
}

/** The network a client's address counts toward: an IPv4 address itself (IPv4-mapped too), an IPv6 address's /64. */
export function clientNetwork(address: string): string {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  if (!net.isIPv6(bare)) return bare;
  const groups = ipv6Groups(bare);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/** 127.0.0.0/8 (IPv4-mapped too) or ::1, however written. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  if (net.isIPv6(bare) && ipv6Groups(bare).every((group, index) => group === (index === 7 ? 1 : 0))) return true;
  return clientNetwork(bare).startsWith('127.');
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part counts as two). */
function ipv6Groups(address: string): number[] {
  const toGroups = (part: string) => (part === '' ? [] : part.split(':').flatMap((piece) => {
    if (!piece.includes('.')) return [Number.parseInt(piece, 16)];
    const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
    return [(a << 8) | b, (c << 8) | d];
  }));
  const [head, tail] = address.split('::') as [string, string | undefined];
  const front = toGroups(head);
  if (tail === undefined) return front;
  const back = toGroups(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
