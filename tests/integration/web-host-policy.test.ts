// What the web host's service refuses a token holder, through the contract itself: no file named on
// the host (receipts, sources), no session connection, no key a method does not take; and, reachable
// beyond this machine, no endpoint on its own or its network's internal addresses.

import { mkdir, mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { freePort } from '../../main/demo/free-port.ts';
import type { BargeService } from '../../main/service/barge-service.ts';
import { createRuntime } from '../../main/service/runtime.ts';
import { startServe } from '../../main/web-host/serve-host.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let service: BargeService;
let root: string;
let outside: string;
beforeEach(async () => {
  const s3 = inject('s3');
  root = await mkdtemp(path.join(os.tmpdir(), 'barge-policy-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'barge-policy-outside-'));
  service = await createRuntime({
    host: 'web',
    dataDir: path.join(root, 'data'),
    warn: () => undefined,
    journal: false,
    downloadRoot: path.join(root, 'dl'),
    staging: {},
    env: {
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_ENDPOINT_URL: s3.endpoint,
      AWS_REGION: s3.region,
    },
  });
});
afterEach(async () => {
  await service.close();
});

it('refuses to write a receipt on the host (a page saves it through the browser), whatever the path', async () => {
  const started = await service.dispatch('jobs.delete', {
    connectionId: 'env',
    bucket: 'no-such-bucket-policy',
    keys: ['k'],
    dryRun: true,
  });
  expect(started.ok).toBe(true);
  const id = (started as { value: { id: string } }).value.id;
  await writeFile(path.join(outside, 'victim'), 'PRECIOUS');
  await symlink(path.join(outside, 'victim'), path.join(root, 'link.csv.barge-partial'));
  for (const file of ['r.csv', '..', '../r.csv', path.join(outside, 'r.csv'), 'link.csv']) {
    expect(await service.dispatch('jobs.saveReceipt', { id, path: file, format: 'csv' })).toMatchObject({
      ok: false,
      error: { code: 'Forbidden' },
    });
  }
  expect(await readdir(outside)).toEqual(['victim']);
});

it('makes no download folder before an object is on its way: a download from a bucket that does not exist leaves none', async () => {
  const target = path.join(root, 'dl', 'new', 'deeper');
  const started = await service.dispatch('jobs.download', {
    connectionId: 'env',
    bucket: 'no-such-bucket-policy',
    keys: ['k'],
    prefixes: ['p/'],
    targetFolder: target,
  });
  const id = (started as { value: { id: string } }).value.id;
  await expect
    .poll(
      async () =>
        (
          (await service.dispatch('jobs.snapshot', {})) as { value: { id: string; state: { status: string } }[] }
        ).value.find((job) => job.id === id)?.state.status,
    )
    .toBe('failed');
  expect(await readdir(path.join(root, 'dl')).catch(() => [])).toEqual([]);
});

it('refuses session connections and local paths, and any key a method does not take', async () => {
  expect(await service.dispatch('connections.open', { endpoint: 'http://127.0.0.1:9000' })).toMatchObject({
    ok: false,
    error: { code: 'Forbidden' },
  });
  expect(
    await service.dispatch('jobs.upload', { connectionId: 'env', bucket: 'b', prefix: '', paths: ['/etc/passwd'] }),
  ).toMatchObject({ ok: false, error: { code: 'Forbidden' } });
  expect(await service.dispatch('jobs.items', { id: 'x', list: 'errors', evil: 1 })).toMatchObject({
    ok: false,
    error: { code: 'InvalidRequest' },
  });
  expect(await service.dispatch('jobs.forget', { id: 'not-a-job' })).toMatchObject({
    ok: false,
    error: { code: 'NoSuchJob' },
  });
});

it("does not lend the host's own credentials to an endpoint a page names: a connection brings its own keys or a profile", async () => {
  const s3 = inject('s3');
  // A server that would capture whatever signs its requests.
  const draft = { name: 'Capture', endpoint: 'http://127.0.0.1:9', region: 'us-east-1' };
  for (const [method, params] of [
    ['connections.check', { input: draft }],
    ['connections.add', draft],
  ] as const) {
    expect(await service.dispatch(method, params)).toMatchObject({
      ok: false,
      error: { code: 'MissingCredentials', message: expect.stringContaining('does not lend its own credentials') },
    });
  }
  // With keys of its own (or without an endpoint: AWS itself, as the environment is) it goes on.
  expect(
    await service.dispatch('connections.check', {
      input: { ...draft, endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    }),
  ).toMatchObject({ ok: true, value: { ok: true } });
  // A field the form does not have is refused, not dropped.
  expect(
    await service.dispatch('connections.add', { ...draft, accessKeyId: 'a', secretAccessKey: 'b', sessionToken: 'x' }),
  ).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } });
});

describe('a host reachable beyond this machine, and a token holder who names internal addresses', () => {
  let reachable: BargeService;
  let store: TestContext;
  beforeEach(async () => {
    const s3 = inject('s3');
    store = await setUpEngine();
    await store.connection.client.send(
      new PutObjectCommand({ Bucket: store.bucket, Key: 'internal.txt', Body: 'an internal service answered' }),
    );
    // The environment's own connection points at this machine's store, as an internal service would be.
    reachable = await createRuntime({
      host: 'web',
      dataDir: path.join(root, 'reachable'),
      warn: () => undefined,
      journal: false,
      downloadRoot: path.join(root, 'dl'),
      staging: {},
      browserDownloads: true,
      refuseInternalEndpoints: true,
      env: {
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        AWS_ENDPOINT_URL: s3.endpoint,
        AWS_REGION: s3.region,
      },
    });
  });
  afterEach(async () => {
    await reachable.close();
    await store.close();
  });

  it('reads no loopback service through a save link, and sends no staged bytes there', async () => {
    const s3 = inject('s3');
    const refused = {
      ok: false,
      error: { code: 'EndpointRefused', message: expect.stringContaining('127.0.0.1 is a loopback address') },
    };
    expect(
      await reachable.dispatch('objects.saveLink', { connectionId: 'env', bucket: store.bucket, key: 'internal.txt' }),
    ).toMatchObject(refused);
    const staged = await reachable.dispatch('uploads.stage', {});
    const stagingId = (staged as { value: { stagingId: string } }).value.stagingId;
    const target = await reachable.stagedFile(stagingId, 'bytes.txt');
    await writeFile((target as { value: { file: string } }).value.file, 'staged bytes');
    expect(
      await reachable.dispatch('jobs.upload', {
        connectionId: 'env',
        bucket: store.bucket,
        prefix: '',
        staged: { stagingId, entries: ['bytes.txt'] },
      }),
    ).toMatchObject(refused);
    expect(await store.connection.client.send(new ListObjectsV2Command({ Bucket: store.bucket }))).toMatchObject({
      KeyCount: 1,
    });
    // A connection of the page's own, with keys, to a loopback, private or unspecified address, however it is written.
    for (const endpoint of [
      s3.endpoint,
      `http://localhost:${new URL(s3.endpoint).port}`,
      'http://[::ffff:127.0.0.1]:9000',
      'http://10.1.2.3:9000',
      'http://192.168.0.10',
      'http://100.64.0.1',
      'http://0.0.0.0:9000',
      'http://[fd12::1]',
    ]) {
      expect(
        await reachable.dispatch('connections.add', {
          name: 'inside',
          endpoint,
          accessKeyId: 'A',
          secretAccessKey: 'B',
        }),
        endpoint,
      ).toMatchObject({ ok: false, error: { code: 'EndpointRefused' } });
    }
  });

  it("says at start when the environment's own endpoint is one it will refuse", async () => {
    const s3 = inject('s3');
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      said.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const args = {
        host: '127.0.0.1',
        'public-name': ['barge.example'],
        'insecure-http': true,
        'data-dir': path.join(root, 'serve'),
        'download-root': path.join(root, 'dl'),
      };
      const host = await startServe({
        args,
        env: { AWS_ENDPOINT_URL: s3.endpoint },
        demoStore: {
          start: async () => {
            throw new Error('no demo here');
          },
        },
      });
      await host.stop();
    } finally {
      process.stderr.write = write;
    }
    expect(said.join('')).toContain(
      `Warning: this host refuses the environment's endpoint ${s3.endpoint} (127.0.0.1 is a loopback address`,
    );
  });

  it('scans no ports: an open port and a closed one get the same refusal', async () => {
    const s3 = inject('s3');
    const draft = { name: 'scan', region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };
    const answers = [];
    for (const endpoint of [s3.endpoint, `http://127.0.0.1:${await freePort()}`]) {
      answers.push(await reachable.dispatch('connections.check', { input: { ...draft, endpoint } }));
    }
    for (const answer of answers)
      expect(answer).toMatchObject({
        ok: true,
        value: { ok: false, failed: 'endpoint', field: 'endpoint', code: 'EndpointRefused' },
      });
  });
});

