// What a stranger (or a careless token holder) sends the web host must not stop it nor grow it:
// the host runs as `npm run serve` runs it, in a process of its own, so "it stopped" is seen as it is.

import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUESTS_UNDER_WAY, MAX_UNVOUCHED_CONNECTIONS } from '../../main/web-host/connection-limits.ts';
import { apiProtocols } from '../../src/contract/api.ts';
import { apiCall, apiSocket, frame, openRaw, upgradeRequest } from '../support/raw-connection.ts';
import type { RawConnection } from '../support/raw-connection.ts';
import { SERVED_TOKEN, startServedHost } from '../support/served-host.ts';
import type { ServedHost } from '../support/served-host.ts';

const MiB = 1024 * 1024;
/** fs.listFolders answers with this many folders of long names: about half a MiB each time. */
const FOLDERS = 2000;
/** A file of the window large enough that its answer cannot sit whole in the sockets' buffers. */
const LARGE_FILE_BYTES = 64 * MiB;

let host: ServedHost;

beforeAll(async () => {
  host = await startServedHost(async (downloadRoot) => {
    for (let i = 0; i < FOLDERS; i++)
      await mkdir(path.join(downloadRoot, `${String(i).padStart(4, '0')}-${'x'.repeat(240)}`));
    // startServedHost makes the window's folder beside the download root.
    await writeFile(path.join(downloadRoot, '..', 'static', 'large.js'), Buffer.alloc(LARGE_FILE_BYTES, 0x20));
  });
});

afterAll(async () => {
  await host?.stop();
});

/** The host still runs, serves its page, and answers a token holder's call. */
async function expectServing(): Promise<void> {
  expect(host.alive(), host.stderr()).toBe(true);
  expect((await fetch(`${host.origin}/`)).status).toBe(200);
  const ws = await apiSocket(host.port, SERVED_TOKEN);
  expect(await apiCall(ws, 'connections.list', {})).toMatchObject({ ok: true });
  ws.close();
}

/**
 * Waits until `done`, checked every `everyMs`, for at most `limitMs` (a bound on the test's length, not on what it
 * asserts).
 */
async function until(done: () => boolean, limitMs = 60_000, everyMs = 50): Promise<void> {
  for (let waited = 0; !done() && waited < limitMs; waited += everyMs)
    await new Promise((resolve) => setTimeout(resolve, everyMs));
}

/**
 * Waits until the host has stopped working (its CPU time still for a second: it reads no more
 * calls), or its peak memory has grown 200 MiB past `before` (as it did: every answer kept).
 */
async function hostIdleOrGrown(before: number): Promise<void> {
  let ticks = host.cpuTicks();
  let stillForMs = 0;
  await until(
    () => {
      const now = host.cpuTicks();
      stillForMs = now - ticks <= 1 ? stillForMs + 250 : 0;
      ticks = now;
      return stillForMs >= 1000 || host.memory().peakBytes - before > 200 * MiB;
    },
    120_000,
    250,
  );
}

/** An upgrade with the token, answered 101: the frames that follow are a token holder's. */
async function tokenHolderConnection(): Promise<RawConnection> {
  const connection = await openRaw(host.port);
  connection.socket.write(upgradeRequest(host.port, { protocols: apiProtocols(SERVED_TOKEN) }));
  await until(() => connection.received().includes('\r\n\r\n'), 10_000, 10);
  expect(connection.received()).toMatch(/^HTTP\/1\.1 101/);
  return connection;
}

