// "Save to this computer": an object streamed from the store through the web host as the browser's
// own download, by a link a page gets over its socket (the token's stand-in, once, for one object),
// checked as it passes, and never cut for strangers' sake while the store is asked.

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { ChecksumAlgorithm } from '@aws-sdk/client-s3';
import { Engine } from '../../main/engine/engine.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { ACTIVITY_CHECK_MS, MAX_UNVOUCHED_CONNECTIONS } from '../../main/web-host/connection-limits.ts';
import { startWebHost } from '../../main/web-host/web-host.ts';
import type { WebHost } from '../../main/web-host/web-host.ts';
import { apiProtocols } from '../../src/contract/api.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { openRaw } from '../support/raw-connection.ts';
import type { RawConnection } from '../support/raw-connection.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

const TOKEN = 'save-token-abcdefghijklmnop';
const bucket = uniqueBucket();
let folder: string;
let proxy: FaultProxy;
let engine: Engine;
let s3: S3Connection;
let service: BargeService;
let host: WebHost;
let origin: string;

type Answer = { ok: boolean; value?: unknown; error?: { code: string; message: string } };

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-save-'));
  const staticDir = path.join(folder, 'static');
  await mkdir(staticDir);
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Barge</title>');
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  // The host reaches the store through a proxy that can damage a body on its way.
  const server = inject('s3');
  proxy = await startFaultProxy(server.endpoint);
  const env = {
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    AWS_ENDPOINT_URL: proxy.endpoint,
    AWS_REGION: server.region,
  };
  const hostEngine = new Engine({ env });
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine: hostEngine,
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env,
  });
  service = createBargeService({
    engine: hostEngine,
    registry,
    host: 'web',
    pageCallers: true,
    browserDownloads: true,
    restoreJobs: false,
  });
  host = await startWebHost({ service, token: TOKEN, staticDir });
  origin = `http://127.0.0.1:${host.port}`;
});

