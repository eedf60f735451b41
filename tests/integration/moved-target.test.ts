// Review of issue 25 section 4 (folders): the README says a download holds its target open, so that
// a target moved away mid-job (renamed, no symlink anywhere) takes the download with it: "the
// download lands in the folder it opened, wherever that was moved". It does for objects at the top
// of the target; an object in a subfolder of it is refused as if a symbolic link led it out, naming
// the folder it would really have gone to (inside the moved target), and that subfolder is made first.

import { mkdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import type { LegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import { serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { filesUnder } from '../support/bad-input-kit.ts';

let t: TestContext;
let proxy: LegacyStoreProxy;
beforeEach(async () => {
  const s3 = inject('s3');
  t = await setUpEngine();
  proxy = await startLegacyStoreProxy(s3.endpoint, s3, s3.region);
  // A store like any other: only its listing is held, below.
  proxy.legacy = false;
});
afterEach(async () => {
  await proxy.close();
  await t.close();
});

it('a target renamed while the job lists: every object, in subfolders too, lands in the folder it opened, where it was moved', async () => {
  for (const key of ['top.txt', 'sub/one.txt', 'sub/deeper/two.txt']) {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: `content of ${key}` }));
  }
  const target = path.join(t.dir, 'target');
  const moved = path.join(t.dir, 'moved');
  await mkdir(target);
  // The listing is held until the target has been moved: the job has opened it by then.
  let listed!: () => void;
  const moving = new Promise<void>((resolve) => { listed = resolve; });
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  proxy.refuse = async (request) => {
    if (request.url.includes('list-type=2')) {
      listed();
      await released;
    }
    return undefined;
  };
  const through = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
  const job = t.engine.download(through, { bucket: t.bucket, prefixes: [''], targetFolder: target });
  await moving;
  await rename(target, moved);
  release();
  const end = await job.finished();
  // Today: top.txt lands in moved/; sub/one.txt and sub/deeper/two.txt fail with UnsafePath ("which a
  // symbolic link leads outside .../target (into .../moved/sub)"), and moved/sub is made empty.
  expect(end.itemErrors).toEqual([]);
  expect(end.state.status).toBe('completed');
  expect(await filesUnder(moved)).toEqual(['sub/deeper/two.txt', 'sub/one.txt', 'top.txt']);
  expect(await readFile(path.join(moved, 'sub', 'one.txt'), 'utf8')).toBe('content of sub/one.txt');
  expect(await filesUnder(target)).toEqual([]);
});
