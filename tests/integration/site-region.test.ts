// A real store with a region of its own: MinIO started with MINIO_SITE_REGION.
//
// It refuses a request signed for another region with 400 AuthorizationHeaderMalformed and
// x-amz-bucket-region, as the region proxy does, except DeleteObjects: that answers 200, refusing
// every key inside its DeleteResult. A run whose region is not the store's must still delete keys it
// names (`barge rm s3://b/key`, the window's selection), where no other request came first to teach
// the bucket's region.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import { startS3Server } from '../support/s3-server.ts';
import type { RunningS3Server } from '../support/s3-server.ts';
import { randomFile, uniqueBucket } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

const SITE_REGION = 'eu-central-1';

let server: RunningS3Server;
let engine: Engine;
let home: S3Connection;
let bucket: string;
let dir: string;

beforeAll(async () => {
  // The variable reaches the server's environment (s3-server.ts passes process.env on).
  process.env.MINIO_SITE_REGION = SITE_REGION;
  try {
    server = await startS3Server('minio');
  } finally {
    delete process.env.MINIO_SITE_REGION;
  }
  engine = new Engine({ settings: { threads: 4, maxAttempts: 2 } });
  home = await engine.connect({
    endpoint: server.endpoint,
    region: SITE_REGION,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    pathStyle: true,
  });
  bucket = uniqueBucket();
  await createBucket(home, bucket);
  dir = await mkdtemp(path.join(os.tmpdir(), 'barge-site-region-'));
}, 120_000);
afterAll(async () => {
  await engine?.close();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Whether the key is still in the bucket, asked in the store's own region. */
async function exists(key: string): Promise<boolean> {
  return home.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    () => true,
    () => false,
  );
}

async function stored(key: string): Promise<void> {
  const source = await randomFile(path.join(dir, key), 'a.txt', 100);
  const end = await engine.upload(home, { sources: [source.path], bucket, destination: key }).finished();
  expect(end.state).toEqual({ status: 'completed' });
  expect(await exists(key)).toBe(true);
}

describe('MinIO with a site region (eu-central-1), from a run whose region is us-east-1', () => {
  it('deletes a key named on the command line (DeleteObjects refused key by key inside a 200)', async () => {
    await stored('named/a.txt');
    const env = {
      AWS_ENDPOINT_URL: server.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: server.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    };
    const removed = await runCli(['rm', `s3://${bucket}/named/a.txt`], { env });
    expect(removed.stderr).not.toContain('Set the region');
    expect(removed.code).toBe(0);
    expect(await exists('named/a.txt')).toBe(false);
  });

  it('deletes named keys through the engine on a new connection, as the window does with a selection', async () => {
    await stored('selected/a.txt');
    const fresh = await engine.connect({
      endpoint: server.endpoint,
      region: 'us-east-1',
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
      pathStyle: true,
    });
    const end = await engine.delete(fresh, { bucket, keys: ['selected/a.txt'] }).finished();
    expect(end.itemErrors).toEqual([]);
    expect(end.state).toEqual({ status: 'completed' });
    expect(await exists('selected/a.txt')).toBe(false);
  });
});
