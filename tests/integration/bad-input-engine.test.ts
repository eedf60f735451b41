// Bad input, continued: cases whose right answer needed engine changes (two keys for one file, an
// object lock refusing a delete, TLS failures failing the job at once, a file changed during a
// single-request upload, a folder past the longest path the system names, a listing with a key whose
// URL encoding is broken, a store that states sizes that are no sizes, or 0 bytes for an object that
// has some). Like the main suite, every case checks what a person is told and that nothing partial
// is left behind.

import { execFile } from 'node:child_process';
import { appendFile, mkdir, readdir, readFile, readlink, realpath, symlink } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateBucketCommand, PutObjectCommand, PutObjectLegalHoldCommand } from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { randomFile, serverConfig, setUpEngine, sha256File, uniqueBucket } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { toBargeError } from '../../main/engine/errors.ts';
import {
  bucketContents,
  filesUnder,
  isRoot,
  mountTmpfs,
  rewritingProxy,
  selfSignedTlsServer,
} from '../support/bad-input-kit.ts';
import type { Answer } from '../support/bad-input-kit.ts';

let t: TestContext;
let cleanups: (() => Promise<unknown> | void)[] = [];
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 4 } });
  cleanups = [];
});
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await t.close();
});

const put = (key: string, body: string) =>
  t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: key, Body: body }));

describe('two keys for one file', () => {
  // This machine has no case-insensitive file system (Linux without CONFIG_UNICODE); the folder is
  // declared one, as for a folder bound for Windows or macOS (barge cp --case-insensitive). The
  // probe that decides it by itself is tested in bad-input.test.ts (local folders).
  it('refuses two keys that differ only in case where case is ignored, and keeps the first intact', async () => {
    await put('p/Photo.jpg', 'upper');
    await put('p/photo.jpg', 'lower');
    const out = path.join(t.dir, 'out');
    const end = await t.engine
      .download(t.connection, { bucket: t.bucket, prefixes: ['p/'], targetFolder: out, caseInsensitive: true })
      .finished();
    expect(end.itemErrors).toEqual([
      {
        item: `s3://${t.bucket}/p/photo.jpg`,
        code: 'NameCollision',
        rerun: 'fails-again',
        message:
          `The key "p/photo.jpg" would overwrite ${path.join(out, 'p', 'Photo.jpg')}, where "p/Photo.jpg" is saved, as its name ${path.join(out, 'p', 'photo.jpg')} ` +
          'differs only in case and this folder does not tell upper and lower case apart: download them into separate folders; it was not downloaded.',
      },
    ]);
    expect(await readFile(path.join(out, 'p', 'Photo.jpg'), 'utf8')).toBe('upper');
    expect(await filesUnder(out)).toEqual(['p/Photo.jpg']);
  });

  it('refuses the second of two keys saved under one name, and keeps the first intact', async () => {
    await put('a/x.txt', 'from a');
    await put('b/x.txt', 'from b');
    const out = path.join(t.dir, 'out');
    const end = await t.engine
      .download(t.connection, { bucket: t.bucket, keys: ['a/x.txt', 'b/x.txt'], targetFolder: out })
      .finished();
    expect(end.state.status).toBe('failed');
    expect(end.progress.objectsDone).toBe(1);
    expect(end.itemErrors).toEqual([
      {
        item: `s3://${t.bucket}/b/x.txt`,
        code: 'NameCollision',
        rerun: 'fails-again',
        message: `The key "b/x.txt" would overwrite ${path.join(out, 'x.txt')}, where "a/x.txt" is saved: download them into separate folders; it was not downloaded.`,
      },
    ]);
    expect(await readFile(path.join(out, 'x.txt'), 'utf8')).toBe('from a');
    expect(await filesUnder(out)).toEqual(['x.txt']);
  });

  it('refuses a file two prefixes of the same folder name would both write', async () => {
    await put('x/photos/p.jpg', 'from x');
    await put('y/photos/p.jpg', 'from y');
    const out = path.join(t.dir, 'out');
    const end = await t.engine
      .download(t.connection, { bucket: t.bucket, prefixes: ['x/photos/', 'y/photos/'], targetFolder: out })
      .finished();
    expect(end.itemErrors).toEqual([
      {
        item: `s3://${t.bucket}/y/photos/p.jpg`,
        code: 'NameCollision',
        rerun: 'fails-again',
        message: `The key "y/photos/p.jpg" would overwrite ${path.join(out, 'photos', 'p.jpg')}, where "x/photos/p.jpg" is saved: download them into separate folders; it was not downloaded.`,
      },
    ]);
    expect(await readFile(path.join(out, 'photos', 'p.jpg'), 'utf8')).toBe('from x');
    expect(await filesUnder(out)).toEqual(['photos/p.jpg']);
  });

  it.runIf(isRoot)(
    'a new folder on a read-only disk fails as read-only (not "no such file"), for the whole job',
    async () => {
      await put('a.txt', 'x');
      await put('b.txt', 'y');
      const mount = await mountTmpfs({ sizeBytes: MIB, readOnly: true });
      cleanups.push(() => mount.unmount());
      const out = path.join(mount.dir, 'new', 'deeper');
      const end = await t.engine
        .download(t.connection, { bucket: t.bucket, keys: ['a.txt', 'b.txt'], targetFolder: out })
        .finished();
      // The target cannot be made: the job stops before any object, saying where and why.
      expect(end.state).toEqual({
        status: 'failed',
        error: {
          code: 'EROFS',
          message: `Cannot download into ${out}: The file system is read-only (${path.join(mount.dir, 'new')}). Choose a folder you can write to.`,
        },
        whole: true,
      });
      expect(await filesUnder(mount.dir)).toEqual([]);
    },
  );
});