afterAll(async () => {
  await host?.close();
  await service?.close();
  await proxy?.close();
  await engine?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** A call over a socket that presented the token, as the window makes it. */
async function call(method: string, params: unknown): Promise<Answer> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api`, apiProtocols(TOKEN), { origin });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  try {
    return await new Promise((resolve) => {
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; result?: Answer };
        if (message.id === 1) resolve(message.result!);
      });
      ws.send(JSON.stringify({ id: 1, method, params }));
    });
  } finally {
    ws.close();
  }
}

/** The link for `key`, asked for as the window asks. */
async function saveLink(key: string): Promise<{ url: string; fileName: string; size: number }> {
  const answer = await call('objects.saveLink', { connectionId: 'env', bucket, key });
  expect(answer).toMatchObject({ ok: true });
  return answer.value as { url: string; fileName: string; size: number };
}

/** A GET as a browser following a link sends it (headers as given), the body as far as it came. */
function follow(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port: host.port,
        path: url,
        headers: { host: `127.0.0.1:${host.port}`, 'sec-fetch-site': 'same-origin', ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        const done = (complete: boolean) =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
            complete,
          });
        response.on('end', () => done(response.complete));
        response.on('aborted', () => done(false));
        response.on('error', () => done(false));
      },
    );
    request.once('error', reject);
  });
}

/**
 * Waits until `done`, checked every 10 ms, for at most `limitMs` (a bound on the test's length, not on what it
 * asserts).
 */
async function until(done: () => boolean, limitMs = 10_000): Promise<void> {
  for (let waited = 0; !done() && waited < limitMs; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const PART = 5 * 1024 * 1024;

async function multipartObject(key: string, data: Buffer, checksum?: ChecksumAlgorithm): Promise<void> {
  const { UploadId } = await s3.client.send(
    new CreateMultipartUploadCommand({
      Bucket: bucket,
      Key: key,
      ...(checksum ? { ChecksumAlgorithm: checksum } : {}),
    }),
  );
  const parts = [];
  for (let n = 0; n * PART < data.length; n++) {
    const answer = await s3.client.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: key,
        UploadId,
        PartNumber: n + 1,
        Body: data.subarray(n * PART, (n + 1) * PART),
        ...(checksum ? { ChecksumAlgorithm: checksum } : {}),
      }),
    );
    parts.push({
      PartNumber: n + 1,
      ETag: answer.ETag,
      ...(answer.ChecksumCRC32C ? { ChecksumCRC32C: answer.ChecksumCRC32C } : {}),
    });
  }
  await s3.client.send(
    new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
  );
}

describe('saving an object through the browser', () => {
  it('streams the object as an attachment named after its key, once per link', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    await s3.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'reports/résumé 2024.bin', Body: data, ContentType: 'text/html' }),
    );
    const link = await saveLink('reports/résumé 2024.bin');
    expect(link).toMatchObject({
      url: expect.stringMatching(/^\/save\/[A-Za-z0-9_-]{32}$/),
      fileName: 'résumé 2024.bin',
      size: data.length,
    });
    const saved = await follow(link.url);
    expect(saved.status).toBe(200);
    expect(saved.headers).toMatchObject({
      // Bytes to save whatever the object says it is: never a page of this origin.
      'content-type': 'application/octet-stream',
      'content-length': String(data.length),
      'content-disposition': `attachment; filename="r_sum_ 2024.bin"; filename*=UTF-8''r%C3%A9sum%C3%A9%202024.bin`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    expect(sha256(saved.body)).toBe(sha256(data));
    // Followed once: the same link again, or one never made, stands for nothing.
    expect((await follow(link.url)).status).toBe(404);
    expect((await follow('/save/madeUpLinkNameThatWasNeverGiven0')).status).toBe(404);
  });

  it('checks the bytes against a checksum the store reports, and against an MD5 ETag, cutting the download when they do not match', async () => {
    const data = randomBytes(256 * 1024);
    await s3.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'crc.bin', Body: data, ChecksumAlgorithm: 'CRC32C' }),
    );
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'etag.bin', Body: data }));
    for (const key of ['crc.bin', 'etag.bin']) {
      const good = await follow((await saveLink(key)).url);
      expect(good.complete).toBe(true);
      expect(sha256(good.body)).toBe(sha256(data));
      // One byte damaged between the store and the host: the browser never holds the whole file.
      const link = await saveLink(key);
      proxy.setRule((request) =>
        request.method === 'GET' && request.url?.includes(key) ? { kind: 'corrupt-body', atByte: 1000 } : undefined,
      );
      try {
        const damaged = await follow(link.url);
        expect(damaged.status).toBe(200);
        expect(damaged.complete).toBe(false);
        expect(damaged.body.length).toBeLessThan(data.length);
      } finally {
        proxy.setRule(() => undefined);
      }
    }
  });

  it('says in the window why an object cannot be saved, before any download starts', async () => {
    expect(await call('objects.saveLink', { connectionId: 'env', bucket, key: 'missing.bin' })).toMatchObject({
      ok: false,
      error: { code: 'NoSuchKey' },
    });
    expect(await call('objects.saveLink', { connectionId: 'env', bucket, key: 'a.bin', extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'InvalidRequest' },
    });
  });

  it('answers a link only as every request is answered: this host by its name, from its own pages, with GET', async () => {
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'guarded.txt', Body: 'guarded' }));
    const link = await saveLink('guarded.txt');
    expect((await follow(link.url, { host: 'evil.example:80' })).status).toBe(421);
    expect((await follow(link.url, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await follow(link.url, { origin: 'http://evil.example' })).status).toBe(403);
    // Refused requests did not use the link up: the page's own follow still saves it.
    expect((await follow(link.url)).body.toString()).toBe('guarded');
  });

  it("a link whose object the store did not give may be followed again (the browser's Retry); once given, it is spent", async () => {
    const data = randomBytes(64 * 1024);
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'retried.bin', Body: data }));
    const link = await saveLink('retried.bin');
    proxy.setRule((request) =>
      request.method === 'GET' && request.url?.includes('retried.bin')
        ? { kind: 'refuse', status: 403, code: 'AccessDenied' }
        : undefined,
    );
    try {
      expect((await follow(link.url)).status).toBe(502);
    } finally {
      proxy.setRule(() => undefined);
    }
    const saved = await follow(link.url);
    expect(saved.status).toBe(200);
    expect(sha256(saved.body)).toBe(sha256(data));
    expect((await follow(link.url)).status).toBe(404);
  });

  it("a browser following a link is not cut while the host waits for the store, whatever requests strangers make meanwhile; the link is no one else's meanwhile", async () => {
    const data = randomBytes(256 * 1024);
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'held.bin', Body: data }));
    const link = await saveLink('held.bin');
    // The store is slow to answer the host's request for the object (a far region, a busy store).
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    proxy.setRule((request) =>
      request.method === 'GET' && request.url?.includes('held.bin') ? { kind: 'hold', until: released } : undefined,
    );
    const strangers: RawConnection[] = [];
    try {
      const saved = follow(link.url);
      await until(() => proxy.seen.some((request) => request.method === 'GET' && request.url.includes('held.bin')));
      expect((await follow(link.url)).status).toBe(404);
      // Long enough for a connection that moves no bytes to count as idle (it waits, silent).
      await new Promise((resolve) => setTimeout(resolve, 3 * ACTIVITY_CHECK_MS));
      // Strangers each fetch the page once and keep their connection: more than the cap.
      strangers.push(
        ...(await Promise.all(
          Array.from({ length: MAX_UNVOUCHED_CONNECTIONS + 20 }, async () => {
            const stranger = await openRaw(host.port);
            stranger.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n\r\n`);
            await until(() => stranger.received().includes('</title>') || stranger.socket.destroyed);
            return stranger;
          }),
        )),
      );
      release();
      const answer = await saved;
      expect({ status: answer.status, bytes: answer.body.length, complete: answer.complete }).toEqual({
        status: 200,
        bytes: data.length,
        complete: true,
      });
    } finally {
      release();
      proxy.setRule(() => undefined);
      for (const stranger of strangers) stranger.socket.destroy();
    }
  });

  it('is offered only by a host that serves such links', async () => {
    const engineHere = new Engine({ env: {} });
    const registry = new ConnectionRegistry({
      dataDir: folder,
      engine: engineHere,
      secrets: new FileSecretStore(path.join(folder, 'other-secrets.json')),
      env: {},
    });
    const local = createBargeService({ engine: engineHere, registry, host: 'electron', restoreJobs: false });
    try {
      expect(
        await local.dispatch('objects.saveLink', { connectionId: 'env', bucket, key: 'guarded.txt' }),
      ).toMatchObject({ ok: false, error: { code: 'NotSupported' } });
    } finally {
      await local.close();
    }
  });
});

