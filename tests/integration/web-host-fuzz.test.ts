// Random and malformed bytes to the web host, before the token and after it: request lines, headers,
// upgrades and WebSocket frames. Whatever comes, the host must go on serving: its page, a token
// holder's call, and its process still running.
//
// The seed is printed; BARGE_FUZZ_SEED=<seed> repeats a run exactly.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiProtocols } from '../../src/contract/api.ts';
import { apiCall, apiSocket, frame, openRaw } from '../support/raw-connection.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { SERVED_TOKEN, startServedHost } from '../support/served-host.ts';
import type { ServedHost } from '../support/served-host.ts';

const CONNECTIONS = 400;
const AT_ONCE = 25;
/** How long a connection is given for the host to answer or close it, before it is cut. */
const LINGER_MS = 150;

const seed = Number(process.env.BARGE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const random = seededRandom(seed);
let host: ServedHost;
/** Connections the host upgraded: their frames reached an open API socket, after the token. */
let upgraded = 0;

beforeAll(async () => {
  process.stdout.write(`web host fuzz: seed ${seed} (BARGE_FUZZ_SEED=${seed} repeats this run)\n`);
  host = await startServedHost();
});

afterAll(async () => {
  await host?.stop();
});

const int = (below: number) => Math.floor(random() * below);
const chance = (p: number) => random() < p;
function pick<T>(choices: readonly T[]): T {
  return choices[int(choices.length)]!;
}
const bytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)));
/** Printable junk, sometimes with a byte a header may not hold. */
const junk = (length: number) =>
  Array.from({ length }, () =>
    chance(0.05) ? pick(['\0', '\r', '\n', '\x7f', '\xff', ' ']) : String.fromCharCode(33 + int(94)),
  ).join('');

function target(): string {
  return pick([
    '/api',
    '/api',
    '/',
    '/index.html',
    'http://[/api',
    '//elsewhere/api',
    '*',
    'http://127.0.0.1/api',
    '/api?x=%ff',
    '/%',
    '/%E0%A4%A',
    '/..%2f..%2fetc/passwd',
    '/uploads/x?path=../../a',
    '/save/x',
    '/save/../../etc',
    '/api/',
    `/${junk(int(40))}`,
    junk(int(20)),
    '/'.repeat(int(300)),
  ]);
}