describe('a folder past the longest path the system names (4,095 bytes)', () => {
  /** A target deep down (as a share mounted deep in a tree can be): some 3,300 bytes from /. */
  async function deepTarget(): Promise<string> {
    let target = t.dir;
    while (target.length < 3300) target = path.join(target, 'f'.repeat(250));
    await mkdir(target, { recursive: true });
    // Node's rm goes by whole paths, which past 4,095 bytes the system refuses; rm(1) walks the tree.
    cleanups.push(() => promisify(execFile)('rm', ['-rf', path.join(t.dir, 'f'.repeat(250))]));
    return target;
  }
  /** This process's descriptors of folders below the test's folder, or of folders past the longest path. */
  async function heldOpen(): Promise<string[]> {
    const held = [];
    for (const fd of await readdir('/proc/self/fd')) {
      const where = await readlink(`/proc/self/fd/${fd}`).catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENAMETOOLONG' ? 'a path past 4,095 bytes' : undefined,
      );
      if (where === 'a path past 4,095 bytes' || where?.startsWith(t.dir)) held.push(where);
    }
    return held;
  }

  it('a key whose folders go past it (809 bytes below a deep target): it fails naming its folder, nothing is made for it, no folder is held open', async () => {
    const target = await deepTarget();
    const folders = ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(200));
    const key = `${folders.join('/')}/f.txt`;
    await put(key, 'deep');
    await put('near.txt', 'near');
    const end = await t.engine
      .download(t.connection, { bucket: t.bucket, prefixes: [''], targetFolder: target })
      .finished();
    const shown = path.join(target, ...folders);
    const bytes = Buffer.byteLength(path.join(await realpath(target), ...folders)).toLocaleString('en-US');
    expect(end.itemErrors).toEqual([
      {
        item: `s3://${t.bucket}/${key}`,
        code: 'ENAMETOOLONG',
        message: `The folder ${shown.slice(0, 80)}…${shown.slice(-119)} would be ${bytes} bytes from /, past the longest path this system names (4,095 bytes): s3://${t.bucket}/${key} was not downloaded, and no folder was made for it. Choose a target folder with a shorter path.`,
      },
    ]);
    expect(await readFile(path.join(target, 'near.txt'), 'utf8')).toBe('near');
    expect(await readdir(target)).toEqual(['near.txt']);
    expect(await heldOpen()).toEqual([]);
  });

  it('a link in the target to a folder past it: the object fails naming the link, not /proc/self/fd, and no folder is held open', async () => {
    const target = await deepTarget();
    // Made below the target by relative paths (mkdir(1) from there), each name short enough.
    const deep = ['w', 'x', 'y', 'z'].map((letter) => letter.repeat(250)).join('/');
    await promisify(execFile)('mkdir', ['-p', deep], { cwd: target });
    await symlink(deep, path.join(target, 'link'));
    await put('link/f.txt', 'deep');
    const end = await t.engine
      .download(t.connection, { bucket: t.bucket, prefixes: [''], targetFolder: target })
      .finished();
    expect(end.itemErrors).toEqual([
      expect.objectContaining({ item: `s3://${t.bucket}/link/f.txt`, code: 'ENAMETOOLONG' }),
    ]);
    expect(end.itemErrors[0]!.message).toContain(`The name is too long for the file system (${target.slice(0, 80)}…`);
    expect(end.itemErrors[0]!.message).not.toContain('/proc/self/fd');
    expect(await heldOpen()).toEqual([]);
  });
});

