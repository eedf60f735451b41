// "Save to this computer" (GET /save/<link>) checks a multipart object (an ETag with "-N", a
// checksum that is composite or absent) part by part as its bytes pass, as a download job does
// (download-verification.ts): one byte damaged between the store and the host cuts the browser's
// download short (as it does for single-part objects in browser-downloads.test.ts), and the
// undamaged object passes whole.

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import type { ChecksumAlgorithm } from '@aws-sdk/client-s3';
import { Engine } from '../../main/engine/engine.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { startWebHost } from '../../main/web-host/web-host.ts';
import type { WebHost } from '../../main/web-host/web-host.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { serverConfig, uniqueBucket } from '../support/fixtures.ts';

const TOKEN = 'save-multipart-token-abcdefghijklmnop';
const bucket = uniqueBucket();
const PART = 5 * 1024 * 1024;
let folder: string;
let proxy: FaultProxy;
let engine: Engine;
let s3: S3Connection;
let service: BargeService;
let host: WebHost;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'barge-r14-save-'));
  const staticDir = path.join(folder, 'static');
  await mkdir(staticDir);
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Barge</title>');
  engine = new Engine();
  s3 = await engine.connect(serverConfig());
  await createBucket(s3, bucket);
  const server = inject('s3');
  proxy = await startFaultProxy(server.endpoint);
  const env = { AWS_ACCESS_KEY_ID: server.accessKeyId, AWS_SECRET_ACCESS_KEY: server.secretAccessKey, AWS_ENDPOINT_URL: proxy.endpoint, AWS_REGION: server.region };
  const hostEngine = new Engine({ env });
  const registry = new ConnectionRegistry({ dataDir: folder, engine: hostEngine, secrets: new FileSecretStore(path.join(folder, 'secrets.json')), env });
  service = createBargeService({ engine: hostEngine, registry, host: 'web', pageCallers: true, browserDownloads: true, restoreJobs: false });
  host = await startWebHost({ service, token: TOKEN, staticDir });
});

afterAll(async () => {
  await host?.close();
  await service?.close();
  await proxy?.close();
  await engine?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function multipartObject(key: string, data: Buffer, checksum?: ChecksumAlgorithm): Promise<void> {
  const { UploadId } = await s3.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...(checksum ? { ChecksumAlgorithm: checksum } : {}) }));
  const parts = [];
  for (let n = 0; n * PART < data.length; n++) {
    const answer = await s3.client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: n + 1, Body: data.subarray(n * PART, (n + 1) * PART), ...(checksum ? { ChecksumAlgorithm: checksum } : {}) }));
    parts.push({ PartNumber: n + 1, ETag: answer.ETag, ...(answer.ChecksumCRC32C ? { ChecksumCRC32C: answer.ChecksumCRC32C } : {}) });
  }
  await s3.client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }));
}

function follow(url: string): Promise<{ status: number; body: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: host.port, path: url, headers: { host: `127.0.0.1:${host.port}`, 'sec-fetch-site': 'same-origin' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      const done = (complete: boolean) => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), complete });
      response.on('end', () => done(response.complete));
      response.on('aborted', () => done(false));
      response.on('error', () => done(false));
    });
    request.once('error', reject);
  });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('Save to this computer, multipart objects', () => {
  for (const [label, checksum] of [['no checksum (multipart ETag)', undefined], ['composite CRC32C (what Barge uploads)', 'CRC32C']] as const) {
    it(`cuts a damaged body short: ${label}`, async () => {
      const key = `mp-${checksum ?? 'etag'}.bin`;
      const data = randomBytes(2 * PART + 4321);
      await multipartObject(key, data, checksum);
      // Undamaged, it arrives whole.
      const link = (await service.dispatch('objects.saveLink', { connectionId: 'env', bucket, key })) as { ok: true; value: { url: string } };
      const good = await follow(link.value.url);
      expect(good.complete).toBe(true);
      expect(sha256(good.body)).toBe(sha256(data));
      // One byte flipped on the way: the browser must not be left holding a whole file.
      const again = (await service.dispatch('objects.saveLink', { connectionId: 'env', bucket, key })) as { ok: true; value: { url: string } };
      proxy.setRule((request) => (request.method === 'GET' && request.url?.includes(key) ? { kind: 'corrupt-body', atByte: 1000 } : undefined));
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
