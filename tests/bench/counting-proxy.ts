// A TCP relay in front of the store that counts what a client sends and receives: the server-side
// copy row shows the client's bytes each way, measured on the wire the same way for every tool.

import net from 'node:net';

export interface CountingProxy {
  readonly endpoint: string;
  /** Bytes from the clients to the store, and back, since the last `reset`. */
  readonly counts: { sent: number; received: number };
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(upstream: string): Promise<CountingProxy> {
  const target = new URL(upstream);
  const counts = { sent: 0, received: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const store = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, store]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('data', (chunk: Buffer) => (counts.sent += chunk.length));
    store.on('data', (chunk: Buffer) => (counts.received += chunk.length));
    client.pipe(store);
    store.pipe(client);
    client.on('close', () => store.destroy());
    store.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    counts,
    reset() {
      counts.sent = 0;
      counts.received = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
