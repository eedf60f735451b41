// Connections no token vouches for: how many the host keeps, which one goes when more come, and how
// many requests one connection may have unanswered.
//
// A connection is vouched for while it carries a request that presented the token (an upload's
// Authorization, the API socket's upgrade) or a save link the service knows. Otherwise it is a
// stranger's, and strangers could hold thousands (1,000 stalled fetches held 160 MB). So at most
// MAX_UNVOUCHED_CONNECTIONS are kept, loopback too, and MAX_UNVOUCHED_PER_NETWORK from one network
// beyond it (an IPv4 address, an IPv6 /64; behind a NAT or a TLS proxy that is everyone, the user
// too). One more closes another: the one idle longest, where idle is answered and waiting for its
// next request, or silent through a whole ACTIVITY_CHECK_MS (sending nothing, or reading none of
// its answer). A fetch that moves bytes is not cut while an idle one is kept: one was, at 3 MB of
// 32 MiB, when a connection's last request counted as its last sign of life. Only when every other
// one is busy does the one busy longest go; a newcomer is never the one refused (it is busy until a
// check finds it silent), so no flood keeps the user out.
// One connection has at most MAX_REQUESTS_UNDER_WAY unanswered, past which it is closed: browsers
// never pipeline, and one connection of 10,000 pipelined requests grew the host from 96 MB to 1 GB.

import type http from 'node:http';
import net from 'node:net';

/** Connections no token vouches for, at most, over every address (loopback too). */
export const MAX_UNVOUCHED_CONNECTIONS = 128;
/** Connections no token vouches for from one network beyond loopback (an IPv4 address, an IPv6 /64). */
export const MAX_UNVOUCHED_PER_NETWORK = 64;
/** Requests one connection may have unanswered (pipelined); one more closes it. */
export const MAX_REQUESTS_UNDER_WAY = 8;
/** How often connections are looked at for bytes moved: one that moved none since the last look is silent. */
export const ACTIVITY_CHECK_MS = 1000;

export interface ConnectionLimits {
  /** A connection that sends nothing within this is closed. */
  readonly firstBytesTimeoutMs: number;
  readonly maxUnvouched?: number;
  readonly maxPerNetwork?: number;
  readonly activityCheckMs?: number;
}

export interface ConnectionGuard {
  /** `request` presented the token (or a save link): its connection is not a stranger's until `response` closes. */
  vouch(request: http.IncomingMessage, response: http.ServerResponse): void;
}

/** One connection, as the caps see it. */
interface Tracked {
  /** The raw connection (under TLS, the socket below the TLS one), and its remote address and port. */
  readonly connection: net.Socket;
  readonly key: string;
  /** The network it counts toward; undefined on loopback. */
  readonly network: string | undefined;
  /** The socket its requests come over (the TLS socket, with TLS), whose bytes tell whether it moves. */
  http: net.Socket;
  /** Requests it has made, and of those not yet answered, and of those vouched for. */
  requests: number;
  underWay: number;
  vouched: number;
  /** Its bytes at the last check, and whether it showed a sign of life since. */
  bytesAtCheck: number;
  stirred: boolean;
  /** The last check found it moved nothing for a whole interval. */
  silent: boolean;
  /**
   * When (in signs of life counted over all connections) it last showed one, and began its answer under way (or
   * connected).
   */
  lastSign: number;
  busySince: number;
  /** Upgraded to an API socket: out of these counts. */
  upgraded: boolean;
}

