// A download stays inside its target even when someone who can write there swaps a folder for a
// symlink while the object is on its way: the bytes are never written, nor renamed, through it. A
// target moved mid-job takes the download with it, subfolders too. And it makes no folder before
// its first object has somewhere safe to go.

import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import { filesUnder } from '../support/bad-input-kit.ts';
import { serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
let proxy: FaultProxy;
beforeEach(async () => {
  t = await setUpEngine();
  proxy = await startFaultProxy(serverConfig().endpoint!);
});
afterEach(async () => {
  await proxy.close();
  await t.close();
});

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('timed out');
}

it.each([
  ['a symlink to a file outside in place of the temporary file', 'link-file'],
  ['a file of the same name outside', 'same-name'],
] as const)(
  'a folder replaced by a symlink while the object downloads: nothing lands outside (%s)',
  async (_what, planted) => {
    await t.connection.client.send(
      new PutObjectCommand({ Bucket: t.bucket, Key: 'tree/sub/doc.txt', Body: 'from the store' }),
    );
    // The object's GET is held long enough for the swap.
    proxy.setRule((request) =>
      request.method === 'GET' && request.url?.includes('doc.txt') ? { kind: 'delay', ms: 1500 } : undefined,
    );
    const slow = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    const target = path.join(t.dir, 'target');
    const outside = path.join(t.dir, 'outside');
    await mkdir(outside);
    const job = t.engine.download(slow, { bucket: t.bucket, prefixes: ['tree/'], targetFolder: target });
    const sub = path.join(target, 'tree', 'sub');
    const temporary = await until(async () =>
      (await readdir(sub).catch(() => [])).find((name) => name.endsWith('.partial')),
    );
    await rename(sub, path.join(t.dir, 'moved-away'));
    const victim = path.join(t.dir, 'victim.txt');
    await writeFile(victim, 'precious');
    if (planted === 'link-file') await symlink(victim, path.join(outside, temporary));
    else await writeFile(path.join(outside, temporary), 'x'.repeat(14));
    await symlink(outside, sub);

    const end = await job.finished();
    expect((await readdir(outside)).filter((name) => name === 'doc.txt')).toEqual([]);
    expect(await readFile(victim, 'utf8')).toBe('precious');
    // The folder was held open: the object lands in it, wherever it was moved.
    expect(end.state.status).toBe('completed');
    expect(await readFile(path.join(t.dir, 'moved-away', 'doc.txt'), 'utf8')).toBe('from the store');
  },
);

it('the target folder itself swapped for a symlink mid-job: not one file lands where the link leads', async () => {
  const KEYS = 40;
  for (let i = 0; i < KEYS; i++)
    await t.connection.client.send(
      new PutObjectCommand({ Bucket: t.bucket, Key: `many/k${String(i).padStart(3, '0')}`, Body: `object ${i}` }),
    );
  proxy.setRule((request) =>
    request.method === 'GET' && !request.url?.includes('list-type') ? { kind: 'delay', ms: 100 } : undefined,
  );
  const slow = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
  const shared = path.join(t.dir, 'shared');
  const victim = path.join(t.dir, 'victim');
  await mkdir(victim);
  const target = path.join(shared, 'sub');
  const job = t.engine.download(slow, { bucket: t.bucket, prefixes: ['many/'], targetFolder: target });
  await until(async () =>
    (await readdir(path.join(target, 'many')).catch(() => [])).some((name) => name.startsWith('k0')) ? true : undefined,
  );
  await rename(target, path.join(shared, 'sub.old'));
  await symlink(victim, target);
  const end = await job.finished();
  expect(await readdir(victim, { recursive: true })).toEqual([]);
  expect(end.state.status).toBe('completed');
  expect(await readdir(path.join(shared, 'sub.old', 'many'))).toHaveLength(KEYS);
});

it('a retry after the target was swapped for a symlink does not follow it: it fails, and nothing lands where the link leads', async () => {
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'good.txt', Body: 'good' }));
  const shared = path.join(t.dir, 'shared-retry');
  const target = path.join(shared, 'dl');
  const victim = path.join(t.dir, 'victim-retry');
  await mkdir(victim);
  const job = t.engine.download(t.connection, {
    bucket: t.bucket,
    keys: ['good.txt', 'authorized_keys'],
    targetFolder: target,
  });
  const first = await job.finished();
  expect(first.progress.objectsFailed).toBe(1);
  await rename(target, path.join(shared, 'dl.old'));
  await symlink(victim, target);
  await t.connection.client.send(
    new PutObjectCommand({ Bucket: t.bucket, Key: 'authorized_keys', Body: 'ssh-ed25519 attacker' }),
  );
  t.engine.retry(job.id);
  const again = await t.engine.job(job.id)!.finished();
  expect(again.state).toMatchObject({ status: 'failed', error: { code: 'UnsafePath' } });
  expect(again.state.status === 'failed' && again.state.error.message).toContain('where this download began');
  expect(await readdir(victim)).toEqual([]);
});

