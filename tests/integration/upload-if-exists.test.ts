// Uploads that ask before they replace: each answer on a real store, the question with both sides
// and what replacing does in a versioned bucket, the CLI's --if-exists, what the check costs in
// requests (one listing, no HEAD per file; nothing at all when replacing), and the races: an object
// that appears between the check and the write is not replaced where the store takes conditional
// writes.

import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  GetObjectCommand,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, inject, it, onTestFinished } from 'vitest';
import { MIB } from '../../src/byte-units.ts';
import type { Job } from '../../main/engine/jobs/job.ts';
import { listAllObjects, listMultipartUploads } from '../../main/engine/s3/s3-listing.ts';
import { randomFile, serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { startLegacyStoreProxy } from '../support/legacy-store-proxy.ts';
import { runCli } from '../support/run-cli.ts';

/** The object the story begins with: a README of 257 bytes in the bucket, where a 34-byte one is dropped. */
const STORED = 'x'.repeat(257);
const MINE = 'the local README, 34 bytes long.\n!';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 8, partSizeBytes: 5 * MIB } });
});
afterEach(() => t.close());

async function put(key: string, body: string | Buffer, bucket = t.bucket): Promise<void> {
  await t.connection.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

async function read(key: string, bucket = t.bucket): Promise<string> {
  const answer = await t.connection.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return answer.Body!.transformToString();
}

async function keys(prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const object of listAllObjects(t.connection, { bucket: t.bucket, prefix })) found.push(object.key);
  return found.sort();
}

/** A folder "drop" with README.txt (34 B, modified `modified`) and new.txt, to upload onto "docs/". */
async function dropFolder(modified = new Date(Date.now() - 3600_000)): Promise<string> {
  const folder = path.join(t.dir, 'drop');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'README.txt'), MINE);
  await writeFile(path.join(folder, 'new.txt'), 'new');
  await utimes(path.join(folder, 'README.txt'), modified, modified);
  return folder;
}

function upload(
  sources: string[],
  ifExists?: 'ask' | 'overwrite' | 'skip' | 'rename' | 'newer' | 'fail',
  destination = 'docs/',
  connection = t.connection,
): Job {
  return t.engine.upload(connection, { sources, bucket: t.bucket, destination, ...(ifExists ? { ifExists } : {}) });
}

/** Every file of the drop, one source each: how the window uploads files picked or dropped one by one. */
async function readmeInDocs(): Promise<string> {
  await put('docs/README.txt', STORED);
  const folder = await dropFolder();
  return path.join(folder, 'README.txt');
}