describe('one socket, one request', () => {
  it('a frame the WebSocket library refuses closes that socket alone; the host serves on', async () => {
    // A stranger's: no token, so no socket. Before, the host read the frame, and stopped on it.
    for (const bad of [
      frame({ opcode: 1, payload: Buffer.from([0xff, 0xfe, 0xfd]) }),
      frame({ opcode: 1, declaredLength: BigInt(5 * MiB) }),
    ]) {
      const stranger = await openRaw(host.port);
      stranger.socket.write(upgradeRequest(host.port));
      stranger.socket.write(bad);
      await stranger.closed;
      expect(stranger.received()).toMatch(/^HTTP\/1\.1 401/);
    }
    // A token holder's: each closes its socket, and only its socket.
    const refused = [
      frame({ opcode: 1, payload: Buffer.from([0xc3, 0x28]) }), // not UTF-8
      frame({ opcode: 1, declaredLength: BigInt(5 * MiB) }), // over the message limit
      frame({ opcode: 1, rsv: 4, payload: Buffer.from('{}') }), // a reserved bit
      frame({ opcode: 3, payload: Buffer.from('{}') }), // no such opcode
      frame({ opcode: 1, payload: Buffer.from('{}'), masked: false }), // a client's frame unmasked
      frame({ opcode: 0, payload: Buffer.from('{}') }), // a continuation of nothing
      frame({ opcode: 9, payload: Buffer.alloc(200) }), // a ping too long for a control frame
      frame({ opcode: 8, payload: Buffer.from([0x03, 0xe7]) }), // a close with a code no one may send (999)
    ];
    const kept = await apiSocket(host.port, SERVED_TOKEN);
    for (const bad of refused) {
      const connection = await tokenHolderConnection();
      connection.socket.write(bad);
      await connection.closed;
    }
    expect(await apiCall(kept, 'connections.list', {})).toMatchObject({ ok: true });
    kept.close();
    await expectServing();
  });

  it('a request line that is not a path is refused (400), an upgrade too; the host serves on', async () => {
    for (const request of [
      upgradeRequest(host.port, { target: 'http://[/api', protocols: apiProtocols(SERVED_TOKEN) }),
      upgradeRequest(host.port, { target: '//elsewhere/api', protocols: apiProtocols(SERVED_TOKEN) }),
      upgradeRequest(host.port, { target: 'http://127.0.0.1/api', protocols: apiProtocols(SERVED_TOKEN) }),
      `GET http://[/ HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`,
      `GET //elsewhere/index.html HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`,
    ]) {
      const connection = await openRaw(host.port);
      connection.socket.write(request);
      await connection.closed;
      expect(connection.received(), request).toMatch(/^HTTP\/1\.1 400/);
    }
    await expectServing();
  });
});

const getPage = () => `GET / HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`;

describe('one connection, many requests', () => {
  it('pipelining 5,000 requests for the page and reading no answer neither grows the host nor stalls it (30,000 of them, 1.2 MB sent, held 1.9 GB and every one of its 20,000 file descriptors)', async () => {
    await expectServing();
    const before = host.memory().peakBytes;
    // 200 KiB of requests on one connection, no token: each answer the host began held a file open
    // and a 64 KiB read buffer, and none was taken.
    const stranger = await openRaw(host.port);
    stranger.socket.pause();
    stranger.socket.write(getPage().repeat(5000));
    await hostIdleOrGrown(before);
    expect((host.memory().peakBytes - before) / MiB).toBeLessThan(100);
    stranger.socket.destroy();
    await expectServing();
  });

  it(`a client that pipelines up to ${MAX_REQUESTS_UNDER_WAY} requests gets every answer; one more closes its connection`, async () => {
    const answers = (text: string) => text.split('HTTP/1.1 200').length - 1;
    const polite = await openRaw(host.port);
    polite.socket.write(getPage().repeat(MAX_REQUESTS_UNDER_WAY));
    await until(() => answers(polite.received()) === MAX_REQUESTS_UNDER_WAY || polite.socket.destroyed, 10_000, 10);
    expect(answers(polite.received())).toBe(MAX_REQUESTS_UNDER_WAY);
    expect(polite.socket.destroyed).toBe(false);
    polite.socket.destroy();
    const greedy = await openRaw(host.port);
    greedy.socket.write(getPage().repeat(MAX_REQUESTS_UNDER_WAY + 1));
    await greedy.closed;
    expect(answers(greedy.received())).toBeLessThanOrEqual(MAX_REQUESTS_UNDER_WAY);
  });
});

describe('refused requests', () => {
  it('a request refused with 404 or 405 has its connection closed with the answer: a body trickled after it is not read', async () => {
    const origin = `Host: 127.0.0.1:${host.port}`;
    const withBody = (line: string) => `${line}\r\n${origin}\r\nContent-Length: 1000000\r\n\r\nx`;
    const bare = (line: string) => `${line}\r\n${origin}\r\n\r\n`;
    for (const [request, status] of [
      [withBody('POST / HTTP/1.1'), 405],
      [withBody('PUT /index.html HTTP/1.1'), 405],
      [withBody('POST /save/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1'), 405],
      [bare('GET /save/not*a*link HTTP/1.1'), 404],
      [bare('GET /save/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1'), 404],
    ] as const) {
      const stranger = await openRaw(host.port);
      let closed = false;
      void stranger.closed.then(() => {
        closed = true;
      });
      stranger.socket.write(request);
      // A body goes on arriving, a byte at a time, for as long as the host reads it.
      const trickle = request.includes('Content-Length')
        ? setInterval(() => stranger.socket.write('x'), 50)
        : undefined;
      await until(() => closed, 10_000, 10);
      clearInterval(trickle);
      const head = stranger.received().split('\r\n\r\n')[0]!;
      expect(head, request).toMatch(new RegExp(`^HTTP/1\\.1 ${status}`));
      expect(head.toLowerCase(), request).toContain('connection: close');
      expect(closed, request).toBe(true);
    }
    await expectServing();
  });
});

