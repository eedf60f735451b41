// Helpers shared by the integration tests: an engine on the test server, a fresh bucket, temp
// folders and files with known content.

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import type { EngineOptions } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import type { S3Connection } from '../../main/engine/s3/s3-connection.ts';
import type { ConnectionConfig } from '../../src/connection.ts';

export function serverConfig(): ConnectionConfig {
  const s3 = inject('s3');
  return {
    endpoint: s3.endpoint,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    pathStyle: true,
  };
}

export interface TestContext {
  readonly engine: Engine;
  readonly connection: S3Connection;
  readonly bucket: string;
  readonly dir: string;
  close(): Promise<void>;
}

/** An engine connected to the test server, with a new empty bucket and a temp folder. */
export async function setUpEngine(options: EngineOptions = {}): Promise<TestContext> {
  const engine = new Engine(options);
  const connection = await engine.connect(serverConfig());
  const bucket = uniqueBucket();
  await createBucket(connection, bucket);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-test-'));
  // The folder goes with the engine: a full run made thousands of them (gigabytes in the temporary folder).
  return {
    engine,
    connection,
    bucket,
    dir,
    close: async () => {
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function uniqueBucket(): string {
  return `test-${randomUUID().slice(0, 18)}`;
}

/** A file of `size` random bytes; returns its path and SHA-256. */
export async function randomFile(dir: string, name: string, size: number): Promise<{ path: string; sha256: string }> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  const data = randomBytes(size);
  await writeFile(file, data);
  return { path: file, sha256: createHash('sha256').update(data).digest('hex') };
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
