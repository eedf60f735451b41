// A download sync's deletes stay below its folder and the host's root, as they are when it deletes,
// not as they were when it compared: a folder swapped for a link on the way, and a sync brought back
// after the host restarts under another root, delete nothing outside.

import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import { Engine } from '../../main/engine/engine.ts';
import { Journal } from '../../main/engine/journal/journal.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { createBargeService } from '../../main/service/barge-service.ts';
import { ConnectionRegistry } from '../../main/service/connection-registry.ts';
import { FileSecretStore } from '../../main/service/secret-store.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { serverConfig, setUpEngine, uniqueBucket } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

let t: TestContext;
let proxy: FaultProxy;
let dataDir: string;
beforeEach(async () => {
  t = await setUpEngine();
  proxy = await startFaultProxy(serverConfig().endpoint!);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'barge-sync-confined-'));
});
afterEach(async () => {
  await proxy.close();
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('a folder swapped for a link between the comparison and the deletes leads no delete outside the sync folder', async () => {
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'd/zzz.txt', Body: 'last' }));
  const target = path.join(t.dir, 'target');
  const outside = path.join(t.dir, 'outside');
  await mkdir(path.join(target, 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(target, 'sub', 'extra.txt'), 'only on disk');
  await writeFile(path.join(outside, 'extra.txt'), 'not the sync’s to delete');
  // The download of zzz.txt (after sub/extra.txt in key order: the extra is planned) waits until the swap.
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  let release!: () => void;
  const until = new Promise<void>((resolve) => (release = resolve));
  proxy.setRule((request) => {
    if (request.method !== 'GET' || !request.url?.includes('zzz.txt')) return undefined;
    arrived();
    return { kind: 'hold', until };
  });
  const run = runCli(['sync', '--delete', `s3://${t.bucket}/d/`, target], {
    env: { AWS_ENDPOINT_URL: proxy.endpoint, BARGE_DATA_DIR: dataDir },
  });
  await held;
  await rename(path.join(target, 'sub'), path.join(t.dir, 'sub-moved'));
  await symlink(outside, path.join(target, 'sub'));
  release();
  const end = await run;
  expect(end.code).toBe(1);
  expect(end.stderr).toContain('now lies outside');
  expect(await readFile(path.join(outside, 'extra.txt'), 'utf8')).toBe('not the sync’s to delete');
  expect(await readFile(path.join(target, 'zzz.txt'), 'utf8')).toBe('last');
});

it('a sync brought back after the host restarts under another root deletes and writes nothing under the old one', async () => {
  const s3 = inject('s3');
  const env = {
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_ENDPOINT_URL: s3.endpoint,
    AWS_REGION: s3.region,
  };
  const [oldRoot, newRoot] = [path.join(dataDir, 'old-root'), path.join(dataDir, 'new-root')];
  await mkdir(path.join(oldRoot, 'inside'), { recursive: true });
  await writeFile(path.join(oldRoot, 'inside', 'extra.txt'), 'kept');
  const journalFile = path.join(dataDir, 'journal.sqlite');
  const bucket = uniqueBucket();
  const secrets = new FileSecretStore(path.join(dataDir, 'secrets.json'));
  const first = new Engine({ env, journal: await Journal.open(journalFile), host: 'web' });
  const connection = await first.connect(serverConfig());
  await createBucket(connection, bucket);
  await connection.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'a.txt', Body: 'data' }));
  const before = createBargeService({
    engine: first,
    registry: new ConnectionRegistry({ dataDir, engine: first, secrets, env }),
    host: 'web',
    downloadRoot: oldRoot,
  });
  const started = await before.dispatch('jobs.sync', {
    connectionId: 'env',
    direction: 'download',
    bucket,
    prefix: '',
    folder: path.join(oldRoot, 'inside'),
    delete: true,
  });
  const id = (started as { value: { id: string } }).value.id;
  first.pause(id);
  // The host stops mid-job (as at a crash): the sync stays in the journal, unfinished.
  await first.close({ suspend: true });

  const second = new Engine({ env, journal: await Journal.open(journalFile), host: 'web' });
  const after = createBargeService({
    engine: second,
    registry: new ConnectionRegistry({ dataDir, engine: second, secrets, env }),
    host: 'web',
    downloadRoot: newRoot,
  });
  try {
    expect(second.job(id)?.state.status).toBe('paused');
    second.resume(id);
    const end = await second.job(id)!.finished();
    expect(end.state).toMatchObject({ status: 'failed', error: { code: 'OutsideDownloadRoot' } });
    expect(await readFile(path.join(oldRoot, 'inside', 'extra.txt'), 'utf8')).toBe('kept');
    await expect(readFile(path.join(oldRoot, 'inside', 'a.txt'), 'utf8')).rejects.toThrow();
  } finally {
    await after.close();
    await before.close().catch(() => undefined);
  }
});