describe('a listing with one key whose URL encoding is broken ("%zz")', () => {
  /** The test server behind a proxy whose listings give bad-key.txt as "bad%zz.txt": no request can name that. */
  async function mangling() {
    await put('good.txt', 'good');
    await put('bad-key.txt', 'bad');
    const store = await rewritingProxy((request, answer) =>
      request.url?.includes('list-type=2') || request.url?.includes('versions')
        ? {
            ...answer,
            body: Buffer.from(answer.body.toString().replace('<Key>bad-key.txt</Key>', '<Key>bad%zz.txt</Key>')),
          }
        : answer,
    );
    cleanups.push(() => store.close());
    return t.engine.connect({ ...serverConfig(), endpoint: store.endpoint });
  }
  const refused = (what: string) => ({
    item: `s3://${t.bucket}/bad%zz.txt`,
    code: 'UnreadableKey',
    rerun: 'fails-again',
    message: `The store listed a key of s3://${t.bucket} whose URL encoding is broken ("bad%zz.txt", as it sent it): what the key is cannot be known, so it was not ${what}. The store is faulty: tell its operator.`,
  });

  it('a page of the listing leaves it out of the keys and names it; the rest is listed', async () => {
    const connection = await mangling();
    const page = await t.engine.listObjects(connection, { bucket: t.bucket, prefix: '', delimiter: '/' });
    expect(page.objects.map((object) => object.key)).toEqual(['good.txt']);
    expect(page.unreadable).toEqual(['bad%zz.txt']);
  });

  it('a download saves the other keys and fails that one by name', async () => {
    const connection = await mangling();
    const out = path.join(t.dir, 'out');
    const end = await t.engine.download(connection, { bucket: t.bucket, prefixes: [''], targetFolder: out }).finished();
    expect(end.itemErrors).toEqual([refused('downloaded')]);
    expect(end.progress.objectsDone).toBe(1);
    expect(await filesUnder(out)).toEqual(['good.txt']);
  });

  it.each([false, true])(
    'a delete (every version: %s) deletes the other keys and fails that one by name',
    async (allVersions) => {
      const connection = await mangling();
      const end = await t.engine.delete(connection, { bucket: t.bucket, prefixes: [''], allVersions }).finished();
      // Every version is named by its version ID too.
      expect(end.itemErrors).toEqual([
        {
          ...refused('deleted'),
          item: allVersions ? expect.stringMatching(/\/bad%zz\.txt \(version .+\)$/) : `s3://${t.bucket}/bad%zz.txt`,
        },
      ]);
      expect((await bucketContents(t.connection, t.bucket)).versions.map((version) => version.split(' ')[0])).toEqual([
        'bad-key.txt',
      ]);
    },
  );

  it.each([
    ['a wildcard', { patterns: ['*od.txt'] }],
    ['an --exclude', { prefixes: [''], filter: { exclude: ['bad*'] } }],
  ] as const)(
    'a delete whose filter (%s) leaves that key out deletes the rest, and that key does not matter',
    async (_, what) => {
      const connection = await mangling();
      for (const dryRun of [true, false]) {
        const end = await t.engine.delete(connection, { bucket: t.bucket, ...what, dryRun }).finished();
        expect(end.itemErrors).toEqual([]);
        expect(end.state.status).toBe('completed');
        expect(end.progress.objectsDone).toBe(1);
      }
      expect((await bucketContents(t.connection, t.bucket)).versions.map((version) => version.split(' ')[0])).toEqual([
        'bad-key.txt',
      ]);
    },
  );

  it('a delete whose wildcard keeps that key (as sent) still fails it by name', async () => {
    const connection = await mangling();
    const end = await t.engine.delete(connection, { bucket: t.bucket, patterns: ['*.txt'] }).finished();
    expect(end.itemErrors).toEqual([refused('deleted')]);
  });

  it('a download whose wildcard leaves that key out saves the rest and does not fail', async () => {
    const connection = await mangling();
    const out = path.join(t.dir, 'out');
    const end = await t.engine
      .download(connection, { bucket: t.bucket, patterns: ['*od.txt'], targetFolder: out })
      .finished();
    expect(end.itemErrors).toEqual([]);
    expect(await filesUnder(out)).toEqual(['good.txt']);
  });
});