describe('Save to this computer, multipart objects', () => {
  for (const [label, checksum] of [
    ['no checksum (multipart ETag)', undefined],
    ['composite CRC32C (what Barge uploads)', 'CRC32C'],
  ] as const) {
    it(`cuts a damaged body short: ${label}`, async () => {
      const key = `mp-${checksum ?? 'etag'}.bin`;
      const data = randomBytes(2 * PART + 4321);
      await multipartObject(key, data, checksum);
      // Undamaged, it arrives whole.
      const link = (await service.dispatch('objects.saveLink', { connectionId: 'env', bucket, key })) as {
        ok: true;
        value: { url: string; check: string };
      };
      // Looked at before the bytes come: checked part by part.
      expect(link.value.check).toBe('checked');
      const good = await follow(link.value.url);
      expect(good.complete).toBe(true);
      expect(sha256(good.body)).toBe(sha256(data));
      // One byte flipped on the way: the browser must not be left holding a whole file.
      const again = (await service.dispatch('objects.saveLink', { connectionId: 'env', bucket, key })) as {
        ok: true;
        value: { url: string; check: string };
      };
      proxy.setRule((request) =>
        request.method === 'GET' && request.url?.includes(key) ? { kind: 'corrupt-body', atByte: 1000 } : undefined,
      );
      try {
        const damaged = await follow(again.value.url);
        expect(sha256(damaged.body)).not.toBe(sha256(data));
        expect(damaged.complete).toBe(false);
      } finally {
        proxy.setRule(() => undefined);
      }
    });
  }
});
