// npm run demo's store: MinIO on loopback with its own keys, seeded once (a bucket to browse, a
// prefix of many small keys, large files, a versioned bucket with history), stopped with the app.

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
import type { ListObjectsV2CommandOutput } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BUCKET, DEMO_VERSIONS_BUCKET, isSeeded, seedDemo, SMALL_KEYS_PREFIX } from '../../main/demo/demo-seed.ts';
import { createDemoLauncher } from '../../main/demo/demo-launcher.ts';
import { demoFolder, demoKeys, startDemoServer, toolsDir } from '../../main/demo/demo-server.ts';
import { createRuntime } from '../../main/service/runtime.ts';
import type { DemoServer } from '../../main/demo/demo-server.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
let dataDir: string;
let server: DemoServer;

const clientOf = (store: DemoServer) =>
  new S3Client({
    endpoint: store.endpoint,
    region: store.region,
    forcePathStyle: true,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
  });

async function count(client: S3Client, Bucket: string, Prefix: string): Promise<number> {
  let total = 0;
  let token: string | undefined;
  do {
    const page: ListObjectsV2CommandOutput = await client.send(
      new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken: token }),
    );
    total += page.KeyCount ?? 0;
    token = page.NextContinuationToken;
  } while (token);
  return total;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'barge-demo-'));
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

