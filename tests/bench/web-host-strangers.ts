// npm run bench:web-host — what strangers and a greedy token holder cost the web host, in memory,
// open files and the user's page load. Figures, not assertions (the tests hold the bounds).
//
// Each case starts its own host as `npm run serve` does (tests/support/served-host.ts) and prints
// its resident memory before, at its highest and after the attack has gone, the files it held open
// at most, and the slowest `GET /` a user made meanwhile:
//   no-token      150 sockets upgrade to /api without the token, each sending a 3 MiB frame
//   unread-calls  a token holder sends folder listings for 10 s and reads no answer
//   pipelined     one connection pipelines 10,000 `GET /` and reads nothing
//   invalid-flood 32 token holders' sockets flood 7-byte invalid messages for 10 s, reading nothing
// BENCH_CASES=pipelined,no-token picks cases.

import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { WebSocket } from 'ws';
import { apiProtocols } from '../../src/contract/api.ts';
import { SERVED_TOKEN, startServedHost } from '../support/served-host.ts';
import type { ServedHost } from '../support/served-host.ts';

const ATTACK_MS = 10_000;
const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One `GET /` as a user's browser makes it, in milliseconds (a refused or cut one counts as failed). */
function timedGet(host: ServedHost): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    const request = http.get(
      { host: '127.0.0.1', port: host.port, path: '/', agent: false, headers: { host: `127.0.0.1:${host.port}` } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(Date.now() - started));
      },
    );
    request.on('error', () => resolve(Number.POSITIVE_INFINITY));
  });
}

function openFiles(host: ServedHost): number {
  try {
    return readdirSync(`/proc/${host.process.pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** While `attack` runs: the most files open, and the slowest page load, sampled every 200 ms. */
async function watch(host: ServedHost, attack: Promise<void>): Promise<{ files: number; slowestGetMs: number }> {
  let done = false;
  void attack.finally(() => {
    done = true;
  });
  let files = 0;
  let slowestGetMs = 0;
  while (!done) {
    files = Math.max(files, openFiles(host));
    slowestGetMs = Math.max(slowestGetMs, await timedGet(host));
    await sleep(200);
  }
  await attack;
  return { files, slowestGetMs };
}

function tokenSocket(host: ServedHost): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api`, apiProtocols(SERVED_TOKEN), { origin: host.origin });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** A raw connection whose replies are never read. */
async function rawConnection(host: ServedHost): Promise<net.Socket> {
  const socket = net.connect(host.port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  return socket;
}

const CASES: Record<
  string,
  { prepare?: (downloadRoot: string) => Promise<void>; attack: (host: ServedHost) => Promise<void> }
> = {
  'no-token': {
    async attack(host) {
      const upgrade =
        `GET /api HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: ${host.origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
      // A masked text frame that declares 4 MiB less a byte, then 3 MiB of it.
      const frame = Buffer.concat([
        Buffer.from([0x81, 0xff, 0, 0, 0, 0, 0, 0x3f, 0xff, 0xff, 0, 0, 0, 0]),
        Buffer.alloc(3 * MB, 0x61),
      ]);
      const sockets = await Promise.all(Array.from({ length: 150 }, () => rawConnection(host)));
      for (const socket of sockets) socket.write(upgrade + frame.toString('latin1'), 'latin1');
      await sleep(ATTACK_MS / 2);
      for (const socket of sockets) socket.destroy();
    },
  },
  'unread-calls': {
    // Listings worth answering: 2,000 folders of long names below the download root.
    async prepare(downloadRoot) {
      for (let i = 0; i < 2000; i++)
        await mkdir(path.join(downloadRoot, `${String(i).padStart(4, '0')}-${'x'.repeat(240)}`));
    },
    async attack(host) {
      const ws = await tokenSocket(host);
      (ws as unknown as { _socket: net.Socket })._socket.pause();
      const end = Date.now() + ATTACK_MS;
      let id = 0;
      while (Date.now() < end) {
        for (let i = 0; i < 50 && ws.bufferedAmount < MB; i++)
          ws.send(JSON.stringify({ id: id++, method: 'fs.listFolders', params: {} }));
        await sleep(20);
      }
      ws.terminate();
    },
  },
  pipelined: {
    async attack(host) {
      const socket = await rawConnection(host);
      socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`.repeat(10_000));
      await sleep(ATTACK_MS);
      socket.destroy();
    },
  },
  'invalid-flood': {
    async attack(host) {
      const sockets = await Promise.all(Array.from({ length: 32 }, () => tokenSocket(host)));
      for (const ws of sockets) {
        ws.on('error', () => undefined);
        (ws as unknown as { _socket: net.Socket })._socket.pause();
      }
      const end = Date.now() + ATTACK_MS;
      while (Date.now() < end) {
        for (const ws of sockets)
          if (ws.readyState === ws.OPEN && ws.bufferedAmount < MB) for (let i = 0; i < 2000; i++) ws.send('invalid');
        await sleep(5);
      }
      for (const ws of sockets) ws.terminate();
    },
  },
};

const picked = process.env.BENCH_CASES?.split(',') ?? Object.keys(CASES);
console.log(
  '| case | RSS before | RSS at most | RSS 3 s after | files open at most | slowest GET / meanwhile | host alive |',
);
console.log('|---|---|---|---|---|---|---|');
for (const name of picked) {
  const test = CASES[name];
  if (!test) throw new Error(`No case ${name}: ${Object.keys(CASES).join(', ')}`);
  const host = await startServedHost(test.prepare);
  try {
    await timedGet(host);
    await sleep(500);
    const before = host.memory().residentBytes;
    const seen = await watch(host, test.attack(host));
    await sleep(3000);
    const { residentBytes, peakBytes } = host.memory();
    const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;
    const slowest = Number.isFinite(seen.slowestGetMs) ? `${seen.slowestGetMs} ms` : 'failed';
    console.log(
      `| ${name} | ${mb(before)} | ${mb(peakBytes)} | ${mb(residentBytes)} | ${seen.files} | ${slowest} | ${host.alive() ? 'yes' : `no: ${host.stderr().slice(0, 120)}`} |`,
    );
  } finally {
    await host.stop();
  }
}