describe('an upload onto an object already there', () => {
  it('replaces it by default, as cp and aws s3 cp do', async () => {
    const readme = await readmeInDocs();
    const end = await upload([readme]).finished();
    expect(end.state.status).toBe('completed');
    expect(await read('docs/README.txt')).toBe(MINE);
  });

  it('skip keeps the object and says so; the other files go', async () => {
    await put('drop/README.txt', STORED);
    const folder = await dropFolder();
    const end = await upload([folder], 'skip', '').finished();
    expect(end.state.status).toBe('completed');
    expect(await read('drop/README.txt')).toBe(STORED);
    expect(await read('drop/new.txt')).toBe('new');
    expect(end.progress).toMatchObject({ objectsDone: 2, objectsKept: 1, objectsFailed: 0 });
    expect(end.itemWarnings).toEqual([
      {
        item: `s3://${t.bucket}/drop/README.txt`,
        code: 'Exists',
        message: `s3://${t.bucket}/drop/README.txt is already there: it was kept, as asked; ${path.join(folder, 'README.txt')} was not uploaded.`,
      },
    ]);
  });

  it('keep both uploads beside it as "name (1).ext", then "(2)"', async () => {
    const readme = await readmeInDocs();
    expect((await upload([readme], 'rename').finished()).state.status).toBe('completed');
    expect((await upload([readme], 'rename').finished()).state.status).toBe('completed');
    expect(await keys('docs/')).toEqual(['docs/README (1).txt', 'docs/README (2).txt', 'docs/README.txt']);
    expect(await read('docs/README.txt')).toBe(STORED);
    expect(await read('docs/README (1).txt')).toBe(MINE);
    // The job's details name the key it went to.
    const job = upload([readme], 'rename');
    await job.finished();
    expect([...job.allItems('all')].map((item) => item.destination)).toEqual([`s3://${t.bucket}/docs/README (3).txt`]);
  });

  it('replace only if newer: an older file keeps the object, a newer one replaces it', async () => {
    await put('docs/README.txt', STORED);
    const old = await dropFolder(new Date(Date.now() - 3600_000));
    const kept = await upload([path.join(old, 'README.txt')], 'newer').finished();
    expect(kept.progress).toMatchObject({ objectsKept: 1 });
    expect(kept.itemWarnings![0]!.message).toContain('is already there: it is as new as');
    expect(await read('docs/README.txt')).toBe(STORED);
    const newer = await dropFolder(new Date(Date.now() + 3600_000));
    expect((await upload([path.join(newer, 'README.txt')], 'newer').finished()).progress).toMatchObject({
      objectsKept: 0,
      objectsDone: 1,
    });
    expect(await read('docs/README.txt')).toBe(MINE);
  });

  it('fail fails that file, by name, and sends the others', async () => {
    await put('drop/README.txt', STORED);
    const folder = await dropFolder();
    const end = await upload([folder], 'fail', '').finished();
    expect(end.state.status).toBe('failed');
    expect(end.itemErrors).toEqual([
      expect.objectContaining({
        code: 'ObjectExists',
        message: expect.stringContaining(
          `s3://${t.bucket}/drop/README.txt is already there; ${path.join(folder, 'README.txt')} was not uploaded over it.`,
        ),
      }),
    ]);
    expect(await read('drop/README.txt')).toBe(STORED);
    expect(await read('drop/new.txt')).toBe('new');
  });

  it('ask waits with both sides (sizes, dates) and that the bucket keeps no versions; each answer does what it says', async () => {
    const readme = await readmeInDocs();
    const job = upload([readme], 'ask');
    await expect.poll(() => job.summary().conflicts?.length ?? 0).toBe(1);
    const question = job.summary().conflicts![0]!;
    expect(question).toMatchObject({
      path: `s3://${t.bucket}/docs/README.txt`,
      existing: { size: 257, modifiedAt: expect.any(Number) },
      incoming: { size: 34, modifiedAt: expect.any(Number) },
      versioning: 'off',
    });
    expect(question.incoming!.modifiedAt).toBeLessThan(question.existing!.modifiedAt!);
    expect(job.resolveConflict(question.id, 'skip', false)).toBe(true);
    expect((await job.finished()).progress).toMatchObject({ objectsKept: 1 });
    expect(await read('docs/README.txt')).toBe(STORED);

    const again = upload([readme], 'ask');
    await expect.poll(() => again.summary().conflicts?.length ?? 0).toBe(1);
    again.resolveConflict(again.summary().conflicts![0]!.id, 'overwrite', false);
    expect((await again.finished()).state.status).toBe('completed');
    expect(await read('docs/README.txt')).toBe(MINE);
  });

  it('in a versioned bucket the question says so, and replacing keeps the old object as a version', async () => {
    await t.connection.client.send(
      new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    const readme = await readmeInDocs();
    const job = upload([readme], 'ask');
    await expect.poll(() => job.summary().conflicts?.length ?? 0).toBe(1);
    const question = job.summary().conflicts![0]!;
    expect(question.versioning).toBe('enabled');
    job.resolveConflict(question.id, 'overwrite', false);
    await job.finished();
    const versions = await t.connection.client.send(
      new ListObjectVersionsCommand({ Bucket: t.bucket, Prefix: 'docs/README.txt' }),
    );
    expect(versions.Versions?.map((version) => version.Size).sort((a, b) => a! - b!)).toEqual([34, 257]);
  });

  it('"do the same for every file" answers the questions waiting and those to come', async () => {
    const folder = path.join(t.dir, 'many');
    await mkdir(folder);
    for (let i = 0; i < 30; i++) {
      await writeFile(path.join(folder, `f${i}.txt`), 'mine');
      await put(`many/f${i}.txt`, 'stored');
    }
    const job = upload([folder], 'ask', '');
    await expect.poll(() => job.summary().conflicts?.length ?? 0).toBeGreaterThan(0);
    job.resolveConflict(job.summary().conflicts![0]!.id, 'rename', true);
    const end = await job.finished();
    expect(end.state.status).toBe('completed');
    expect((await keys('many/')).filter((key) => key.includes(' (1)'))).toHaveLength(30);
  });
});

describe('what the check costs', () => {
  it('a folder onto a prefix that holds some of its files: one listing, no HEAD per file; replacing lists nothing', async () => {
    const proxy = await startFaultProxy(serverConfig().endpoint!);
    onTestFinished(() => proxy.close());
    const counted = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    const folder = path.join(t.dir, 'photos');
    await mkdir(folder);
    for (let i = 0; i < 200; i++)
      await writeFile(path.join(folder, `p${String(i).padStart(3, '0')}.jpg`), `photo ${i}`);
    for (let i = 0; i < 200; i += 2) await put(`photos/p${String(i).padStart(3, '0')}.jpg`, 'stored');

    const requests = (method: string) => proxy.seen.filter((request) => request.method === method);
    const listings = () =>
      proxy.seen.filter((request) => request.method === 'GET' && request.url.includes('list-type=2'));
    const end = await upload([folder], 'skip', '', counted).finished();
    expect(end.progress).toMatchObject({ objectsDone: 200, objectsKept: 100 });
    expect(requests('HEAD')).toEqual([]);
    expect(listings()).toHaveLength(1);
    expect(requests('PUT')).toHaveLength(100);

    proxy.seen.length = 0;
    expect((await upload([folder], undefined, '', counted).finished()).state.status).toBe('completed');
    expect(requests('HEAD')).toEqual([]);
    expect(listings()).toEqual([]);
    expect(requests('PUT')).toHaveLength(200);
  });

  it("many files dropped one by one into a big folder: the folder's level is listed once, not a HEAD each", async () => {
    const proxy = await startFaultProxy(serverConfig().endpoint!);
    onTestFinished(() => proxy.close());
    const counted = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    // A folder below the destination that no source goes into: not listed.
    for (let i = 0; i < 30; i++) await put(`in/elsewhere/${i}.txt`, 'x');
    const files: string[] = [];
    for (let i = 0; i < 40; i++) {
      files.push((await randomFile(t.dir, `one-by-one/f${i}.txt`, 10)).path);
      if (i % 4 === 0) await put(`in/f${i}.txt`, 'stored');
    }
    const end = await upload(files, 'skip', 'in/', counted).finished();
    expect(end.progress).toMatchObject({ objectsDone: 40, objectsKept: 10 });
    const listings = proxy.seen.filter((request) => request.method === 'GET' && request.url.includes('list-type=2'));
    expect(listings).toHaveLength(1);
    expect(listings[0]!.url).toContain('delimiter=%2F');
    expect(proxy.seen.filter((request) => request.method === 'HEAD')).toEqual([]);
  });

  it("the listing is one of the job's requests: with Threads at 1, never two requests in flight", async () => {
    const proxy = await startFaultProxy(serverConfig().endpoint!);
    onTestFinished(() => proxy.close());
    const counted = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    // A listing of two pages, the drop's keys in the first: its files are decided and sent while the
    // second would be asked (slowly), unless the listing waits its turn as the job's requests do.
    const seed = path.join(t.dir, 'seed', 'drop');
    await mkdir(seed, { recursive: true });
    for (let i = 0; i < 1100; i++) await writeFile(path.join(seed, `zz-${i}`), '');
    expect(
      (await t.engine.upload(t.connection, { sources: [seed], bucket: t.bucket, destination: '' }).finished()).state
        .status,
    ).toBe('completed');
    await put('drop/README.txt', STORED);
    const folder = await dropFolder();
    proxy.setRule((request) => (request.url?.includes('continuation-token=') ? { kind: 'delay', ms: 300 } : undefined));
    t.engine.updateSettings({ threads: 1 });
    expect((await upload([folder], 'skip', '', counted).finished()).progress).toMatchObject({
      objectsDone: 2,
      objectsKept: 1,
    });
    expect(proxy.inFlight.peak).toBe(1);
  });

  it('where the listing is refused (no s3:ListBucket), each file is asked by HEAD instead', async () => {
    const proxy = await startFaultProxy(serverConfig().endpoint!);
    onTestFinished(() => proxy.close());
    proxy.setRule((request) =>
      request.method === 'GET' && request.url?.includes('list-type=2')
        ? { kind: 'refuse', status: 403, code: 'AccessDenied' }
        : undefined,
    );
    const counted = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    await put('drop/README.txt', STORED);
    const folder = await dropFolder();
    const end = await upload([folder], 'skip', '', counted).finished();
    expect(end.progress).toMatchObject({ objectsDone: 2, objectsKept: 1 });
    expect(await read('drop/README.txt')).toBe(STORED);
    expect(proxy.seen.filter((request) => request.method === 'HEAD')).toHaveLength(2);
  });
});

describe('races', () => {
  it('an object that appears between the listing and the PUT is not replaced: the store refuses the write (412) and the answer is applied to it', async () => {
    const proxy = await startFaultProxy(serverConfig().endpoint!);
    onTestFinished(() => proxy.close());
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    proxy.setRule((request) =>
      request.method === 'PUT' && request.url?.includes('/late.txt') ? { kind: 'hold', until: held } : undefined,
    );
    const counted = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    const file = (await randomFile(t.dir, 'late.txt', 100)).path;
    const job = upload([file], 'skip', 'docs/', counted);
    await expect.poll(() => proxy.seen.some((request) => request.method === 'PUT')).toBe(true);
    await put('docs/late.txt', 'another writer');
    release();
    const end = await job.finished();
    expect(end.progress).toMatchObject({ objectsKept: 1 });
    expect(await read('docs/late.txt')).toBe('another writer');
    expect(proxy.seen.find((request) => request.method === 'PUT')!.status).toBe(412);
  });

  it('the same for a multipart upload: its completion is refused, the upload aborted, and keep both puts the file beside it', async () => {
    const proxy = await startFaultProxy(serverConfig().endpoint!);
    onTestFinished(() => proxy.close());
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    proxy.setRule((request) =>
      request.method === 'POST' && request.url?.includes('uploadId=') && request.url.includes('/big.bin')
        ? { kind: 'hold', until: held }
        : undefined,
    );
    const counted = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    const file = await randomFile(t.dir, 'big.bin', 6 * MIB);
    const job = upload([file.path], 'rename', 'docs/', counted);
    await expect
      .poll(() => proxy.seen.some((request) => request.method === 'POST' && request.url.includes('uploadId=')))
      .toBe(true);
    await put('docs/big.bin', 'another writer');
    release();
    proxy.setRule(() => undefined);
    const end = await job.finished();
    expect(end.state.status).toBe('completed');
    expect(await read('docs/big.bin')).toBe('another writer');
    expect(await keys('docs/')).toEqual(['docs/big (1).bin', 'docs/big.bin']);
    const unfinished = [];
    for await (const left of listMultipartUploads(t.connection, t.bucket)) unfinished.push(left);
    expect(unfinished).toEqual([]);
  });

  it('a conditional PUT whose answer was lost, sent again, finds its own object and is done (not kept, not numbered)', async () => {
    const proxy = await startFaultProxy(serverConfig().endpoint!);
    onTestFinished(() => proxy.close());
    let lost = 0;
    proxy.setRule((request) => (request.method === 'PUT' && lost++ === 0 ? { kind: 'lose-answer' } : undefined));
    const counted = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    const file = (await randomFile(t.dir, 'once.txt', 1000)).path;
    const end = await upload([file], 'rename', 'docs/', counted).finished();
    expect(end.state.status).toBe('completed');
    expect(end.progress).toMatchObject({ objectsDone: 1, objectsKept: 0, retries: 1 });
    expect(await keys('docs/')).toEqual(['docs/once.txt']);
    expect(await readFile(file, 'utf8')).toBe(await read('docs/once.txt'));
  });

  it('a store that refuses conditional writes (501 naming If-None-Match) gets the upload without them, and is not asked again', async () => {
    const s3 = inject('s3');
    const proxy = await startLegacyStoreProxy(s3.endpoint, s3, s3.region);
    onTestFinished(() => proxy.close());
    proxy.legacy = false;
    proxy.refuse = (_request, headers) =>
      headers['if-none-match']
        ? {
            status: 501,
            code: 'NotImplemented',
            message: 'A header you provided implies functionality that is not implemented',
            header: 'If-None-Match',
          }
        : undefined;
    const counted = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    const folder = await dropFolder();
    expect((await upload([folder], 'skip', '', counted).finished()).state.status).toBe('completed');
    expect(await read('drop/new.txt')).toBe('new');
    expect(proxy.seen.filter((request) => request.refused === 'NotImplemented').length).toBeGreaterThan(0);
    // The store's checksum headers still go: the refusal was of the condition only.
    expect(
      proxy.seen
        .filter((request) => request.method === 'PUT' && !request.refused)
        .every((request) => request.checksumHeaders.length > 0 || request.contentMd5),
    ).toBe(true);
    proxy.seen.length = 0;
    await writeFile(path.join(folder, 'later.txt'), 'later');
    expect((await upload([path.join(folder, 'later.txt')], 'skip', 'drop/', counted).finished()).state.status).toBe(
      'completed',
    );
    expect(proxy.seen.filter((request) => request.refused)).toEqual([]);
  });
});

describe('barge cp', () => {
  it('replaces by default; --if-exists skip, rename, newer and fail do for uploads what they do for downloads', async () => {
    await put('docs/README.txt', STORED);
    const folder = await dropFolder();
    const readme = path.join(folder, 'README.txt');
    const send = (...flags: string[]) => runCli(['cp', readme, `s3://${t.bucket}/docs/`, ...flags]);

    const skipped = await send('--if-exists', 'skip');
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain(
      `warning: s3://${t.bucket}/docs/README.txt is already there: it was kept, as asked; ${readme} was not uploaded.`,
    );
    expect(skipped.stderr).toMatch(/Uploaded 0 of 1 object in [\d.]+s; 1 object already there was kept/);
    expect(await read('docs/README.txt')).toBe(STORED);

    const failed = await send('--if-exists', 'fail');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `s3://${t.bucket}/docs/README.txt is already there; ${readme} was not uploaded over it.`,
    );

    const receipt = path.join(t.dir, 'receipt.csv');
    expect((await send('--if-exists', 'rename', '--receipt', receipt)).code).toBe(0);
    expect(await read('docs/README (1).txt')).toBe(MINE);
    expect((await readFile(receipt, 'utf8')).split('\n')[1]).toMatch(/^docs\/README \(1\)\.txt,/);

    expect((await send('--if-exists', 'newer')).code).toBe(0);
    expect(await read('docs/README.txt')).toBe(STORED);

    expect((await send()).code).toBe(0);
    expect(await read('docs/README.txt')).toBe(MINE);
  });
});