it.each([
  ['every object, in subfolders too, lands in the folder it opened, where it was moved', false],
  ['a link in it to a new folder at its old place is not followed (the old place is outside it now)', true],
] as const)('a target renamed while the job lists: %s', async (_what, linkBack) => {
  for (const key of ['top.txt', 'sub/one.txt', 'sub/deeper/two.txt']) {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: `content of ${key}` }));
  }
  // A store like any other, whose listing is held until the target has been moved: the job has opened it by then.
  const s3 = inject('s3');
  const holding = await startLegacyStoreProxy(s3.endpoint, s3, s3.region);
  holding.legacy = false;
  try {
    const target = path.join(t.dir, 'target');
    const moved = path.join(t.dir, 'moved');
    await mkdir(target);
    let listed!: () => void;
    const moving = new Promise<void>((resolve) => {
      listed = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    holding.refuse = async (request) => {
      if (request.url.includes('list-type=2')) {
        listed();
        await released;
      }
      return undefined;
    };
    const through = await t.engine.connect({ ...serverConfig(), endpoint: holding.endpoint });
    const job = t.engine.download(through, { bucket: t.bucket, prefixes: [''], targetFolder: target });
    await moving;
    await rename(target, moved);
    if (linkBack) {
      await mkdir(target);
      await symlink(target, path.join(moved, 'sub'));
    }
    release();
    const end = await job.finished();
    // Subfolders are checked against where the open target is now, not where it was when the job began.
    expect(await filesUnder(target)).toEqual([]);
    if (linkBack) {
      expect(end.itemErrors.map((error) => [error.item, error.code]).sort()).toEqual(
        [
          [`s3://${t.bucket}/sub/deeper/two.txt`, 'UnsafePath'],
          [`s3://${t.bucket}/sub/one.txt`, 'UnsafePath'],
        ].sort(),
      );
      expect(await readFile(path.join(moved, 'top.txt'), 'utf8')).toBe('content of top.txt');
      return;
    }
    expect(end.itemErrors).toEqual([]);
    expect(end.state.status).toBe('completed');
    expect(await filesUnder(moved)).toEqual(['sub/deeper/two.txt', 'sub/one.txt', 'top.txt']);
    expect(await readFile(path.join(moved, 'sub', 'one.txt'), 'utf8')).toBe('content of sub/one.txt');
  } finally {
    await holding.close();
  }
});

describe('nothing is made until the first byte has somewhere safe to go', () => {
  it('a folder below the download root that a link leads out of: the job fails, and no folder is made where the link leads (first run, retry, restore)', async () => {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'doc.txt', Body: 'doc' }));
    const root = path.join(t.dir, 'root');
    const outside = path.join(t.dir, 'outside');
    await mkdir(path.join(root, 'dl'), { recursive: true });
    await mkdir(outside);
    const spec = {
      bucket: t.bucket,
      keys: ['doc.txt', 'missing.txt'],
      targetFolder: path.join(root, 'dl', 'new', 'deeper'),
      confinedTo: root,
    };
    // A first run makes its folders inside the root, as it should (one key fails, so it can be retried).
    const job = t.engine.download(t.connection, spec);
    expect((await job.finished()).progress.objectsDone).toBe(1);
    // Then the folder is swapped for a link that leads out.
    await rename(path.join(root, 'dl'), path.join(root, 'dl.old'));
    await symlink(outside, path.join(root, 'dl'));
    t.engine.retry(job.id);
    const retried = await t.engine.job(job.id)!.finished();
    expect(retried.state).toMatchObject({ status: 'failed', error: { code: 'OutsideDownloadRoot' } });
    const fresh = await t.engine.download(t.connection, { ...spec, keys: ['doc.txt'] }).finished();
    expect(fresh.state).toMatchObject({ status: 'failed', error: { code: 'OutsideDownloadRoot' } });
    expect(await readdir(outside)).toEqual([]);
  });

  it('a download that fails before any object (a wrong secret, a bucket that does not exist) leaves no destination folder', async () => {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'p/doc.txt', Body: 'doc' }));
    const wrongSecret = await t.engine.connect({ ...serverConfig(), secretAccessKey: 'not-the-secret-key' });
    const runs = [
      [
        'a wrong secret, by prefix',
        () =>
          t.engine.download(wrongSecret, {
            bucket: t.bucket,
            prefixes: ['p/'],
            targetFolder: path.join(t.dir, 'a', 'new'),
          }),
      ],
      [
        'a wrong secret, by key',
        () =>
          t.engine.download(wrongSecret, {
            bucket: t.bucket,
            keys: ['p/doc.txt'],
            targetFolder: path.join(t.dir, 'b', 'new'),
          }),
      ],
      [
        'no such bucket',
        () =>
          t.engine.download(t.connection, {
            bucket: `${t.bucket}-gone`,
            prefixes: ['p/'],
            targetFolder: path.join(t.dir, 'c', 'new'),
          }),
      ],
      [
        'no such key',
        () =>
          t.engine.download(t.connection, {
            bucket: t.bucket,
            keys: ['p/missing.txt'],
            targetFolder: path.join(t.dir, 'd', 'new'),
          }),
      ],
    ] as const;
    for (const [what, run] of runs) {
      expect((await run().finished()).state.status, what).toBe('failed');
    }
    expect((await readdir(t.dir)).filter((name) => ['a', 'b', 'c', 'd'].includes(name))).toEqual([]);
  });
});
