// Review of issue 25 section 2: a save link followed while strangers flood the web host.
//
// A save link's connection is vouched for only once the store has answered (web-host.ts
// sendSavedObject awaits service.savedObject first), and the link is used up before that. While the
// host waits for the store, strangers' newer requests make the browser's connection "idle longest",
// and it is closed: the download fails and its link is gone. Fails on the code as reviewed.

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Engine } from '../../main/engine/engine.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { MAX_UNVOUCHED_CONNECTIONS } from '../../main/web-host/connection-limits.ts';
import { startWebHost } from '../../main/web-host/web-host.ts';
import type { WebHost } from '../../main/web-host/web-host.ts';
import { apiProtocols } from '../../src/contract/api.ts';
import { openRaw } from '../support/raw-connection.ts';
import type { RawConnection } from '../support/raw-connection.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

const TOKEN = 'review-save-token-abcdefghij';
const bucket = uniqueBucket();
let folder: string;
let gate: StoreGate;
let engine: Engine;
let s3: S3Connection;
let service: BargeService;
let host: WebHost;

/** A pass-through proxy to the store that can hold one request at its door until told to let it in. */
interface StoreGate {
  readonly endpoint: string;
  /** Hold the next request `matches` picks; resolves once it is held. */
  hold(matches: (request: http.IncomingMessage) => boolean): Promise<void>;
  /** Let the held request through. */
  release(): void;
  close(): Promise<void>;
}

async function startStoreGate(upstream: string): Promise<StoreGate> {
  const target = new URL(upstream);
  let armed: { matches: (request: http.IncomingMessage) => boolean; held: () => void } | undefined;
  let waiting: (() => void) | undefined;
  const agent = new http.Agent({ keepAlive: true });
  const pass = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const forward = http.request({ host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers, agent }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forward.on('error', () => response.socket?.destroy());
    request.pipe(forward);
  };
  const server = http.createServer((request, response) => {
    if (armed?.matches(request)) {
      const { held } = armed;
      armed = undefined;
      request.pause();
      waiting = () => pass(request, response);
      held();
      return;
    }
    pass(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: (matches) => new Promise((held) => { armed = { matches, held }; }),
    release() {
      waiting?.();
      waiting = undefined;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-save-review-'));
  const staticDir = path.join(folder, 'static');
  await mkdir(staticDir);
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Barge</title>');
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  const server = inject('s3');
  gate = await startStoreGate(server.endpoint);
  const env = { AWS_ACCESS_KEY_ID: server.accessKeyId, AWS_SECRET_ACCESS_KEY: server.secretAccessKey, AWS_ENDPOINT_URL: gate.endpoint, AWS_REGION: server.region };
  const hostEngine = new Engine({ env });
  const registry = new ConnectionRegistry({ dataDir: folder, engine: hostEngine, secrets: new FileSecretStore(path.join(folder, 'secrets.json')), env });
  service = createBargeService({ engine: hostEngine, registry, host: 'web', pageCallers: true, browserDownloads: true, restoreJobs: false });
  host = await startWebHost({ service, token: TOKEN, staticDir });
});

afterAll(async () => {
  await host?.close();
  await service?.close();
  await gate?.close();
  await engine?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The save link for `key`, asked for over a socket that presented the token, as the window asks. */
async function saveLink(key: string): Promise<string> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api`, apiProtocols(TOKEN), { origin: `http://127.0.0.1:${host.port}` });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  try {
    const answer = await new Promise<{ ok: boolean; value?: { url: string } }>((resolve) => {
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; result?: { ok: boolean; value?: { url: string } } };
        if (message.id === 1) resolve(message.result!);
      });
      ws.send(JSON.stringify({ id: 1, method: 'objects.saveLink', params: { connectionId: 'env', bucket, key } }));
    });
    expect(answer).toMatchObject({ ok: true });
    return answer.value!.url;
  } finally {
    ws.close();
  }
}

/** A browser following a link: its status (0 if the connection was cut first) and the bytes that came. */
function follow(url: string): Promise<{ status: number; bytes: number; complete: boolean }> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port: host.port, path: url, agent: false, headers: { host: `127.0.0.1:${host.port}`, 'sec-fetch-site': 'same-origin' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => { bytes += chunk.length; });
      const done = (complete: boolean) => resolve({ status: response.statusCode ?? 0, bytes, complete });
      response.on('end', () => done(response.complete));
      response.on('aborted', () => done(false));
      response.on('error', () => done(false));
    });
    request.once('error', () => resolve({ status: 0, bytes: 0, complete: false }));
  });
}

it('review: a browser following a save link is not cut while the host waits for the store, whatever requests strangers make meanwhile', async () => {
  const data = randomBytes(256 * 1024);
  await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'held.bin', Body: data }));
  const link = await saveLink('held.bin');
  // The store is slow to answer the host's first request for the object (a far region, a busy store).
  const held = gate.hold((request) => request.url?.includes('held.bin') ?? false);
  const saved = follow(link);
  await held;
  const strangers: RawConnection[] = [];
  try {
    // Strangers each fetch the page once and keep their connection: more than the cap.
    for (let i = 0; i < MAX_UNVOUCHED_CONNECTIONS + 20; i++) {
      const stranger = await openRaw(host.port);
      stranger.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`);
      for (let waited = 0; !stranger.received().includes('</title>') && !stranger.socket.destroyed && waited < 10_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      strangers.push(stranger);
    }
    gate.release();
    expect(await saved).toEqual({ status: 200, bytes: data.length, complete: true });
  } finally {
    gate.release();
    for (const stranger of strangers) stranger.socket.destroy();
  }
});
