// Review of issue 25 section 4: a key with a control character, a bidi override or a line separator
// is refused as a file name, but the name a download is saved as (jobs.download's saveAs, the
// window's "save as", a web host page's choice) is not checked at all: "nl\nx.txt" is written to
// disk with a newline in it, "rlo-\u202etxt.exe" as a file that reads "rlo-exe.txt".

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { BargeService } from '../../main/service/barge-service.ts';
import { createRuntime } from '../../main/service/runtime.ts';
import { unsafeCharacterIn } from '../../src/unsafe-text.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let store: TestContext;
let service: BargeService;
let root: string;
beforeEach(async () => {
  const s3 = inject('s3');
  store = await setUpEngine();
  root = await mkdtemp(path.join(os.tmpdir(), 'barge-save-as-'));
  service = await createRuntime({
    host: 'web', dataDir: path.join(root, 'data'), warn: () => undefined, journal: false, downloadRoot: path.join(root, 'dl'),
    env: { AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_REGION: s3.region },
  });
});
afterEach(async () => {
  await service.close();
  await store.close();
  await rm(root, { recursive: true, force: true });
});

it('a name to save as with a control character, a bidi override or a line separator is refused, as a key with one is', async () => {
  await store.connection.client.send(new PutObjectCommand({ Bucket: store.bucket, Key: 'doc.txt', Body: 'from the store' }));
  const target = path.join(root, 'dl', 'saved');
  for (const saveAs of ['nl\nx.txt', 'rlo-\u202etxt.exe', 'csi-\u009b.txt', 'ls-\u2028.txt']) {
    const started = await service.dispatch('jobs.download', { connectionId: 'env', bucket: store.bucket, keys: ['doc.txt'], targetFolder: target, saveAs });
    if (!started.ok) continue;
    const id = (started as { value: { id: string } }).value.id;
    await expect.poll(async () => ((await service.dispatch('jobs.snapshot', {})) as { value: { id: string; state: { status: string } }[] }).value.find((job) => job.id === id)?.state.status).not.toBe('running');
  }
  // Today: all four are written, under exactly those names.
  expect((await readdir(target).catch(() => [])).filter((name) => unsafeCharacterIn(name))).toEqual([]);
});
