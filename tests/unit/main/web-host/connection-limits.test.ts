// Connections no token vouches for: where one comes from as the caps count it, which one goes when
// one more comes (the one idle longest, never a fetch that moves bytes while an idle one is kept),
// and how many requests one connection may have unanswered.

import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACTIVITY_CHECK_MS,
  clientNetwork,
  isLoopbackAddress,
  limitConnections,
  MAX_REQUESTS_UNDER_WAY,
  MAX_UNVOUCHED_CONNECTIONS,
  MAX_UNVOUCHED_PER_NETWORK,
} from '../../../../main/web-host/connection-limits.ts';
import type { ConnectionGuard, ConnectionLimits } from '../../../../main/web-host/connection-limits.ts';

/** What limitConnections reads of a connection: its address, the bytes it moved, whether it is closed. */
class FakeConnection extends EventEmitter {
  bytesRead = 0;
  bytesWritten = 0;
  destroyed = false;
  readonly remoteAddress: string;
  readonly remotePort: number;

  constructor(remoteAddress: string, remotePort: number) {
    super();
    this.remoteAddress = remoteAddress;
    this.remotePort = remotePort;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

/** A server that emits what limitConnections listens to, as Node's does. */
class FakeServer extends EventEmitter {
  guard: ConnectionGuard;
  private port = 40_000;

  constructor(limits: Partial<ConnectionLimits> = {}) {
    super();
    this.guard = limitConnections(this as unknown as http.Server, { firstBytesTimeoutMs: 600_000, ...limits });
  }

  connect(address = '127.0.0.1'): FakeConnection {
    const connection = new FakeConnection(address, this.port++);
    this.emit('connection', connection);
    return connection;
  }

  /** A request on `connection`: its answer is under way until `answered` is called. */
  request(connection: FakeConnection, options: { vouched?: boolean } = {}): { answered(): void } {
    connection.bytesRead += 40;
    const request = { socket: connection } as unknown as http.IncomingMessage;
    const response = new EventEmitter() as unknown as http.ServerResponse;
    this.emit('request', request, response);
    if (options.vouched) this.guard.vouch(request, response);
    return { answered: () => response.emit('close') };
  }

  /** A request made and answered: the connection waits for its next one. */
  fetched(connection: FakeConnection): void {
    const answer = this.request(connection);
    connection.bytesWritten += 400;
    answer.answered();
  }

  close(): void {
    this.emit('close');
  }
}

const open = (connections: readonly FakeConnection[]) => connections.filter((connection) => !connection.destroyed);

describe('the networks connections are counted by', () => {
  it('counts an IPv6 address by its /64, however it is written, and an IPv4 address (mapped too) by itself', () => {
    expect(clientNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:DB8:1:2:0:0:0:9%eth0')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('::ffff:c000:207')).toBe('192.0.2.7');
    expect(clientNetwork('192.0.2.7')).toBe('192.0.2.7');
  });

  it('knows loopback in every form', () => {
    for (const address of ['127.0.0.1', '127.9.8.7', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.1', '::', '::2', '2001:db8::1', '::ffff:10.0.0.1', ''])
      expect(isLoopbackAddress(address)).toBe(false);
  });
});

describe('which connection goes when one more comes', () => {
  let server: FakeServer;

  beforeEach(() => {
    vi.useFakeTimers();
    server = new FakeServer();
  });

  afterEach(() => {
    server.close();
    vi.useRealTimers();
  });

  it(`one /64 keeps at most ${MAX_UNVOUCHED_PER_NETWORK} strangers' connections, whatever addresses it uses, the ones idle longest going; another /64 and loopback are not counted with it`, () => {
    const own = new FakeServer({ maxUnvouched: 1000 });
    const crowd = Array.from({ length: 100 }, (_, i) => {
      const connection = own.connect(`2001:db8:1:2::${(i + 1).toString(16)}`);
      own.fetched(connection);
      return connection;
    });
    expect(open(crowd)).toEqual(crowd.slice(-MAX_UNVOUCHED_PER_NETWORK));
    const neighbour = own.connect('2001:db8:1:3::1');
    const local = Array.from({ length: 100 }, () => own.connect('127.0.0.1'));
    expect(neighbour.destroyed).toBe(false);
    expect(open(local)).toHaveLength(100);
    expect(open(crowd)).toHaveLength(MAX_UNVOUCHED_PER_NETWORK);
    own.close();
  });

  it(`a user behind a stranger's address (one NAT, or a TLS proxy elsewhere) gets in while the stranger holds ${MAX_UNVOUCHED_PER_NETWORK} idle connections from it; the token holder's connections are not counted`, () => {
    const shared = '203.0.113.7';
    const upload = server.connect(shared);
    const uploading = server.request(upload, { vouched: true });
    // Each of the stranger's has made a request and sits idle (a request every few seconds keeps it so).
    const strangers = Array.from({ length: MAX_UNVOUCHED_PER_NETWORK }, () => {
      const stranger = server.connect(shared);
      server.fetched(stranger);
      return stranger;
    });
    expect(open(strangers)).toHaveLength(MAX_UNVOUCHED_PER_NETWORK);
    const user = server.connect(shared);
    expect(user.destroyed).toBe(false);
    expect(upload.destroyed).toBe(false);
    // The one idle longest made room.
    expect(strangers[0]!.destroyed).toBe(true);
    expect(open(strangers)).toHaveLength(MAX_UNVOUCHED_PER_NETWORK - 1);
    uploading.answered();
  });

  it('a fetch whose bytes move is kept while strangers idle after their request go, however many come after it', () => {
    const user = server.connect();
    server.request(user);
    const strangers: FakeConnection[] = [];
    for (let round = 0; round < 10; round++) {
      user.bytesWritten += 1024 * 1024;
      vi.advanceTimersByTime(ACTIVITY_CHECK_MS);
      for (let i = 0; i < 20; i++) {
        const stranger = server.connect();
        server.fetched(stranger);
        strangers.push(stranger);
      }
    }
    expect(user.destroyed).toBe(false);
    expect(open(strangers)).toEqual(strangers.slice(-(MAX_UNVOUCHED_CONNECTIONS - 1)));
  });

  it('a fetch that moves nothing for a whole check is idle too, and goes before those idle since later', () => {
    const stalled = server.connect();
    server.request(stalled);
    vi.advanceTimersByTime(ACTIVITY_CHECK_MS);
    const strangers = Array.from({ length: MAX_UNVOUCHED_CONNECTIONS - 1 }, () => {
      const stranger = server.connect();
      server.fetched(stranger);
      return stranger;
    });
    // Its reader takes nothing: no byte moves from one check to the next.
    vi.advanceTimersByTime(ACTIVITY_CHECK_MS);
    const user = server.connect();
    expect(stalled.destroyed).toBe(true);
    expect(user.destroyed).toBe(false);
    expect(open(strangers)).toHaveLength(MAX_UNVOUCHED_CONNECTIONS - 1);
  });

  it('when every other connection is busy, the one busy longest goes, never the newcomer: no flood keeps the user out', () => {
    // Strangers that each keep an answer under way, reading it: busy, all of them.
    const busy = Array.from({ length: MAX_UNVOUCHED_CONNECTIONS }, () => {
      const stranger = server.connect();
      server.request(stranger);
      return stranger;
    });
    const user = server.connect();
    expect(user.destroyed).toBe(false);
    expect(busy[0]!.destroyed).toBe(true);
    expect(open(busy)).toHaveLength(MAX_UNVOUCHED_CONNECTIONS - 1);
  });

  it('a connection that sends nothing counts as busy until a check finds it silent, then as idle', () => {
    const busy = Array.from({ length: MAX_UNVOUCHED_CONNECTIONS - 1 }, () => {
      const stranger = server.connect();
      server.request(stranger);
      return stranger;
    });
    const silent = server.connect();
    // Just come, it is given the time a browser takes to send its request.
    server.connect();
    expect(silent.destroyed).toBe(false);
    expect(busy[0]!.destroyed).toBe(true);
    for (let check = 0; check < 2; check++) {
      for (const stranger of busy) stranger.bytesWritten += 1000;
      vi.advanceTimersByTime(ACTIVITY_CHECK_MS);
    }
    const user = server.connect();
    expect(silent.destroyed).toBe(true);
    expect(user.destroyed).toBe(false);
    expect(open(busy)).toHaveLength(MAX_UNVOUCHED_CONNECTIONS - 2);
  });

  it(`a connection with more than ${MAX_REQUESTS_UNDER_WAY} requests unanswered (pipelined) is closed; a token holder's too`, () => {
    const polite = server.connect();
    for (let i = 0; i < MAX_REQUESTS_UNDER_WAY; i++) server.request(polite);
    expect(polite.destroyed).toBe(false);
    const greedy = server.connect();
    for (let i = 0; i <= MAX_REQUESTS_UNDER_WAY; i++) server.request(greedy);
    expect(greedy.destroyed).toBe(true);
    const vouched = server.connect();
    for (let i = 0; i <= MAX_REQUESTS_UNDER_WAY; i++) server.request(vouched, { vouched: true });
    expect(vouched.destroyed).toBe(true);
  });
});
