// What the web host's service refuses a token holder, through the contract itself: no file named on
// the host (receipts, sources), no session connection, no key a method does not take.

import { mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import type { BargeService } from '../../main/service/barge-service.ts';
import { createRuntime } from '../../main/service/runtime.ts';

let service: BargeService;
let root: string;
let outside: string;
beforeEach(async () => {
  const s3 = inject('s3');
  root = await mkdtemp(path.join(os.tmpdir(), 'barge-policy-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'barge-policy-outside-'));
  service = await createRuntime({
    host: 'web', dataDir: path.join(root, 'data'), warn: () => undefined, journal: false, downloadRoot: path.join(root, 'dl'), staging: {},
    env: { AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_REGION: s3.region },
  });
});
afterEach(async () => {
  await service.close();
});

it('refuses to write a receipt on the host (a page saves it through the browser), whatever the path', async () => {
  const started = await service.dispatch('jobs.delete', { connectionId: 'env', bucket: 'no-such-bucket-policy', keys: ['k'], dryRun: true });
  expect(started.ok).toBe(true);
  const id = (started as { value: { id: string } }).value.id;
  await writeFile(path.join(outside, 'victim'), 'PRECIOUS');
  await symlink(path.join(outside, 'victim'), path.join(root, 'link.csv.barge-partial'));
  for (const file of ['r.csv', '..', '../r.csv', path.join(outside, 'r.csv'), 'link.csv']) {
    expect(await service.dispatch('jobs.saveReceipt', { id, path: file, format: 'csv' })).toMatchObject({ ok: false, error: { code: 'Forbidden' } });
  }
  expect(await readdir(outside)).toEqual(['victim']);
});

it('refuses session connections and local paths, and any key a method does not take', async () => {
  expect(await service.dispatch('connections.open', { endpoint: 'http://127.0.0.1:9000' })).toMatchObject({ ok: false, error: { code: 'Forbidden' } });
  expect(await service.dispatch('jobs.upload', { connectionId: 'env', bucket: 'b', prefix: '', paths: ['/etc/passwd'] })).toMatchObject({ ok: false, error: { code: 'Forbidden' } });
  expect(await service.dispatch('jobs.items', { id: 'x', list: 'errors', evil: 1 })).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } });
  expect(await service.dispatch('jobs.forget', { id: 'not-a-job' })).toMatchObject({ ok: false, error: { code: 'NoSuchJob' } });
});

it('does not lend the host\'s own credentials to an endpoint a page names: a connection brings its own keys or a profile', async () => {
  const s3 = inject('s3');
  // A server that would capture whatever signs its requests.
  const draft = { name: 'Capture', endpoint: 'http://127.0.0.1:9', region: 'us-east-1' };
  for (const [method, params] of [['connections.check', { input: draft }], ['connections.add', draft]] as const) {
    expect(await service.dispatch(method, params)).toMatchObject({ ok: false, error: { code: 'MissingCredentials', message: expect.stringContaining('does not lend its own credentials') } });
  }
  // With keys of its own (or without an endpoint: AWS itself, as the environment is) it goes on.
  expect(await service.dispatch('connections.check', { input: { ...draft, endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } })).toMatchObject({ ok: true, value: { ok: true } });
  // A field the form does not have is refused, not dropped.
  expect(await service.dispatch('connections.add', { ...draft, accessKeyId: 'a', secretAccessKey: 'b', sessionToken: 'x' })).toMatchObject({ ok: false, error: { code: 'InvalidRequest' } });
});
