// Versions in the engine and the command line, on a versioned bucket of the real store: a prefix's
// versions and delete markers listed by folder, a version restored (copied over as the latest), one
// deleted for good, a key undeleted (its marker removed), one version downloaded and checked, and
// `ls --versions`, `cp --version-id`, `stat --version-id`; a version ID that is not there, by name.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GetObjectCommand, PutBucketVersioningCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ObjectVersionRow } from '../../src/contract/models.ts';
import { restoreVersion } from '../../main/engine/s3/version-actions.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setUpEngine();
});
afterEach(() => t.close());

/** docs/a.txt in three versions ("one", "two", "three"), docs/gone.txt deleted (a marker), sub/x.txt below. */
async function versioned(): Promise<{ a: string[]; gone: string }> {
  await t.connection.client.send(
    new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  const a: string[] = [];
  for (const body of ['one', 'two', 'three']) {
    const put = await t.connection.client.send(
      new PutObjectCommand({ Bucket: t.bucket, Key: 'docs/a.txt', Body: body }),
    );
    a.push(put.VersionId!);
  }
  const gone = await t.connection.client.send(
    new PutObjectCommand({ Bucket: t.bucket, Key: 'docs/gone.txt', Body: 'kept' }),
  );
  await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'docs/sub/x.txt', Body: 'x' }));
  const deleted = await t.engine.delete(t.connection, { bucket: t.bucket, keys: ['docs/gone.txt'] }).finished();
  expect(deleted.state.status).toBe('completed');
  return { a, gone: gone.VersionId! };
}

const level = async (prefix: string) => {
  const page = await t.engine.listVersions(t.connection, { bucket: t.bucket, prefix, delimiter: '/' });
  return page;
};

const body = async (key: string, versionId?: string) => {
  const got = await t.connection.client.send(
    new GetObjectCommand({ Bucket: t.bucket, Key: key, VersionId: versionId }),
  );
  return { text: await got.Body!.transformToString(), etag: got.ETag };
};

const brief = (v: ObjectVersionRow) => [v.key, v.size, v.isLatest, v.isDeleteMarker];

describe('versions of a prefix', () => {
  it('lists each key newest first, its delete markers among them, and folders at this level', async () => {
    const { a, gone } = await versioned();
    const page = await level('docs/');
    expect(page.prefixes).toEqual(['docs/sub/']);
    expect(page.versions.map(brief)).toEqual([
      ['docs/a.txt', 5, true, false],
      ['docs/a.txt', 3, false, false],
      ['docs/a.txt', 3, false, false],
      ['docs/gone.txt', 0, true, true],
      ['docs/gone.txt', 4, false, false],
    ]);
    expect(page.versions.filter((v) => v.key === 'docs/a.txt').map((v) => v.versionId)).toEqual([...a].reverse());
    expect(page.versions[4]!.versionId).toBe(gone);
    expect(page.nextToken).toBeUndefined();
  });

  // versitygw begins a page at its markers, not after them, where the last entry was a delete marker.
  it('goes on page after page, none left out or twice', async () => {
    await versioned();
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await t.engine.listVersions(t.connection, { bucket: t.bucket, prefix: 'docs/', pageSize: 2 }, token);
      seen.push(...page.versions.map((v) => `${v.key} ${v.versionId}`));
      token = page.nextToken;
    } while (token !== undefined);
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
  });
});