describe('memory a stranger cannot grow', () => {
  it('150 sockets without the token, each sending 3 MiB of a first message, are refused at the upgrade and leave the host as it was', async () => {
    await expectServing();
    const before = host.memory().peakBytes;
    const SOCKETS = 150;
    // One buffer for every socket: the test's own memory stays small.
    const message = frame({ opcode: 1, declaredLength: BigInt(4 * MiB - 1), payload: Buffer.alloc(3 * MiB, 0x61) });
    const connections = await Promise.all(Array.from({ length: SOCKETS }, () => openRaw(host.port)));
    let closed = 0;
    for (const connection of connections) {
      void connection.closed.then(() => closed++);
      connection.socket.write(upgradeRequest(host.port));
      connection.socket.write(message);
    }
    // Every socket closed by the host, or (as before) the host holding what they sent.
    await until(() => closed === SOCKETS || host.memory().peakBytes - before > 200 * MiB);
    expect((host.memory().peakBytes - before) / MiB).toBeLessThan(64);
    expect(closed).toBe(SOCKETS);
    await expectServing();
  });

  it('a token holder who never reads its answers holds the host to a bounded backlog; one slow to read gets every answer', async () => {
    const ws = await apiSocket(host.port, SERVED_TOKEN);
    const sample = await apiCall(ws, 'fs.listFolders', {});
    expect((sample.value as { folders: string[] }).folders).toHaveLength(FOLDERS);
    expect(JSON.stringify(sample).length).toBeGreaterThan(400 * 1024);
    const before = host.memory().peakBytes;
    // 600 answers would be about 300 MiB; the socket reads none of them.
    ws.pause();
    for (let id = 0; id < 600; id++) ws.send(JSON.stringify({ id, method: 'fs.listFolders', params: {} }));
    await hostIdleOrGrown(before);
    expect((host.memory().peakBytes - before) / MiB).toBeLessThan(100);
    ws.terminate();
    await expectServing();

    // Slow, but reading in the end: every call is answered, none dropped.
    const slow = await apiSocket(host.port, SERVED_TOKEN);
    slow.pause();
    const answered = new Set<number>();
    slow.on('message', (data) => {
      const { id, result } = JSON.parse(String(data)) as { id?: number; result?: { ok: boolean } };
      if (id !== undefined && result?.ok) answered.add(id);
    });
    const CALLS = 60;
    for (let id = 0; id < CALLS; id++) slow.send(JSON.stringify({ id, method: 'fs.listFolders', params: {} }));
    await hostIdleOrGrown(host.memory().peakBytes);
    slow.resume();
    await until(() => answered.size === CALLS);
    expect(answered.size).toBe(CALLS);
    slow.close();
  });
});

describe("a flood of strangers' connections and the user's own", () => {
  it('a user fetching a large file of the window, and reading it, is not cut because strangers made newer requests', async () => {
    // The user's fetch moves bytes throughout; the strangers each make one request and sit idle.
    const user = net.connect(host.port, '127.0.0.1');
    let userBytes = 0;
    let userClosed = false;
    user.on('data', (chunk: Buffer) => {
      userBytes += chunk.length;
    });
    user.on('error', () => undefined);
    user.once('close', () => {
      userClosed = true;
    });
    await new Promise((resolve) => user.once('connect', resolve));
    user.write(`GET /large.js HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nConnection: close\r\n\r\n`);
    const strangers: RawConnection[] = [];
    const STRANGERS_PER_ROUND = 20;
    const ROUNDS = Math.ceil((MAX_UNVOUCHED_CONNECTIONS * 1.5) / STRANGERS_PER_ROUND);
    try {
      for (let round = 1; round <= ROUNDS && !userClosed; round++) {
        // The user reads another MiB...
        user.resume();
        await until(() => userBytes >= round * MiB || userClosed, 60_000, 10);
        user.pause();
        // ...and meanwhile strangers each fetch the page once and keep their connection (all of
        // them well within the host's keep-alive timeout, which would close them itself).
        strangers.push(
          ...(await Promise.all(
            Array.from({ length: STRANGERS_PER_ROUND }, async () => {
              const stranger = await openRaw(host.port);
              stranger.socket.write(getPage());
              await until(() => stranger.received().includes('</title>') || stranger.socket.destroyed, 10_000, 10);
              return stranger;
            }),
          )),
        );
      }
      user.resume();
      await until(() => userBytes >= LARGE_FILE_BYTES || userClosed, 60_000);
      expect(userBytes).toBeGreaterThanOrEqual(LARGE_FILE_BYTES);
    } finally {
      user.destroy();
      for (const stranger of strangers) stranger.socket.destroy();
    }
  });
});