/** Headers for an upgrade or a request: right, wrong, missing, repeated or malformed, in random order. */
function headers(port: number, upgrade: boolean): string[] {
  const lines: string[] = [];
  if (chance(0.85))
    lines.push(
      `Host: ${pick([`127.0.0.1:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, 'evil.example', '', `[::1]:${port}`, junk(30)])}`,
    );
  if (chance(0.7))
    lines.push(`Origin: ${pick([`http://127.0.0.1:${port}`, 'https://evil.example', 'null', junk(20)])}`);
  if (upgrade || chance(0.2)) {
    lines.push(
      `Upgrade: ${pick(['websocket', 'websocket', 'WebSocket', 'h2c', junk(10)])}`,
      `Connection: ${pick(['Upgrade', 'upgrade', 'keep-alive, Upgrade', 'close'])}`,
    );
    if (chance(0.9))
      lines.push(
        `Sec-WebSocket-Key: ${pick(['dGhlIHNhbXBsZSBub25jZQ==', 'dGhlIHNhbXBsZSBub25jZQ==', 'short', '', junk(30)])}`,
      );
    if (chance(0.9)) lines.push(`Sec-WebSocket-Version: ${pick(['13', '13', '8', '99', junk(4)])}`);
    if (chance(0.9)) {
      const protocols = pick([
        apiProtocols(SERVED_TOKEN).join(', '),
        apiProtocols(SERVED_TOKEN).join(', '),
        apiProtocols('wrong-token-xxxxxxxxxxxxx').join(', '),
        apiProtocols(SERVED_TOKEN)[1]!,
        ',,,',
        ' , barge.api.v1 ,',
        `barge.token.${SERVED_TOKEN}, barge.token.other`,
        'a b c',
        junk(int(200)),
        'x'.repeat(20_000),
      ]);
      lines.push(`Sec-WebSocket-Protocol: ${protocols}`);
    }
    if (chance(0.2))
      lines.push(
        `Sec-WebSocket-Extensions: ${pick(['permessage-deflate; client_max_window_bits', 'permessage-deflate; server_max_window_bits=1', junk(30)])}`,
      );
  }
  if (chance(0.15)) lines.push(`Content-Length: ${pick(['0', '5', '-1', '99999999999999999999', '1, 2', junk(5)])}`);
  if (chance(0.1)) lines.push(`Transfer-Encoding: ${pick(['chunked', 'gzip, chunked', 'identity', junk(8)])}`);
  if (chance(0.1)) lines.push(`Authorization: Bearer ${pick([SERVED_TOKEN, 'wrong', junk(40)])}`);
  if (chance(0.1))
    lines.push(
      pick([
        `X-${junk(10)}: ${junk(50)}`,
        'NoColonHere',
        ' folded: header',
        `X-Big: ${'y'.repeat(int(40_000))}`,
        `${junk(5)}:${junk(5)}`,
      ]),
    );
  for (let i = lines.length - 1; i > 0; i--) {
    const j = int(i + 1);
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  }
  return lines;
}

function requestHead(port: number, upgrade: boolean): string {
  const method = upgrade
    ? 'GET'
    : pick(['GET', 'GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'CONNECT', 'PRI', junk(6), '']);
  const version = pick(['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', junk(8), '']);
  const ending = pick(['\r\n', '\r\n', '\n', '\r']);
  return `${method} ${target()} ${version}${ending}${headers(port, upgrade).join(ending)}${ending}${ending}`;
}

/** A frame of every kind a client might send, or should not. */
function randomFrame(): Buffer {
  const opcode = chance(0.7) ? pick([0, 1, 1, 2, 8, 9, 10]) : int(16);
  const payload = pick([
    () => bytes(int(64)),
    () => Buffer.from([0xc3, 0x28, 0xa0, 0xa1]), // not UTF-8
    () =>
      Buffer.from(
        JSON.stringify({
          id: int(1000),
          method: pick([
            'connections.list',
            'fs.listFolders',
            'host.info',
            'jobs.snapshot',
            'no.such',
            '__proto__',
            'constructor',
          ]),
          params: pick([{}, null, [], 'x', { path: '/' }]),
        }),
      ),
    () =>
      Buffer.from(
        pick([
          '{',
          'null',
          '[]',
          '{"id":1e400,"method":"x","params":{}}',
          '{"id":1,"method":"' + 'm'.repeat(200) + '"}',
        ]),
      ),
    () => Buffer.from([0x03, 0xe8, ...bytes(int(10))]), // a close code and a reason
    () => Buffer.alloc(int(3) * 65_536, 0x20),
  ])();
  return frame({
    fin: chance(0.8),
    rsv: chance(0.1) ? 1 + int(7) : 0,
    opcode,
    payload,
    masked: chance(0.93),
    declaredLength: chance(0.08)
      ? pick([125n, 126n, 65_536n, BigInt(5 * 1024 * 1024), 2n ** 63n - 1n, 2n ** 64n - 1n])
      : undefined,
  });
}

/** One connection's bytes: a random request, a random upgrade (with or without the token) and frames, or junk. */
function connectionBytes(port: number): Buffer[] {
  const frames = () => Array.from({ length: 1 + int(8) }, () => (chance(0.05) ? bytes(int(32)) : randomFrame()));
  switch (pick(['request', 'upgrade', 'token-holder', 'token-holder', 'junk', 'cut'] as const)) {
    case 'request':
      return [Buffer.from(requestHead(port, false), 'latin1'), ...(chance(0.3) ? [bytes(int(200))] : [])];
    case 'upgrade':
      return [Buffer.from(requestHead(port, true), 'latin1'), ...frames()];
    case 'token-holder': {
      // A correct upgrade with the token: what follows is a token holder's frames.
      const head =
        `GET /api HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: ${apiProtocols(SERVED_TOKEN).join(', ')}\r\n\r\n`;
      return [Buffer.from(head), ...frames()];
    }
    case 'junk':
      return [bytes(1 + int(2000))];
    case 'cut': {
      const whole = Buffer.from(requestHead(port, chance(0.5)), 'latin1');
      return [whole.subarray(0, int(whole.length))];
    }
  }
}

async function sendOne(port: number): Promise<void> {
  // Every random choice before the first await: the same seed, the same bytes, whatever the timing.
  const parts = connectionBytes(port);
  const halfClose = chance(0.5);
  const connection = await openRaw(port);
  for (const part of parts) connection.socket.write(part);
  if (halfClose) connection.socket.end();
  await Promise.race([connection.closed, new Promise((resolve) => setTimeout(resolve, LINGER_MS))]);
  if (connection.received().startsWith('HTTP/1.1 101')) upgraded++;
  connection.socket.destroy();
}

/** The host still runs, serves its page, and answers a token holder's call. */
async function expectServing(when: string): Promise<void> {
  const why = `seed ${seed}, ${when}: ${host.stderr()}`;
  expect(host.alive(), why).toBe(true);
  expect((await fetch(`${host.origin}/`)).status, why).toBe(200);
  const ws = await apiSocket(host.port, SERVED_TOKEN);
  expect(await apiCall(ws, 'connections.list', {}), why).toMatchObject({ ok: true });
  ws.close();
}

it('serves on, whatever random and malformed requests, upgrades and frames it is sent before and after the token', async () => {
  await expectServing('before');
  for (let sent = 0; sent < CONNECTIONS; sent += AT_ONCE) {
    await Promise.all(Array.from({ length: AT_ONCE }, () => sendOne(host.port)));
    expect(host.alive(), `seed ${seed}, after ${sent + AT_ONCE} connections: ${host.stderr()}`).toBe(true);
  }
  await expectServing(`after ${CONNECTIONS} connections`);
  // A fuzz that never got past the upgrade would test nothing after the token.
  expect(upgraded, `seed ${seed}`).toBeGreaterThan(CONNECTIONS / 10);
});