describe('an object lock refusing a delete', () => {
  it('says the object is locked and what to do, and deletes nothing', async () => {
    const locked = uniqueBucket();
    await t.connection.client.send(new CreateBucketCommand({ Bucket: locked, ObjectLockEnabledForBucket: true }));
    const { VersionId } = await t.connection.client.send(
      new PutObjectCommand({ Bucket: locked, Key: 'held.txt', Body: 'keep me' }),
    );
    await t.connection.client.send(
      new PutObjectLegalHoldCommand({ Bucket: locked, Key: 'held.txt', LegalHold: { Status: 'ON' } }),
    );
    const before = await bucketContents(t.connection, locked);
    const end = await t.engine
      .delete(t.connection, { bucket: locked, keys: ['held.txt'], allVersions: true })
      .finished();
    expect(end.itemErrors).toEqual([
      {
        item: `s3://${locked}/held.txt (version ${VersionId})`,
        code: 'ObjectLocked',
        message:
          `Cannot delete s3://${locked}/held.txt (version ${VersionId}): The object is protected by object lock (a retention period or a legal hold). ` +
          'Remove the legal hold, or wait until the retention period ends.',
      },
    ]);
    expect(await bucketContents(t.connection, locked)).toEqual(before);
  });
});

describe('a TLS failure fails the job at once', () => {
  for (const [what, endpoint, code] of [
    ['https:// to a plain-HTTP port', async () => serverConfig().endpoint!.replace('http:', 'https:'), 'EPROTO'],
    [
      'a self-signed certificate',
      async () => {
        const server = await selfSignedTlsServer(t.dir);
        cleanups.push(() => server.close());
        return server.endpoint;
      },
      'DEPTH_ZERO_SELF_SIGNED_CERT',
    ],
  ] as const) {
    it(`${what}: stops at the first of many files`, async () => {
      for (let i = 0; i < 40; i++) await randomFile(t.dir, `many/${i}.txt`, 10);
      const broken = await t.engine.connect({ ...serverConfig(), endpoint: await endpoint() });
      const end = await t.engine
        .upload(broken, { sources: [path.join(t.dir, 'many')], bucket: t.bucket, destination: '' })
        .finished();
      expect(end.state.status === 'failed' && end.state.error.code).toBe(code);
      expect(end.progress.objectsFailed).toBeLessThan(40);
      expect(await bucketContents(t.connection, t.bucket)).toEqual({ versions: [], uploads: [] });
    });
  }
});

