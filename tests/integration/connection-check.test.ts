// A connection checked as typed, before it is saved: what failed is said with the field it concerns,
// and no secret ever comes back.

import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../main/demo/free-port.ts';
import { Engine } from '../../main/engine/engine.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { internalEndpointProblem } from '../../src/internal-endpoints.ts';
import type { ConnectionInput } from '../../src/contract/models.ts';

let folder: string;
let service: BargeService;
let draft: ConnectionInput;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-check-'));
  // No environment: what is checked is what the form holds, nothing else.
  const engine = new Engine({ env: {} });
  const registry = new ConnectionRegistry({
    dataDir: folder,
    engine,
    secrets: new FileSecretStore(path.join(folder, 'secrets.json')),
    env: {},
  });
  service = createBargeService({ engine, registry, host: 'web', pageCallers: true, restoreJobs: false });
  const s3 = inject('s3');
  draft = {
    name: 'MinIO',
    endpoint: s3.endpoint,
    region: s3.region,
    pathStyle: true,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  };
});

afterAll(async () => {
  await service?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function check(input: ConnectionInput, id?: string) {
  const answer = await service.dispatch('connections.check', id === undefined ? { input } : { input, id });
  expect(answer.ok).toBe(true);
  // Never the secret, whatever the outcome.
  expect(JSON.stringify(answer)).not.toContain(inject('s3').secretAccessKey);
  return (answer as { value: unknown }).value;
}

describe('checking a connection before it is saved', () => {
  it('passes a reachable store with the right keys, saving nothing', async () => {
    expect(await check(draft)).toEqual({ ok: true, buckets: expect.any(Number) });
    expect(await service.dispatch('connections.list', {})).toEqual({ ok: true, value: [] });
  });

  it('says the keys were refused (403), by the field to correct', async () => {
    expect(await check({ ...draft, secretAccessKey: 'not-the-secret-key' })).toEqual({
      ok: false,
      failed: 'keys',
      field: 'secretAccessKey',
      code: 'SignatureDoesNotMatch',
      message:
        'The secret access key does not match the access key ID (the store answered 403 SignatureDoesNotMatch): check the secret access key.',
    });
    expect(await check({ ...draft, accessKeyId: 'NOSUCHKEY', secretAccessKey: 'whatever-secret' })).toMatchObject({
      // MinIO answers 403, versitygw 404: the code decides, and the message quotes the store's status.
      ok: false,
      failed: 'keys',
      field: 'accessKeyId',
      code: 'InvalidAccessKeyId',
      message: expect.stringMatching(/answered 40[34] InvalidAccessKeyId/),
    });
    expect(await check({ ...draft, secretAccessKey: '' })).toMatchObject({
      ok: false,
      failed: 'credentials',
      field: 'secretAccessKey',
    });
  });

  it('says nothing listens at a closed port, by the endpoint', async () => {
    expect(await check({ ...draft, endpoint: `http://127.0.0.1:${await freePort()}` })).toEqual({
      ok: false,
      failed: 'refused',
      field: 'endpoint',
      code: 'ECONNREFUSED',
      message:
        'Nothing answers at the endpoint (connection refused): check its host and port, and that the store is running.',
    });
  });

  it('says a name that does not resolve is DNS, and TLS spoken to a plain port is TLS', async () => {
    expect(await check({ ...draft, endpoint: 'http://no-such-store.invalid:9000' })).toMatchObject({
      ok: false,
      failed: 'dns',
      field: 'endpoint',
    });
    const plain = new URL(inject('s3').endpoint);
    expect(await check({ ...draft, endpoint: `https://${plain.host}` })).toMatchObject({
      ok: false,
      failed: 'tls',
      field: 'endpoint',
      message: expect.stringContaining('TLS'),
    });
  });

  it("says a store that never answers timed out, within the check's limit", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const engine = new Engine({ env: {} });
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const answer = await engine.checkConnection(
        { ...draft, endpoint: `http://127.0.0.1:${port}` },
        { timeoutMs: 300 },
      );
      expect(answer).toMatchObject({
        ok: false,
        failed: 'timeout',
        field: 'endpoint',
        message: expect.stringMatching(/^The store did not answer within/),
      });
    } finally {
      await engine.close();
      silent.close();
    }
  });

  it('checks a saved connection being edited with its stored secret when the field is left empty', async () => {
    const added = await service.dispatch('connections.add', draft);
    const id = (added as { value: { id: string } }).value.id;
    expect(await check({ ...draft, secretAccessKey: '' }, id)).toMatchObject({ ok: true });
    // The draft is what is checked, not what is saved: a wrong key typed over it fails.
    expect(await check({ ...draft, secretAccessKey: 'typed-over-wrong' }, id)).toMatchObject({
      ok: false,
      field: 'secretAccessKey',
    });
  });

  it('refuses what this host refuses, as for a saved connection', async () => {
    const guarded = await mkdtemp(path.join(os.tmpdir(), 'barge-check-guarded-'));
    const engine = new Engine({ env: {} });
    const registry = new ConnectionRegistry({
      dataDir: guarded,
      engine,
      secrets: new FileSecretStore(path.join(guarded, 'secrets.json')),
      env: {},
      endpointProblem: internalEndpointProblem,
    });
    try {
      expect(await registry.check({ ...draft, endpoint: 'http://169.254.169.254' })).toMatchObject({
        ok: false,
        failed: 'endpoint',
        field: 'endpoint',
        code: 'EndpointRefused',
      });
    } finally {
      await engine.close();
      await rm(guarded, { recursive: true, force: true });
    }
  });

  it('refuses a draft that is no connection, in a sentence', async () => {
    expect(
      await service.dispatch('connections.check', { input: { ...draft, endpoint: 'https://store.example/bucket' } }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'InvalidRequest',
        message: expect.stringMatching(/^The endpoint must be the store's address only/),
      },
    });
    expect(await service.dispatch('connections.check', { input: draft, extra: true })).toMatchObject({
      ok: false,
      error: { code: 'InvalidRequest' },
    });
  });

  it.each([
    [
      "a web server's welcome page",
      200,
      'text/html',
      '<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n</head>\n<body><h1>Welcome</h1></body>\n</html>\n',
      'HTTP 200 with a web page',
    ],
    [
      'a folder listing that is no XML',
      200,
      'text/html',
      '<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Directory listing for /</title>\n</head>\n<body></body>\n</html>\n',
      'HTTP 200 with a web page',
    ],
    ['JSON', 200, 'application/json', '{"status":"ok"}', 'HTTP 200 with JSON'],
    ['a 404 page', 404, 'text/html', '<html><body>Not Found</body></html>', 'HTTP 404 with a web page'],
    ['a bare 404', 404, 'text/plain', '', 'HTTP 404'],
    ["a proxy's 502 page", 502, 'text/html', '<html>Bad Gateway</html>', 'HTTP 502 with a web page'],
  ])(
    'says a plain web server answering %s is not an S3 store, by the endpoint',
    async (_what, status, type, body, answered) => {
      const web = http.createServer((_request, response) => {
        response.writeHead(status, { 'content-type': type });
        response.end(body);
      });
      await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
      try {
        const endpoint = `http://127.0.0.1:${(web.address() as net.AddressInfo).port}`;
        expect(await check({ ...draft, endpoint })).toEqual({
          ok: false,
          failed: 'not-s3',
          field: 'endpoint',
          code: 'NotS3',
          message: `The endpoint answered ${answered}, not as an S3 store does: check the endpoint URL (the host, the port, and any path the store needs).`,
        });
      } finally {
        web.close();
      }
    },
  );
});
