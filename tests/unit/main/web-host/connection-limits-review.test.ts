// Review of issue 25 section 2: a stranger who shares the user's address beyond loopback.
//
// Beyond loopback one network may hold 64 connections, and the 65th is refused outright, vouched
// for or not. People behind one NAT, or every browser behind a TLS proxy on another machine (as the
// README suggests with --public-name), share one address: a stranger among them who holds 64 idle
// connections keeps everyone else from that address out. Fails on the code as reviewed.

import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { limitConnections, MAX_CONNECTIONS_PER_NETWORK } from '../../../../main/web-host/connection-limits.ts';

/** What limitConnections reads of a raw connection. */
class FakeConnection extends EventEmitter {
  bytesRead = 1;
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

describe('review: connections from an address a stranger shares', () => {
  it('a user behind the same address (one NAT, or a TLS proxy elsewhere) gets in while a stranger holds 64 idle connections from it', () => {
    const server = new EventEmitter() as unknown as http.Server;
    limitConnections(server, { firstBytesTimeoutMs: 600_000 });
    const shared = '203.0.113.7';
    const strangers = Array.from({ length: MAX_CONNECTIONS_PER_NETWORK }, (_, i) => new FakeConnection(shared, 40_000 + i));
    for (const stranger of strangers) {
      server.emit('connection', stranger);
      // Each has made a request and sits idle (kept alive, a request every few seconds keeps it so).
      server.emit('request', { socket: stranger });
    }
    expect(strangers.some((stranger) => stranger.destroyed)).toBe(false);
    const user = new FakeConnection(shared, 50_000);
    server.emit('connection', user);
    expect(user.destroyed).toBe(false);
    user.destroy();
    for (const stranger of strangers) stranger.destroy();
  });
});