describe('an endpoint that redirects (a web server, a proxy sending http:// on to https://)', () => {
  it.each([302, 307, 308])(
    'HTTP %i: named Redirect, with where it leads (no query) and what to check; a job stops at once',
    async (status) => {
      const server = http.createServer((_request, response) => {
        response.writeHead(status, { location: 'https://store.example:9443/s3/bucket?X-Amz-Signature=secret' });
        response.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
      const redirecting = await t.engine.connect({
        ...serverConfig(),
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      });
      const said =
        `The endpoint redirects elsewhere (HTTP ${status}, to https://store.example:9443/s3/bucket), and Barge does not follow redirects: ` +
        'check the endpoint URL (http:// or https://, the host and port, and any path the store needs).';
      // Through the SDK (a listing of buckets, a HEAD) and through Barge's own requests (a download's GET, by prefix).
      await expect(
        t.engine.listBuckets(redirecting).catch((error: unknown) => toBargeError(error)),
      ).resolves.toMatchObject({ code: 'Redirect', message: said });
      for (const spec of [{ keys: ['a.txt', 'b.txt'] }, { prefixes: ['p/'] }]) {
        const end = await t.engine
          .download(redirecting, { bucket: t.bucket, ...spec, targetFolder: path.join(t.dir, 'out') })
          .finished();
        expect(end.state).toMatchObject({
          status: 'failed',
          error: { code: 'Redirect', message: expect.stringContaining(said) },
        });
        expect(end.progress.objectsFailed).toBeLessThan(2);
      }
    },
  );
});

describe('a file changed during a single-request upload', () => {
  it('fails with nothing stored, or stores the file exactly as it was listed: never a failure that leaves an object', async () => {
    // Above the 1 MiB read whole, below the part size: one streamed PUT, held 300 ms by a proxy.
    const file = await randomFile(t.dir, 'mid.bin', 6 * MIB);
    const proxy = await startFaultProxy(serverConfig().endpoint!);
    cleanups.push(() => proxy.close());
    proxy.setRule(() => ({ kind: 'delay', ms: 300 }));
    const slow = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
    const job = t.engine.upload(slow, { sources: [file.path], bucket: t.bucket, destination: 'mid.bin' });
    await new Promise<void>((resolve) => {
      const stop = t.engine.onProgress((batch) => {
        if (batch.some((s) => s.id === job.id && s.progress.bytesDone > 0)) {
          stop();
          resolve();
        }
      });
    });
    await appendFile(file.path, 'more');
    const end = await job.finished();
    if (end.state.status === 'failed') {
      expect(end.itemErrors).toEqual([
        {
          item: file.path,
          code: 'FileChanged',
          message: `${file.path} changed while it was being uploaded: nothing was stored; retry when it no longer changes.`,
        },
      ]);
      expect(await bucketContents(t.connection, t.bucket)).toEqual({ versions: [], uploads: [] });
    } else {
      expect(end.state.status).toBe('completed');
      const out = path.join(t.dir, 'out');
      await t.engine.download(t.connection, { bucket: t.bucket, keys: ['mid.bin'], targetFolder: out }).finished();
      expect(await sha256File(path.join(out, 'mid.bin'))).toBe(file.sha256);
    }
  });
});

describe('a store that states sizes that are no sizes', () => {
  /** What a stated size is called in the message. */
  const shown = (lie: string) => (lie === '' ? 'no size' : `"${lie}"`);
  /** The test server behind a proxy that rewrites its answers with `lie`, and a connection through it. */
  async function liar(lie: (request: http.IncomingMessage, answer: Answer) => Answer) {
    const store = await rewritingProxy(lie);
    cleanups.push(() => store.close());
    return t.engine.connect({ ...serverConfig(), endpoint: store.endpoint });
  }
  const DOC = 'x'.repeat(88);

  it.each(['-1', '1.5', 'NaN', '1e20', '9007199254740993', String(6 * 1024 ** 4), ''])(
    'a listing that gives %j for an 88-byte object: it fails by name, with nothing left behind',
    async (lie) => {
      await put('p/doc.txt', DOC);
      const connection = await liar((request, answer) =>
        request.url?.includes('list-type=2')
          ? {
              ...answer,
              body: Buffer.from(answer.body.toString().replace(/<Size>\d+<\/Size>/g, `<Size>${lie}</Size>`)),
            }
          : answer,
      );
      const out = path.join(t.dir, 'out');
      const end = await t.engine
        .download(connection, { bucket: t.bucket, prefixes: ['p/'], targetFolder: out, requireVerified: true })
        .finished();
      expect(end.state.status).toBe('failed');
      expect(end.itemErrors).toEqual([
        {
          item: `s3://${t.bucket}/p/doc.txt`,
          code: 'BadSize',
          message: `The store's listing gives s3://${t.bucket}/p/doc.txt ${shown(lie)} as its size, which no object can have (a whole number of bytes from 0 to 5 TiB); nothing was saved. The store is faulty: tell its operator.`,
        },
      ]);
      expect(await filesUnder(out)).toEqual([]);
    },
  );

  it.each(['9007199254740993', String(6 * 1024 ** 4), '-1', '1.5'])(
    'a HEAD that gives %j: the object fails, with nothing left behind; a save link is refused',
    async (lie) => {
      await put('doc.txt', DOC);
      const connection = await liar((request, answer) =>
        request.method === 'HEAD' ? { ...answer, statedLength: lie } : answer,
      );
      const out = path.join(t.dir, 'out');
      const end = await t.engine
        .download(connection, { bucket: t.bucket, keys: ['doc.txt'], targetFolder: out })
        .finished();
      expect(end.state.status).toBe('failed');
      expect(end.progress.objectsFailed).toBe(1);
      expect(await filesUnder(out)).toEqual([]);
      const opened = t.engine.openObject(connection, t.bucket, 'doc.txt');
      // Digits past 5 TiB reach the engine, which refuses them; others Node's HTTP parser refuses first.
      if (/^\d+$/.test(lie)) {
        // (As the SDK read it: past 2^53 a number is no longer exact.)
        expect(end.itemErrors[0]).toMatchObject({
          code: 'BadSize',
          message: expect.stringContaining(
            `The store's HEAD answer (Content-Length) gives s3://${t.bucket}/doc.txt "${String(Number(lie))}" as its size`,
          ),
        });
        await expect(opened).rejects.toMatchObject({ code: 'BadSize' });
      } else {
        await expect(opened).rejects.toThrow();
      }
    },
  );

  // A size of 0 needs no GET, so a store that states it for an object that has some bytes once had
  // them saved as a "verified" empty file. Its ETag (not d41d8cd98f00b204e9800998ecf8427e, the MD5
  // of no bytes) says otherwise: the object is fetched, and its GET's 88 bytes fail it by name.
  it.each([
    [
      'a listing that gives Size 0',
      'prefix',
      (request: http.IncomingMessage, answer: Answer): Answer =>
        request.url?.includes('list-type=2')
          ? { ...answer, body: Buffer.from(answer.body.toString().replace(/<Size>\d+<\/Size>/g, '<Size>0</Size>')) }
          : answer,
    ],
    [
      'a HEAD that gives Content-Length 0',
      'key',
      (request: http.IncomingMessage, answer: Answer): Answer =>
        request.method === 'HEAD' ? { ...answer, statedLength: '0' } : answer,
    ],
  ] as const)(
    '%s for an 88-byte object whose ETag is the MD5 of its bytes: it fails by name (SizeMismatch), no empty file is saved',
    async (_what, how, lie) => {
      await put('p/doc.txt', DOC);
      const connection = await liar(lie);
      const out = path.join(t.dir, 'out');
      const spec = how === 'prefix' ? { prefixes: ['p/'] } : { keys: ['p/doc.txt'] };
      const end = await t.engine
        .download(connection, { bucket: t.bucket, ...spec, targetFolder: out, requireVerified: true })
        .finished();
      expect(end.state.status).toBe('failed');
      expect(end.itemErrors).toEqual([
        {
          item: `s3://${t.bucket}/p/doc.txt`,
          code: 'SizeMismatch',
          message: `The store sent 88 bytes for s3://${t.bucket}/p/doc.txt, not the 0 it gave before: it changed, or the store is faulty; nothing was saved. Download it again.`,
        },
      ]);
      expect(await filesUnder(out)).toEqual([]);
    },
  );

  it("a GET whose Content-Length is no size, or not the object's: the object fails, with nothing left behind", async () => {
    await put('doc.txt', DOC);
    for (const [stated, code] of [
      ['9007199254740993', 'BadSize'],
      ['99', 'SizeMismatch'],
    ] as const) {
      const connection = await liar((request, answer) =>
        request.method === 'GET' && !request.url?.includes('list-type') ? { ...answer, statedLength: stated } : answer,
      );
      const out = path.join(t.dir, `out-${code}`);
      const end = await t.engine
        .download(connection, { bucket: t.bucket, prefixes: [''], targetFolder: out })
        .finished();
      expect(end.itemErrors, stated).toEqual([expect.objectContaining({ item: `s3://${t.bucket}/doc.txt`, code })]);
      expect(await filesUnder(out)).toEqual([]);
    }
  });

  it('a ranged GET whose body ends early, or runs past its range, on every try: the object fails naming itself, the bytes, the tries and what to do', async () => {
    t.engine.updateSettings({ partSizeBytes: 5 * MIB, maxAttempts: 2 });
    const big = await randomFile(t.dir, 'big.bin', 6 * MIB);
    await t.connection.client.send(
      new PutObjectCommand({ Bucket: t.bucket, Key: 'big.bin', Body: await readFile(big.path) }),
    );
    // 24 bytes of each range, its Content-Range unchanged: an answer that ends as a whole one would.
    const connection = await liar((request, answer) =>
      request.method === 'GET' && typeof answer.headers['content-range'] === 'string'
        ? { ...answer, body: answer.body.subarray(0, 24) }
        : answer,
    );
    const out = path.join(t.dir, 'out');
    const end = await t.engine
      .download(connection, { bucket: t.bucket, keys: ['big.bin'], targetFolder: out })
      .finished();
    expect(end.itemErrors).toEqual([
      {
        item: `s3://${t.bucket}/big.bin`,
        code: 'IncompleteBody',
        message: expect.stringMatching(
          new RegExp(
            `^The store's answers for s3://${t.bucket}/big\\.bin ended early: 48 of the (5,242,880 bytes of its range 0-5,242,879|1,048,576 bytes of its range 5,242,880-6,291,455) came, ` +
              'on all 2 tries \\(each going on from the last byte received\\); nothing was saved\\. Something on the way \\(a proxy, a load balancer, the network\\) cuts answers short, ' +
              'or the store is faulty: download it again, and if it repeats, check the network path and the store\\.$',
          ),
        ),
      },
    ]);
    expect(await readdir(out).catch(() => [])).toEqual([]);
    // Bytes past the range, on every try: said as the store's fault.
    const overrunning = await liar((request, answer) =>
      request.method === 'GET' && typeof answer.headers['content-range'] === 'string'
        ? { ...answer, body: Buffer.concat([answer.body, Buffer.from('x'.repeat(10))]) }
        : answer,
    );
    const over = await t.engine
      .download(overrunning, { bucket: t.bucket, keys: ['big.bin'], targetFolder: out })
      .finished();
    expect(over.itemErrors).toEqual([
      expect.objectContaining({
        code: 'IncompleteBody',
        message: expect.stringMatching(
          new RegExp(
            `^The store sent more than the [0-9,]+ bytes of its range [0-9,]+-[0-9,]+ for s3://${t.bucket}/big\\.bin, on all 2 tries .*; nothing was saved\\. ` +
              "The store is faulty, or something on the way changes its answers: download it again, and if it repeats, tell the store's operator\\.$",
          ),
        ),
      }),
    ]);
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });

  it('a ranged GET whose Content-Range states another total, or no size: the object fails, with nothing left behind', async () => {
    t.engine.updateSettings({ partSizeBytes: 5 * MIB });
    const big = await randomFile(t.dir, 'big.bin', 6 * MIB);
    await t.connection.client.send(
      new PutObjectCommand({ Bucket: t.bucket, Key: 'big.bin', Body: await readFile(big.path) }),
    );
    for (const [total, code] of [
      ['9007199254740993', 'BadSize'],
      ['-1', 'BadSize'],
      [String(5 * MIB), 'SizeMismatch'],
    ] as const) {
      const connection = await liar((request, answer) =>
        request.method === 'GET' && typeof answer.headers['content-range'] === 'string'
          ? {
              ...answer,
              headers: {
                ...answer.headers,
                'content-range': answer.headers['content-range'].replace(/\/\d+$/, `/${total}`),
              },
            }
          : answer,
      );
      const out = path.join(t.dir, `out-${total}`);
      const end = await t.engine
        .download(connection, { bucket: t.bucket, keys: ['big.bin'], targetFolder: out })
        .finished();
      expect(end.itemErrors, total).toEqual([expect.objectContaining({ item: `s3://${t.bucket}/big.bin`, code })]);
      expect(await readdir(out).catch(() => []), total).toEqual([]);
    }
  });
});