export function limitConnections(server: http.Server, limits: ConnectionLimits): ConnectionGuard {
  const maxUnvouched = limits.maxUnvouched ?? MAX_UNVOUCHED_CONNECTIONS;
  const maxPerNetwork = limits.maxPerNetwork ?? MAX_UNVOUCHED_PER_NETWORK;
  // Every connection, by remote address and port (the same for a TLS socket and the one under it).
  const connections = new Map<string, Tracked>();
  // Those no token vouches for: the ones the caps count.
  const strangers = new Set<Tracked>();
  const keyOf = (socket: net.Socket) => `${socket.remoteAddress}|${socket.remotePort}`;
  let signs = 0;
  const signOfLife = (tracked: Tracked) => {
    tracked.lastSign = ++signs;
    tracked.stirred = true;
    tracked.silent = false;
  };
  const idle = (tracked: Tracked) => tracked.silent || (tracked.requests > 0 && tracked.underWay === 0);
  const bytesOf = (tracked: Tracked) => (tracked.http.bytesRead ?? 0) + (tracked.http.bytesWritten ?? 0);

  /** The one to close among `candidates`: idle longest, else busy longest. */
  function victim(candidates: Iterable<Tracked>): Tracked | undefined {
    let idleLongest: Tracked | undefined;
    let busyLongest: Tracked | undefined;
    for (const tracked of candidates) {
      if (idle(tracked)) {
        if (!idleLongest || tracked.lastSign < idleLongest.lastSign) idleLongest = tracked;
      } else if (!busyLongest || tracked.busySince < busyLongest.busySince) busyLongest = tracked;
    }
    return idleLongest ?? busyLongest;
  }

  /** `tracked` counts as a stranger's (again): past a cap, another goes. */
  function admit(tracked: Tracked): void {
    strangers.add(tracked);
    if (tracked.network !== undefined) {
      const sameNetwork = [...strangers].filter((other) => other.network === tracked.network);
      if (sameNetwork.length > maxPerNetwork) close(victim(sameNetwork));
    }
    if (strangers.size > maxUnvouched) close(victim(strangers));
  }

  function close(tracked: Tracked | undefined): void {
    if (!tracked) return;
    strangers.delete(tracked);
    tracked.connection.destroy();
  }

  function forget(tracked: Tracked): void {
    strangers.delete(tracked);
    if (connections.get(tracked.key) === tracked) connections.delete(tracked.key);
  }

  // Bytes moved since the last look are a sign of life; none, and no request begun or answered, is silence.
  const checks = setInterval(() => {
    for (const tracked of strangers) {
      const bytes = bytesOf(tracked);
      if (bytes !== tracked.bytesAtCheck) {
        tracked.bytesAtCheck = bytes;
        signOfLife(tracked);
      } else if (!tracked.stirred) tracked.silent = true;
      tracked.stirred = false;
    }
  }, limits.activityCheckMs ?? ACTIVITY_CHECK_MS);
  checks.unref();
  server.once('close', () => clearInterval(checks));

  server.on('connection', (connection: net.Socket) => {
    const address = connection.remoteAddress ?? '';
    const tracked: Tracked = {
      connection,
      key: keyOf(connection),
      network: isLoopbackAddress(address) ? undefined : clientNetwork(address),
      http: connection,
      requests: 0,
      underWay: 0,
      vouched: 0,
      bytesAtCheck: 0,
      stirred: false,
      silent: false,
      lastSign: 0,
      busySince: 0,
      upgraded: false,
    };
    signOfLife(tracked);
    tracked.busySince = tracked.lastSign;
    connections.set(tracked.key, tracked);
    // One that sends nothing is dropped (bytesRead, not a data listener, which would steal a TLS
    // socket's bytes); once it has begun, the server's headers timeout takes over.
    const firstBytes = setTimeout(() => {
      if (connection.bytesRead === 0) connection.destroy();
    }, limits.firstBytesTimeoutMs);
    firstBytes.unref();
    connection.once('close', () => {
      clearTimeout(firstBytes);
      forget(tracked);
    });
    admit(tracked);
  });

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const tracked = connections.get(keyOf(request.socket));
    if (!tracked) return;
    tracked.http = request.socket;
    tracked.requests += 1;
    tracked.underWay += 1;
    signOfLife(tracked);
    tracked.busySince = tracked.lastSign;
    response.once('close', () => {
      tracked.underWay -= 1;
      signOfLife(tracked);
    });
    // Pipelined past the bound: the requests already read are not answered.
    if (tracked.underWay > MAX_REQUESTS_UNDER_WAY) request.socket.destroy();
  });

  // An upgraded connection is an API socket (which carried the token), or refused and closed.
  server.on('upgrade', (request: http.IncomingMessage) => {
    const tracked = connections.get(keyOf(request.socket));
    if (!tracked) return;
    tracked.upgraded = true;
    strangers.delete(tracked);
  });

  return {
    vouch(request, response) {
      const tracked = connections.get(keyOf(request.socket));
      if (!tracked) return;
      tracked.vouched += 1;
      strangers.delete(tracked);
      // Answered and kept alive, it waits for its next request as a stranger's again.
      response.once('close', () => {
        tracked.vouched -= 1;
        if (tracked.vouched === 0 && !tracked.upgraded && !tracked.connection.destroyed) admit(tracked);
      });
    },
  };
}

/** The network a client's address counts toward: an IPv4 address itself (IPv4-mapped too), an IPv6 address's /64. */
export function clientNetwork(address: string): string {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  if (!net.isIPv6(bare)) return bare;
  const groups = ipv6Groups(bare);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** 127.0.0.0/8 (IPv4-mapped too) or ::1, however written. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  if (net.isIPv6(bare) && ipv6Groups(bare).every((group, index) => group === (index === 7 ? 1 : 0))) return true;
  return clientNetwork(bare).startsWith('127.');
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part counts as two). */
function ipv6Groups(address: string): number[] {
  const toGroups = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((piece) => {
          if (!piece.includes('.')) return [Number.parseInt(piece, 16)];
          const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head, tail] = address.split('::') as [string, string | undefined];
  const front = toGroups(head);
  if (tail === undefined) return front;
  const back = toGroups(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