describe('one version', () => {
  it("restored: copied over its key as the latest, with the old version's content and ETag", async () => {
    const { a } = await versioned();
    const first = await body('docs/a.txt', a[0]);
    const restored = await t.engine.restoreVersion(t.connection, {
      bucket: t.bucket,
      key: 'docs/a.txt',
      versionId: a[0]!,
    });
    expect(restored.etag).toBe(first.etag);
    const latest = await body('docs/a.txt');
    expect(latest).toEqual({ text: 'one', etag: first.etag });
    const versions = (await level('docs/')).versions.filter((v) => v.key === 'docs/a.txt');
    // A fourth version: the history is kept, the restored one now on top.
    expect(versions).toHaveLength(4);
    expect(versions[0]!.isLatest).toBe(true);
    expect(a).not.toContain(versions[0]!.versionId);
  });

  it('deleted for good: that version alone is gone, no marker is made', async () => {
    const { a } = await versioned();
    await t.engine.deleteVersion(t.connection, { bucket: t.bucket, key: 'docs/a.txt', versionId: a[1]! });
    const versions = (await level('docs/')).versions.filter((v) => v.key === 'docs/a.txt');
    expect(versions.map((v) => v.versionId)).toEqual([a[2], a[0]]);
    expect(versions.some((v) => v.isDeleteMarker)).toBe(false);
    expect((await body('docs/a.txt')).text).toBe('three');
  });

  it("undeleted: the key's latest delete marker removed, its version before it the key's again", async () => {
    const { gone } = await versioned();
    await expect(body('docs/gone.txt')).rejects.toThrow();
    const marker = (await level('docs/')).versions.find((v) => v.key === 'docs/gone.txt' && v.isDeleteMarker)!;
    const removed = await t.engine.undeleteKey(t.connection, {
      bucket: t.bucket,
      key: 'docs/gone.txt',
      markerVersionId: marker.versionId,
    });
    expect(removed.versionId).toBe(marker.versionId);
    expect(await body('docs/gone.txt')).toMatchObject({ text: 'kept' });
    const versions = (await level('docs/')).versions.filter((v) => v.key === 'docs/gone.txt');
    expect(versions.map((v) => [v.versionId, v.isLatest])).toEqual([[gone, true]]);
  });

  it('undelete of a key that is not deleted is refused, saying why, and changes nothing', async () => {
    await versioned();
    await expect(t.engine.undeleteKey(t.connection, { bucket: t.bucket, key: 'docs/a.txt' })).rejects.toMatchObject({
      code: 'NotDeleted',
      message: expect.stringContaining('its latest version is the object itself, not a delete marker'),
    });
    expect((await body('docs/a.txt')).text).toBe('three');
  });

  it('undelete in a bucket that never had versioning names that state: a delete there was for good', async () => {
    await t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key: 'plain.txt', Body: 'x' }));
    expect(
      (await t.engine.delete(t.connection, { bucket: t.bucket, keys: ['plain.txt'] }).finished()).state.status,
    ).toBe('completed');
    await expect(t.engine.undeleteKey(t.connection, { bucket: t.bucket, key: 'plain.txt' })).rejects.toMatchObject({
      code: 'NotDeleted',
      message:
        `s3://${t.bucket}/plain.txt is not deleted: it has no versions: versioning was never enabled on bucket ` +
        `${t.bucket}, so a delete there removed it for good. Nothing was changed.`,
    });
  });

  it('a delete marker asked for its bytes fails by name (IsADeleteMarker), nothing saved', async () => {
    await versioned();
    const marker = (await level('docs/')).versions.find((v) => v.isDeleteMarker)!;
    const job = t.engine.download(t.connection, {
      bucket: t.bucket,
      keys: ['docs/gone.txt'],
      targetFolder: t.dir,
      versionId: marker.versionId,
    });
    const done = await job.finished();
    expect(done.state.status).toBe('failed');
    expect(job.items('errors', 0, 10).items[0]).toMatchObject({
      code: 'IsADeleteMarker',
      message: expect.stringContaining(`of s3://${t.bucket}/docs/gone.txt is a delete marker: it has no bytes`),
    });
    await expect(readFile(path.join(t.dir, 'gone.txt'))).rejects.toThrow();
  });

  it('a version ID the key does not have fails by name (NoSuchVersion), for every action', async () => {
    await versioned();
    const place = { bucket: t.bucket, key: 'docs/a.txt', versionId: 'no-such-version' };
    const named = {
      code: 'NoSuchVersion',
      message: expect.stringContaining(`s3://${t.bucket}/docs/a.txt has no version "no-such-version"`),
    };
    await expect(t.engine.restoreVersion(t.connection, place)).rejects.toMatchObject(named);
    await expect(t.engine.deleteVersion(t.connection, place)).rejects.toMatchObject(named);
    await expect(t.engine.statObject(t.connection, t.bucket, 'docs/a.txt', 'no-such-version')).rejects.toMatchObject(
      named,
    );
    expect((await body('docs/a.txt')).text).toBe('three');
  });

  it("downloaded: that version's bytes, verified, saved under the name asked", async () => {
    const { a } = await versioned();
    const job = t.engine.download(t.connection, {
      bucket: t.bucket,
      keys: ['docs/a.txt'],
      targetFolder: t.dir,
      targetFile: path.join(t.dir, 'first.txt'),
      versionId: a[0]!,
    });
    const done = await job.finished();
    expect(done.state.status).toBe('completed');
    expect(await readFile(path.join(t.dir, 'first.txt'), 'utf8')).toBe('one');
    const [saved] = [...t.engine.receipt(job.id)];
    expect(saved).toMatchObject({ versionId: a[0] });
    expect(saved!.verified).not.toBe('size-only');
  });
});