it('seeds a bucket to browse and a versioned bucket with history, once, on a loopback MinIO with keys of its own', async () => {
  const folder = demoFolder(dataDir);
  server = await startDemoServer(folder);
  expect(server.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(server.accessKeyId).not.toBe('minioadmin');
  expect((await stat(path.join(folder, 'keys.json'))).mode & 0o777).toBe(0o600);
  expect(isSeeded(folder)).toBe(false);
  await seedDemo(folder, server, { smallKeys: 200, largeSizes: [2 * 1024 * 1024] });
  expect(isSeeded(folder)).toBe(true);

  const client = clientOf(server);
  expect(await count(client, DEMO_BUCKET, SMALL_KEYS_PREFIX)).toBe(200);
  expect(await count(client, DEMO_BUCKET, 'photos/2024/summer/beach/')).toBe(2);
  const large = await client.send(new ListObjectsV2Command({ Bucket: DEMO_BUCKET, Prefix: 'large/' }));
  expect(large.Contents?.map((o) => o.Size)).toEqual([2 * 1024 * 1024]);
  const versions = await client.send(new ListObjectVersionsCommand({ Bucket: DEMO_VERSIONS_BUCKET }));
  expect(versions.Versions?.filter((v) => v.Key === 'notes.txt')).toHaveLength(3);
  expect(versions.DeleteMarkers?.map((m) => ({ key: m.Key, latest: m.IsLatest }))).toEqual([
    { key: 'deleted-report.txt', latest: true },
  ]);

  // Started again on the same folder: the same keys and data, nothing to seed.
  const keys = await readFile(path.join(folder, 'keys.json'), 'utf8');
  await server.stop();
  server = await startDemoServer(folder);
  expect(await readFile(path.join(folder, 'keys.json'), 'utf8')).toBe(keys);
  expect(await count(clientOf(server), DEMO_BUCKET, SMALL_KEYS_PREFIX)).toBe(200);
  client.destroy();
});

it('npm run demo: starts the store and the web host, prints the URL with its token, and stops the store when stopped', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'barge-demo-home-'));
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'main', 'demo', 'demo.ts'),
      '--data-dir',
      path.join(home, 'data'),
      '--download-root',
      path.join(home, 'downloads'),
    ],
    {
      env: { PATH: process.env.PATH, HOME: home, BARGE_DEMO_SMALL_KEYS: '50', BARGE_TOOLS_DIR: toolsDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await expect.poll(() => out, { timeout: 60_000 }).toMatch(/#token=\S+/);
    const endpoint = /MinIO at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
    expect((await fetch(`${endpoint}/minio/health/ready`)).status).toBe(200);
    expect(out).toMatch(/http:\/\/127\.0\.0\.1:\d+\/#token=/);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${endpoint}/minio/health/ready`)).rejects.toThrow();
  } finally {
    child.kill('SIGKILL');
    await rm(home, { recursive: true, force: true });
  }
});

it('npm run demo prints the lines to paste for the command line, and started again keeps its ports and its token while they are free', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'barge-demo-again-'));
  const run = async () => {
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'main', 'demo', 'demo.ts'),
        '--data-dir',
        path.join(home, 'data'),
        '--download-root',
        path.join(home, 'downloads'),
      ],
      {
        env: { PATH: process.env.PATH, HOME: home, BARGE_DEMO_SMALL_KEYS: '20', BARGE_TOOLS_DIR: toolsDir() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await expect.poll(() => out, { timeout: 60_000 }).toContain('Press Ctrl-C');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    return out;
  };
  try {
    const first = await run();
    const exported = Object.fromEntries(
      [...first.matchAll(/^ {2}export (AWS_\w+)=(\S+)$/gm)].map((line) => [line[1]!, line[2]!]),
    );
    const keys = await demoKeys(demoFolder(path.join(home, 'data')));
    expect(exported).toEqual({
      AWS_ACCESS_KEY_ID: keys.accessKeyId,
      AWS_SECRET_ACCESS_KEY: keys.secretAccessKey,
      AWS_ENDPOINT_URL: /MinIO at (\S+):/.exec(first)![1],
      AWS_REGION: 'us-east-1',
    });
    const url = /^ {2}(http\S+#token=\S+)$/m.exec(first)![1];
    const second = await run();
    // The same window URL (port and token) and the same store endpoint: an open tab and exported variables go on
    // working.
    expect(/^ {2}(http\S+#token=\S+)$/m.exec(second)![1]).toBe(url);
    expect(/MinIO at (\S+):/.exec(second)![1]).toBe(exported.AWS_ENDPOINT_URL);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

it('starts on demand when the window asks the service (once, however many ask), offered as a connection even by a host that refuses internal endpoints', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'barge-demo-open-'));
  const launcher = createDemoLauncher(home, { smallKeys: 20, largeSizes: [1024] });
  const service = await createRuntime({
    host: 'web',
    dataDir: home,
    warn: () => undefined,
    env: {},
    journal: false,
    refuseInternalEndpoints: true,
    demoStore: launcher,
  });
  const lines: string[] = [];
  const unsubscribe = service.subscribe((event) => {
    if (event.type === 'demo') lines.push(event.line);
  });
  try {
    expect(await service.dispatch('connections.list', {})).toEqual({ ok: true, value: [] });
    const [first, second] = await Promise.all([service.dispatch('demo.open', {}), service.dispatch('demo.open', {})]);
    expect(first).toMatchObject({ ok: true, value: { id: 'demo', source: 'demo', name: 'Demo store (local MinIO)' } });
    expect(second).toEqual(first);
    expect(lines).toEqual(
      expect.arrayContaining(['The demo store is ready.', expect.stringMatching(/^Seeding 20 small keys/)]),
    );
    expect(JSON.stringify(lines)).not.toContain((await demoKeys(demoFolder(home))).secretAccessKey);
    const listed = await service.dispatch('connections.list', {});
    expect(listed).toMatchObject({ ok: true, value: [{ id: 'demo', hasSecret: true }] });
    // Its secret stays in the host: the window gets the connection's summary only.
    expect(JSON.stringify(listed)).not.toContain((await demoKeys(demoFolder(home))).secretAccessKey);
    expect(await service.dispatch('buckets.list', { connectionId: 'demo' })).toMatchObject({
      ok: true,
      value: expect.arrayContaining([
        expect.objectContaining({ name: DEMO_BUCKET }),
        expect.objectContaining({ name: DEMO_VERSIONS_BUCKET }),
      ]),
    });
    const endpoint = (first as { value: { endpoint: string } }).value.endpoint;
    await launcher.stop();
    await expect(fetch(`${endpoint}/minio/health/live`)).rejects.toThrow();
  } finally {
    unsubscribe();
    await service.close();
    await launcher.stop();
    await rm(home, { recursive: true, force: true });
  }
});

it('is refused, with what to do instead, by a host that has no demo store', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'barge-demo-none-'));
  const service = await createRuntime({
    host: 'electron',
    dataDir: home,
    warn: () => undefined,
    env: {},
    journal: false,
  });
  try {
    expect(await service.dispatch('demo.open', {})).toMatchObject({
      ok: false,
      error: { code: 'NotSupported', message: expect.stringContaining('add a connection') },
    });
  } finally {
    await service.close();
    await rm(home, { recursive: true, force: true });
  }
});
