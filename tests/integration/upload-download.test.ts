import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import { randomFile, setUpEngine, sha256File } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 8, partSizeBytes: 5 * MIB } });
});
afterEach(() => t.close());

describe('upload and download round trip', () => {
  it.each([
    ['empty', 0],
    ['one byte', 1],
    ['exactly 5 MiB (one part)', 5 * MIB],
    ['5 MiB + 1 byte (two parts)', 5 * MIB + 1],
    ['odd size over several parts', 17 * MIB + 12_345],
  ])('%s file keeps every byte', async (_label, size) => {
    const source = await randomFile(t.dir, 'src/data.bin', size);
    const up = await t.engine
      .upload(t.connection, { sources: [source.path], bucket: t.bucket, destination: 'blobs/data.bin' })
      .finished();
    expect(up.state).toEqual({ status: 'completed' });
    expect(up.progress.bytesDone).toBe(size);

    const head = await t.connection.client.send(new HeadObjectCommand({ Bucket: t.bucket, Key: 'blobs/data.bin' }));
    expect(head.ContentLength).toBe(size);
    // Multipart objects carry an ETag of the form "<md5>-<parts>".
    expect(head.ETag?.includes('-')).toBe(size > 5 * MIB);

    const target = path.join(t.dir, 'out', 'copy.bin');
    const down = await t.engine
      .download(t.connection, {
        bucket: t.bucket,
        keys: ['blobs/data.bin'],
        targetFolder: path.dirname(target),
        targetFile: target,
      })
      .finished();
    expect(down.state).toEqual({ status: 'completed' });
    expect(await sha256File(target)).toBe(source.sha256);
    expect(await readdir(path.dirname(target))).toEqual(['copy.bin']);
  });

  it('uploads a folder recursively with / keys, content types and the folder name kept', async () => {
    await randomFile(t.dir, 'site/index.html', 100);
    await randomFile(t.dir, 'site/css/main.css', 200);
    await randomFile(t.dir, 'site/img/deep/logo.png', 300);
    await writeFile(path.join(t.dir, 'site', 'empty.txt'), '');
    const job = await t.engine
      .upload(t.connection, { sources: [path.join(t.dir, 'site')], bucket: t.bucket, destination: 'www/' })
      .finished();
    expect(job.state.status).toBe('completed');
    expect(job.progress).toMatchObject({ objectsDone: 4, objectsTotal: 4, bytesTotal: 600, totalsKnown: true });

    const keys: string[] = [];
    for await (const o of listAllObjects(t.connection, { bucket: t.bucket })) keys.push(o.key);
    expect(keys.sort()).toEqual([
      'www/site/css/main.css',
      'www/site/empty.txt',
      'www/site/img/deep/logo.png',
      'www/site/index.html',
    ]);
    const css = await t.connection.client.send(
      new HeadObjectCommand({ Bucket: t.bucket, Key: 'www/site/css/main.css' }),
    );
    expect(css.ContentType).toBe('text/css');
    const html = await t.connection.client.send(new GetObjectCommand({ Bucket: t.bucket, Key: 'www/site/index.html' }));
    expect(html.ContentType).toBe('text/html');
    expect(Buffer.from(await html.Body!.transformToByteArray())).toEqual(
      await readFile(path.join(t.dir, 'site/index.html')),
    );
  });

  it('downloads a prefix and recreates its folders, keeping the folder name', async () => {
    await randomFile(t.dir, 'tree/a.txt', 10);
    await randomFile(t.dir, 'tree/sub/b.txt', 20);
    await randomFile(t.dir, 'tree/sub/deeper/c.bin', 6 * MIB);
    await t.engine
      .upload(t.connection, { sources: [path.join(t.dir, 'tree')], bucket: t.bucket, destination: 'data/' })
      .finished();

    const out = path.join(t.dir, 'download');
    const job = await t.engine
      .download(t.connection, { bucket: t.bucket, prefixes: ['data/tree'], targetFolder: out })
      .finished();
    expect(job.state.status).toBe('completed');
    expect(job.progress.objectsDone).toBe(3);
    for (const rel of ['a.txt', 'sub/b.txt', 'sub/deeper/c.bin']) {
      expect(await sha256File(path.join(out, 'tree', rel))).toBe(await sha256File(path.join(t.dir, 'tree', rel)));
    }
    expect((await stat(path.join(out, 'tree', 'sub', 'deeper', 'c.bin'))).size).toBe(6 * MIB);
  });
});