describe('the command line', () => {
  it('ls --versions lists versions and markers (and --json each as a row); stat and cp take --version-id', async () => {
    const { a } = await versioned();
    const url = `s3://${t.bucket}/docs/`;
    const listed = await runCli(['ls', '--versions', url]);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^PRE  docs\/sub\/$/);
    expect(lines.filter((line) => line.endsWith('docs/a.txt'))).toHaveLength(3);
    expect(lines.find((line) => line.endsWith('docs/gone.txt') && line.includes(' DEL '))).toMatch(/LATEST/);
    expect(lines.find((line) => line.includes(a[0]!))).not.toMatch(/LATEST/);
    const json = await runCli(['ls', '--versions', '--json', '-r', url]);
    const rows = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ObjectVersionRow);
    expect(rows.map((r) => r.key)).toContain('docs/sub/x.txt');
    expect(rows.filter((r) => r.isDeleteMarker).map((r) => r.key)).toEqual(['docs/gone.txt']);

    const stat = await runCli(['stat', '--version-id', a[0]!, `s3://${t.bucket}/docs/a.txt`]);
    expect(stat.code).toBe(0);
    expect(stat.stdout).toMatch(/Size: +3 bytes/);
    expect(stat.stdout).toContain(`Version:`);
    expect(stat.stdout).toContain(a[0]!);

    const file = path.join(t.dir, 'second.txt');
    const copied = await runCli(['cp', '--version-id', a[1]!, `s3://${t.bucket}/docs/a.txt`, file]);
    expect(copied.code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('two');

    // In the store: that version copied by the store to another key, the latest left as it is.
    const inStore = await runCli([
      'cp',
      '--version-id',
      a[0]!,
      `s3://${t.bucket}/docs/a.txt`,
      `s3://${t.bucket}/kept/first.txt`,
    ]);
    expect(inStore.code).toBe(0);
    expect((await body('kept/first.txt')).text).toBe('one');
    expect((await body('docs/a.txt')).text).toBe('three');
  });

  it('a version ID that is not there fails with NoSuchVersion, naming the key and the version', async () => {
    await versioned();
    const key = `s3://${t.bucket}/docs/a.txt`;
    const stat = await runCli(['stat', '--version-id', 'nope', key]);
    expect(stat.code).toBe(1);
    expect(stat.stderr).toContain(`${key} has no version "nope" (NoSuchVersion)`);
    const copied = await runCli(['cp', '--version-id', 'nope', key, path.join(t.dir, 'x.txt')]);
    expect(copied.code).toBe(1);
    expect(copied.stderr).toContain(`${key} has no version "nope" (NoSuchVersion)`);
    const inStore = await runCli(['cp', '--version-id', 'nope', key, `s3://${t.bucket}/kept/x.txt`]);
    expect(inStore.code).toBe(1);
    expect(inStore.stderr).toContain(`${key} has no version "nope" (NoSuchVersion)`);
  });

  it('--version-id is refused (usage) for more than one key, --recursive, an upload, or mv', async () => {
    const key = `s3://${t.bucket}/docs/a.txt`;
    for (const args of [
      ['cp', '--version-id', 'v', key, `s3://${t.bucket}/docs/b.txt`, t.dir],
      ['cp', '-r', '--version-id', 'v', key, t.dir],
      ['cp', '--version-id', 'v', path.join(t.dir, 'x'), key],
      ['mv', '--version-id', 'v', key, `s3://${t.bucket}/moved.txt`],
    ]) {
      const refused = await runCli(args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--version-id/);
    }
  });
});

describe('a large version', () => {
  it('downloads in ranges of that version, not the latest, and is restored in parts', async () => {
    const big = await setUpEngine({ settings: { partSizeBytes: 5 * 1024 * 1024 } });
    try {
      await big.connection.client.send(
        new PutBucketVersioningCommand({ Bucket: big.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
      );
      const old = Buffer.alloc(11 * 1024 * 1024, 7);
      const put = await big.connection.client.send(
        new PutObjectCommand({ Bucket: big.bucket, Key: 'big.bin', Body: old }),
      );
      await big.connection.client.send(
        new PutObjectCommand({ Bucket: big.bucket, Key: 'big.bin', Body: Buffer.alloc(12 * 1024 * 1024, 9) }),
      );
      const file = path.join(big.dir, 'old.bin');
      const job = big.engine.download(big.connection, {
        bucket: big.bucket,
        keys: ['big.bin'],
        targetFolder: big.dir,
        targetFile: file,
        versionId: put.VersionId!,
      });
      expect((await job.finished()).state.status).toBe('completed');
      expect((await readFile(file)).equals(old)).toBe(true);

      // Restored in parts (UploadPartCopy, each range of that version): the latest is its bytes again.
      const restored = await restoreVersion(
        big.connection,
        { bucket: big.bucket, key: 'big.bin', versionId: put.VersionId! },
        5 * 1024 * 1024,
        5 * 1024 * 1024,
      );
      expect(restored.etag).toMatch(/-3"$/);
      const latest = await big.connection.client.send(new GetObjectCommand({ Bucket: big.bucket, Key: 'big.bin' }));
      expect(Buffer.from(await latest.Body!.transformToByteArray()).equals(old)).toBe(true);
    } finally {
      await big.close();
    }
  });
});
