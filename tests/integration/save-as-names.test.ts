// The name a download is saved as (jobs.download's saveAs: the window's "save as", a web host page's
// choice, the command line's destination file) is refused as a key's file name is: a control
// character, a bidi override or a line separator never reaches the disk, at the contract nor in the
// engine, and the refusal names it escaped.

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { BargeService } from '../../main/service/barge-service.ts';
import { createRuntime } from '../../main/service/runtime.ts';
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
    host: 'web',
    dataDir: path.join(root, 'data'),
    warn: () => undefined,
    journal: false,
    downloadRoot: path.join(root, 'dl'),
    env: {
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_ENDPOINT_URL: s3.endpoint,
      AWS_REGION: s3.region,
    },
  });
  await store.connection.client.send(
    new PutObjectCommand({ Bucket: store.bucket, Key: 'doc.txt', Body: 'from the store' }),
  );
});
afterEach(async () => {
  await service.close();
  await store.close();
  await rm(root, { recursive: true, force: true });
});

const UNSAFE = [
  ['nl\nx.txt', 'nl\\nx.txt', 'a control character (\\n)'],
  ['rlo-\u202etxt.exe', 'rlo-\\u202etxt.exe', 'a bidirectional formatting character (\\u202e)'],
  ['csi-\u009b.txt', 'csi-\\x9b.txt', 'a control character (\\x9b)'],
  ['ls-\u2028.txt', 'ls-\\u2028.txt', 'a line or paragraph separator (\\u2028)'],
] as const;

it('a name to save as with a control character, a bidi override or a line separator is refused by the contract, naming it escaped', async () => {
  const target = path.join(root, 'dl', 'saved');
  for (const [saveAs, shown, what] of UNSAFE) {
    const started = await service.dispatch('jobs.download', {
      connectionId: 'env',
      bucket: store.bucket,
      keys: ['doc.txt'],
      targetFolder: target,
      saveAs,
    });
    expect(started, shown).toEqual({
      ok: false,
      error: {
        code: 'InvalidRequest',
        message: `The name to save as, "${shown}", contains ${what}, which is not safe in a file name: choose another name.`,
      },
    });
  }
  expect(await readdir(target).catch(() => [])).toEqual([]);
  // A plain name is taken.
  const plain = await service.dispatch('jobs.download', {
    connectionId: 'env',
    bucket: store.bucket,
    keys: ['doc.txt'],
    targetFolder: target,
    saveAs: 'plain.txt',
  });
  expect(plain.ok).toBe(true);
});

it('the engine refuses such a file to save as too, before anything is made', async () => {
  for (const [saveAs, shown, what] of UNSAFE) {
    const folder = path.join(store.dir, 'out');
    expect(
      () =>
        store.engine.download(store.connection, {
          bucket: store.bucket,
          keys: ['doc.txt'],
          targetFolder: folder,
          targetFile: path.join(folder, saveAs),
        }),
      shown,
    ).toThrow(
      `The name to save as, "${shown}", contains ${what}, which is not safe in a file name: nothing was downloaded. Choose another name.`,
    );
  }
  expect(await readdir(store.dir)).toEqual([]);
});
