// The web host's doors: the token, the origin, the payloads, and no secret ever in an answer.

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import WebSocket from 'ws';
import { Engine } from '../../main/engine/engine.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { startWebHost } from '../../main/web-host/web-host.ts';
import type { WebHost } from '../../main/web-host/web-host.ts';

const TOKEN = 'right-token-abcdefghijklmnop';
let host: WebHost;
let service: BargeService;
let origin: string;
let dataDir: string;

beforeAll(async () => {
  const s3 = inject('s3');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'barge-host-'));
  const staticDir = path.join(dataDir, 'static');
  await mkdir(staticDir);
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Barge</title>');
  const env = { AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_REGION: s3.region };
  const engine = new Engine({ env });
  const registry = new ConnectionRegistry({ dataDir, engine, secrets: new FileSecretStore(path.join(dataDir, 'secrets.json')), env });
  service = createBargeService({ engine, registry, host: 'web' });
  host = await startWebHost({ service, token: TOKEN, staticDir });
  origin = `http://127.0.0.1:${host.port}`;
});

afterAll(async () => {
  await host.close();
  await service.close();
});

function socket(options: { token?: string; origin?: string }): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const url = `ws://127.0.0.1:${host.port}/api${options.token ? `?token=${options.token}` : ''}`;
    const ws = new WebSocket(url, { origin: options.origin ?? origin });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
  });
}

function call(ws: WebSocket, method: string, params: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: never };
      if (message.id === id) {
        ws.off('message', onMessage);
        resolve(message.result!);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

describe('the web host', () => {
  it('listens on loopback only by default', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
  });

  it('refuses pages without the token or with a wrong one, and serves them with a strict CSP with it', async () => {
    expect((await fetch(`${origin}/`)).status).toBe(401);
    expect((await fetch(`${origin}/?token=wrong`)).status).toBe(401);
    const ok = await fetch(`${origin}/?token=${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(ok.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(ok.headers.get('set-cookie')).toBe(`barge_token_${host.port}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
    expect((await fetch(`${origin}/`, { headers: { cookie: `barge_token_${host.port}=${TOKEN}` } })).status).toBe(200);
  });

  it('refuses requests from another origin even with the token', async () => {
    const cross = await fetch(`${origin}/?token=${TOKEN}`, { headers: { origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
    await expect(socket({ token: TOKEN, origin: 'https://evil.example' })).rejects.toThrow('403');
    await expect(socket({})).rejects.toThrow('403');
    await expect(socket({ token: 'wrong' })).rejects.toThrow('403');
  });

  it('answers API calls, validates every payload, and never sends a secret', async () => {
    const ws = await socket({ token: TOKEN });
    const list = await call(ws, 'connections.list', {});
    expect(list.ok).toBe(true);
    expect(JSON.stringify(list)).not.toContain(inject('s3').secretAccessKey);
    expect(list.value).toEqual([expect.objectContaining({ id: 'env', source: 'environment', hasSecret: true })]);

    const added = await call(ws, 'connections.add', { name: 'Saved', endpoint: inject('s3').endpoint, accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'super-secret-value' });
    expect(added.ok).toBe(true);
    expect(JSON.stringify(added)).not.toContain('super-secret-value');
    expect(JSON.stringify(await call(ws, 'connections.list', {}))).not.toContain('super-secret-value');

    expect(await call(ws, 'buckets.create', { connectionId: 'env' })).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } });
    expect(await call(ws, 'settings.update', { threads: 100_000 })).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } });
    expect(await call(ws, 'no.such.method', {})).toMatchObject({ ok: false, error: { code: 'UnknownMethod' } });
    expect(await call(ws, '__proto__', {})).toMatchObject({ ok: false, error: { code: 'UnknownMethod' } });
    // A page may not name files on the host: browser uploads go through the staging endpoints.
    expect(await call(ws, 'jobs.upload', { connectionId: 'env', bucket: 'b', prefix: '', paths: ['/etc/passwd'] })).toMatchObject({ ok: false, error: { code: 'Forbidden' } });
    const wrongKeys = await call(ws, 'connections.test', { id: (added.value as { id: string }).id });
    expect(wrongKeys).toMatchObject({ ok: false, error: { code: 'InvalidAccessKeyId' } });
    expect(JSON.stringify(wrongKeys)).not.toContain('super-secret-value');
    ws.close();
  });

  it('refuses an uploaded file path that would leave the staging folder', async () => {
    const batch = '0b6f3c4e-1f2a-4c3d-9e8f-0123456789ab';
    const response = await fetch(`${origin}/uploads/${batch}?path=${encodeURIComponent('../../etc/evil')}`, { method: 'PUT', body: 'x', headers: { cookie: `barge_token_${host.port}=${TOKEN}` } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('InvalidPath');
  });
});