describe("a token holder who names a region or a profile to borrow the host's credentials", () => {
  /** A listener that counts who connects to it: where a request would have carried the host's credentials. */
  async function capture() {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as net.AddressInfo).port,
      connections: () => connections,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it('a region that carries a host is refused at every door, and nothing connects there', async () => {
    const trap = await capture();
    const region = `x@127.0.0.1:${trap.port}/#`;
    // A connection saved before regions were checked (or written into the file by hand).
    await mkdir(path.join(root, 'region'));
    await writeFile(
      path.join(root, 'region', 'connections.json'),
      JSON.stringify([{ id: 'old', name: 'Old', region }]),
    );
    const withEnvRegion = await createRuntime({
      host: 'web',
      dataDir: path.join(root, 'region'),
      warn: () => undefined,
      journal: false,
      downloadRoot: path.join(root, 'dl'),
      env: { AWS_ACCESS_KEY_ID: 'AKIAHOSTOWN', AWS_SECRET_ACCESS_KEY: 'host-own-secret', AWS_REGION: region },
    });
    try {
      // The contract: the form's region.
      const added = await service.dispatch('connections.add', { name: 'r', region });
      expect(added).toMatchObject({
        ok: false,
        error: { code: 'InvalidRequest', message: expect.stringContaining('That is not a region') },
      });
      expect(await service.dispatch('connections.check', { input: { name: 'r', region } })).toMatchObject({
        ok: false,
        error: { code: 'InvalidRequest' },
      });
      // The environment's region, which no form checked: refused by the engine, by name.
      expect(await withEnvRegion.dispatch('buckets.list', { connectionId: 'env' })).toMatchObject({
        ok: false,
        error: { code: 'InvalidRegion', message: expect.stringMatching(/^AWS_REGION is not a region/) },
      });
      expect(
        await withEnvRegion.dispatch('objects.list', { connectionId: 'env', bucket: 'b', prefix: '' }),
      ).toMatchObject({ ok: false, error: { code: 'InvalidRegion' } });
      expect(
        await withEnvRegion.dispatch('objects.list', { connectionId: 'old', bucket: 'b', prefix: '' }),
      ).toMatchObject({
        ok: false,
        error: {
          code: 'InvalidRegion',
          message: expect.stringContaining('The region of the connection "Old" is not a region'),
        },
      });
      expect(trap.connections()).toBe(0);
    } finally {
      await withEnvRegion.close();
      await trap.close();
    }
  });

  it("a profile that is not there, or that holds no credentials, lends none of the host's: not its container's, not its instance's", async () => {
    const s3 = inject('s3');
    // The host runs in a container whose credentials come from a local endpoint (as ECS and EKS give them).
    let asked = 0;
    const container = http.createServer((_request, response) => {
      asked += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          AccessKeyId: 'ASIACONTAINER',
          SecretAccessKey: 'container-secret',
          Token: 'container-token',
          Expiration: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
    });
    await new Promise<void>((resolve) => container.listen(0, '127.0.0.1', resolve));
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_CONTAINER_CREDENTIALS_FULL_URI: `http://127.0.0.1:${(container.address() as net.AddressInfo).port}/credentials`,
      AWS_CONFIG_FILE: path.join(root, 'aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(root, 'aws-credentials'),
    });
    await writeFile(path.join(root, 'aws-config'), '[profile region-only]\nregion = eu-west-1\n');
    await writeFile(path.join(root, 'aws-credentials'), '');
    const withEnvProfile = await createRuntime({
      host: 'web',
      dataDir: path.join(root, 'profile'),
      warn: () => undefined,
      journal: false,
      env: { AWS_PROFILE: 'nope', AWS_ENDPOINT_URL: s3.endpoint },
    });
    try {
      const draft = { name: 'p', endpoint: s3.endpoint, region: s3.region };
      for (const method of ['connections.check', 'connections.add'] as const) {
        const params = (input: object) => (method === 'connections.check' ? { input } : input);
        expect(await service.dispatch(method, params({ ...draft, profile: 'no-such-profile' }))).toMatchObject({
          ok: false,
          error: {
            code: 'NoSuchProfile',
            message: expect.stringMatching(/^No profile no-such-profile in ~\/\.aws\/config or ~\/\.aws\/credentials/),
          },
        });
        expect(await service.dispatch(method, params({ ...draft, profile: 'region-only' }))).toMatchObject({
          ok: false,
          error: {
            code: 'MissingCredentials',
            message: expect.stringContaining('The profile region-only holds no credentials of its own'),
          },
        });
      }
      // A connection the window did not add: a profile by its ID, and the environment's AWS_PROFILE.
      expect(await service.dispatch('buckets.list', { connectionId: 'profile:no-such-profile' })).toMatchObject({
        ok: false,
        error: { code: 'NoSuchProfile' },
      });
      expect(await withEnvProfile.dispatch('buckets.list', { connectionId: 'env' })).toMatchObject({
        ok: false,
        error: {
          code: 'NoSuchProfile',
          message: expect.stringMatching(/^The config profile \(nope\) could not be found/),
        },
      });
      expect(asked).toBe(0);
    } finally {
      await withEnvProfile.close();
      process.env = saved;
      await new Promise((resolve) => container.close(resolve));
    }
  });
});

it('an error that names a key shows its bidi overrides and controls escaped, as every output does', async () => {
  const answer = await service.dispatch('objects.list', {
    connectionId: 'env',
    bucket: 'no-such-bucket-policy',
    prefix: 'invoice-\u202efdp.exe\u0085',
  });
  expect(answer).toMatchObject({
    ok: false,
    error: { message: expect.stringContaining('invoice-\\u202efdp.exe\\x85') },
  });
  expect(JSON.stringify(answer)).not.toMatch(/[\u202e\u0085]/);
});
