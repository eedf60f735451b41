// A delete kept in the history and undone; a prefix restored to a moment (issue 28 §2, §3), on a
// versioned bucket of the test store.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeleteObjectCommand, PutBucketVersioningCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Journal, jobFingerprint } from '../../main/engine/journal/journal.ts';
import { listKeyHistories } from '../../main/engine/s3/key-versions.ts';
import { listAllObjects } from '../../main/engine/s3/s3-listing.ts';
import { setUpEngine } from '../support/fixtures.ts';
import { serverKind } from '../support/s3-server.ts';
import type { TestContext } from '../support/fixtures.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const CONNECTION = 'saved-connection';
let t: TestContext;
let journal: Journal;
beforeEach(async () => {
  journal = await Journal.open(':memory:');
  t = await setUpEngine({ journal, host: 'app', settings: { threads: 32 } });
});
afterEach(() => t.close());

async function versioned(): Promise<void> {
  await t.connection.client.send(
    new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
}

async function put(keys: readonly string[], body: (key: string) => string): Promise<void> {
  for (let i = 0; i < keys.length; i += 64)
    await Promise.all(
      keys
        .slice(i, i + 64)
        .map((Key) => t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key, Body: body(Key) }))),
    );
}

/** Each current key with its ETag and the version ID of its latest version. */
async function current(prefix = ''): Promise<Map<string, { etag: string; versionId: string }>> {
  const found = new Map<string, { etag: string; versionId: string }>();
  for await (const history of listKeyHistories(t.connection, { bucket: t.bucket, prefix })) {
    const latest = history.versions[0]!;
    if (!latest.isDeleteMarker) found.set(history.key, { etag: latest.etag ?? '', versionId: latest.versionId });
  }
  return found;
}

async function keys(prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const o of listAllObjects(t.connection, { bucket: t.bucket, prefix })) found.push(o.key);
  return found.sort();
}

describe('undo of a delete', () => {
  it('brings back all 5,000 objects of a deleted prefix with their ETags and version IDs, and leaves one written since', async () => {
    await versioned();
    const doomed = Array.from({ length: 5_000 }, (_, i) => `logs/${String(i).padStart(5, '0')}.log`);
    await put(doomed, (key) => `body of ${key}`);
    const before = await current('logs/');
    expect(before.size).toBe(5_000);

    const deleted = await t.engine
      .delete(t.connection, { bucket: t.bucket, prefixes: ['logs/'] }, { connectionRef: CONNECTION })
      .finished();
    expect(deleted.state.status).toBe('completed');
    expect(await keys('logs/')).toEqual([]);
    const record = t.engine.historyRecord(deleted.id);
    expect(record).toMatchObject({ kind: 'delete', status: 'completed', versioning: 'enabled', removedCount: 5_000 });
    const removed = [...t.engine.removals(deleted.id)];
    expect(removed).toHaveLength(5_000);
    expect(removed.every((r) => r.markerVersionId !== undefined && r.versionId === undefined)).toBe(true);

    // Written again after the delete: the undo must leave it as it is.
    await put(['logs/00042.log'], () => 'written after the delete');
    const rewritten = (await current('logs/')).get('logs/00042.log')!;

    const undo = await t.engine.undo(t.connection, deleted.id, { connectionRef: CONNECTION }).finished();
    expect(undo.state.status).toBe('completed');
    expect(undo.progress).toMatchObject({ objectsDone: 4_999, objectsKept: 1, objectsFailed: 0 });
    const after = await current('logs/');
    expect(after.size).toBe(5_000);
    for (const [key, was] of before) {
      if (key === 'logs/00042.log') continue;
      expect(after.get(key)).toEqual(was);
    }
    expect(after.get('logs/00042.log')).toEqual(rewritten);
    expect(t.engine.historyRecord(deleted.id).undoneBy).toBe(undo.id);
    // Undone: run again from the list, it would delete again what the undo brought back.
    expect(() => t.engine.retry(deleted.id)).toThrow(/was undone, by job/);
    expect(() => t.engine.retryFailed(deleted.id)).toThrow(/was undone, by job/);
    // Undone once: a second undo is refused, with who undid it.
    expect(() => t.engine.undo(t.connection, deleted.id, { connectionRef: CONNECTION })).toThrow(/undone already/);
  }, 120_000);

  it('goes on from an interrupted run: the markers it removed before count as done, never as removed by someone else', async () => {
    await versioned();
    const names = Array.from({ length: 30 }, (_, i) => `u/${i}.txt`);
    await put(names, (key) => key);
    const deleted = await t.engine
      .delete(t.connection, { bucket: t.bucket, prefixes: ['u/'] }, { connectionRef: CONNECTION })
      .finished();
    const markers = [...t.engine.removals(deleted.id)];
    // An undo that removed half the markers, then was killed: its record and its removals stay.
    const spec = { bucket: t.bucket, undoes: deleted.id };
    journal.addJob({
      id: 'interrupted-undo',
      host: 'app',
      kind: 'undo',
      name: 'undo',
      spec,
      connectionRef: CONNECTION,
      fingerprint: jobFingerprint('undo', spec, CONNECTION),
    });
    const half = markers.slice(0, 15).map((m) => ({ key: m.key, versionId: m.markerVersionId! }));
    await Promise.all(
      half.map((m) =>
        t.connection.client.send(new DeleteObjectCommand({ Bucket: t.bucket, Key: m.key, VersionId: m.versionId })),
      ),
    );
    journal.forJob('interrupted-undo', false).deleteBatchFinished(15, half);

    const job = t.engine.undo(t.connection, deleted.id, { connectionRef: CONNECTION, resume: true });
    expect(job.id).toBe('interrupted-undo');
    const end = await job.finished();
    expect(end.state.status).toBe('completed');
    expect(end.progress).toMatchObject({ objectsDone: 30, objectsTotal: 30, objectsKept: 0, objectsFailed: 0 });
    expect(await keys('u/')).toEqual([...names].sort());
  });

  it('says a key deleted again since (by another delete marker) was deleted again, not written, and leaves it', async () => {
    await versioned();
    await put(['r/a.txt'], () => 'first');
    const first = await t.engine
      .delete(t.connection, { bucket: t.bucket, keys: ['r/a.txt'] }, { connectionRef: CONNECTION })
      .finished();
    await t.engine.delete(t.connection, { bucket: t.bucket, keys: ['r/a.txt'] }).finished();
    const undo = await t.engine.undo(t.connection, first.id, { connectionRef: CONNECTION }).finished();
    expect(undo.progress).toMatchObject({ objectsDone: 0, objectsKept: 1, objectsFailed: 0 });
    expect(undo.itemWarnings?.[0]?.message).toMatch(/^Deleted again since the delete \(by delete marker /);
    expect(await keys('r/')).toEqual([]);
  });

  it('undoes a delete made with versioning suspended (markers "null"); says what it cannot bring back', async () => {
    await versioned();
    await put(['s/j.txt', 's/k.txt'], (key) => `first ${key}`);
    const first = await current('s/');
    await t.connection.client.send(
      new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Suspended' } }),
    );
    // Written only while suspended: its one version is "null", which the delete replaces for good.
    await put(['s/only.txt'], () => 'written while suspended');
    const deleted = await t.engine
      .delete(
        t.connection,
        { bucket: t.bucket, keys: ['s/j.txt', 's/k.txt', 's/only.txt'] },
        { connectionRef: CONNECTION },
      )
      .finished();
    expect(t.engine.historyRecord(deleted.id).versioning).toBe('suspended');
    // Each delete made a marker whose version ID is "null" (MinIO's answer leaves the ID out).
    expect([...t.engine.removals(deleted.id)].map((r) => r.markerVersionId)).toEqual(['null', 'null', 'null']);
    // Written again, still suspended: the new object replaces the marker, as version "null" too.
    await put(['s/k.txt'], () => 'written after the delete');
    const rewritten = (await current('s/')).get('s/k.txt')!;

    const undo = await t.engine.undo(t.connection, deleted.id, { connectionRef: CONNECTION }).finished();
    expect(undo.progress).toMatchObject({ objectsDone: 1, objectsKept: 2, objectsFailed: 0 });
    const said = (undo.itemWarnings ?? []).map((warning) => warning.message);
    expect(said).toEqual([
      expect.stringMatching(/^Written again since the delete/),
      expect.stringMatching(/^Nothing below its delete marker to bring back/),
    ]);
    const now = await current('s/');
    expect(now.get('s/j.txt')).toEqual(first.get('s/j.txt'));
    expect(now.get('s/k.txt')).toEqual(rewritten);
  });

  it('never resumes a delete once it is undone: the same delete run again is a new one, which can be undone', async () => {
    await versioned();
    const names = ['f/a.txt', 'f/b.txt'];
    await put(names, (key) => key);
    const spec = { bucket: t.bucket, prefixes: ['f/'] };
    const deleted = await t.engine.delete(t.connection, spec, { connectionRef: CONNECTION }).finished();
    // As if one key had been refused: a failed delete stays to be resumed by running it again.
    journal.setStatus(deleted.id, 'failed');
    t.engine.forget(deleted.id);
    journal.bringBack(deleted.id);
    const undo = await t.engine.undo(t.connection, deleted.id, { connectionRef: CONNECTION }).finished();
    expect(undo.state.status).toBe('completed');
    expect(await keys('f/')).toEqual(names);

    const again = t.engine.delete(t.connection, spec, { connectionRef: CONNECTION, resume: true });
    expect(again.id).not.toBe(deleted.id);
    await again.finished();
    expect(await keys('f/')).toEqual([]);
    const undoAgain = await t.engine.undo(t.connection, again.id, { connectionRef: CONNECTION }).finished();
    expect(undoAgain.progress).toMatchObject({ objectsDone: 2, objectsFailed: 0 });
    expect(await keys('f/')).toEqual(names);
  });

  it('refuses, with the reason, an undo of a non-delete, of a delete on another connection, or where no versions were kept', async () => {
    await put(['a.txt', 'b.txt'], (key) => key);
    const unversioned = await t.engine
      .delete(t.connection, { bucket: t.bucket, keys: ['a.txt'] }, { connectionRef: CONNECTION })
      .finished();
    expect(() => t.engine.undo(t.connection, unversioned.id, { connectionRef: CONNECTION })).toThrow(
      /kept no versions then/,
    );
    await versioned();
    const other = await t.engine
      .delete(t.connection, { bucket: t.bucket, keys: ['b.txt'] }, { connectionRef: CONNECTION })
      .finished();
    expect(() => t.engine.undo(t.connection, other.id, { connectionRef: 'another-connection' })).toThrow(
      /ran on another connection/,
    );
    const undo = await t.engine.undo(t.connection, other.id.slice(0, 8), { connectionRef: CONNECTION }).finished();
    expect(undo.state.status).toBe('completed');
    expect(() => t.engine.undo(t.connection, undo.id, { connectionRef: CONNECTION })).toThrow(/not a delete/);
    expect(() => t.engine.undo(t.connection, 'no-such-job', { connectionRef: CONNECTION })).toThrow(/No job/);
    expect(await keys()).toEqual(['b.txt']);
  });
});

describe('restore to a moment', () => {
  it('brings every key of a prefix back to how it was between two rounds of overwrites and deletes', async () => {
    if (serverKind() === 'versitygw') return expectUnreliableDates();
    await versioned();
    const names = Array.from({ length: 40 }, (_, i) => `p/${String(i).padStart(2, '0')}.txt`);
    // Round 1: every key written; some deleted, and one deleted then written again.
    await put(names, (key) => `v1 of ${key}`);
    await t.engine.delete(t.connection, { bucket: t.bucket, keys: names.slice(30, 35) }).finished();
    await sleep(1_100);
    const moment = Date.now();
    const then = await current('p/');
    await sleep(1_100);
    // Round 2: overwrites, deletes, new keys, and a key deleted in round 1 written again.
    await put(names.slice(0, 10), (key) => `v2 of ${key}`);
    await t.engine.delete(t.connection, { bucket: t.bucket, keys: names.slice(10, 20) }).finished();
    await put(['p/new-1.txt', 'p/new-2.txt', names[30]!], (key) => `late ${key}`);
    await put(['q/outside.txt'], () => 'not below the prefix');

    const plan = await t.engine
      .restoreTo(t.connection, { bucket: t.bucket, prefix: 'p/', to: moment, dryRun: true })
      .finished();
    expect(plan.state.status).toBe('completed');
    // 10 copied over, 10 markers removed, 3 hidden: each change listed, none made.
    expect(plan.progress.objectsDone).toBe(23);
    expect((await current('p/')).size).toBe(35 - 10 + 3);

    const restored = await t.engine
      .restoreTo(t.connection, { bucket: t.bucket, prefix: 'p/', to: moment }, { connectionRef: CONNECTION })
      .finished();
    expect(restored.state.status).toBe('completed');
    expect(restored.progress).toMatchObject({ objectsDone: 23, objectsFailed: 0 });
    const now = await current('p/');
    expect([...now.keys()].sort()).toEqual([...then.keys()].sort());
    for (const [key, was] of then) {
      expect(now.get(key)!.etag).toBe(was.etag);
      // Keys whose newer versions were only delete markers read as the very version they were.
      if (names.slice(10, 20).includes(key)) expect(now.get(key)!.versionId).toBe(was.versionId);
    }
    expect(await keys('q/')).toEqual(['q/outside.txt']);
  }, 60_000);

  it('reads a key whose versions run past a page of the listing (over 1,000) as one key, and restores it once', async () => {
    await versioned();
    await put(['deep/key'], () => 'as it was');
    const then = (await current('deep/')).get('deep/key')!;
    await sleep(1_100);
    const moment = Date.now();
    await sleep(1_100);
    // 1,001 versions written after the moment: the listing's first page (1,000 entries) ends inside the key.
    for (let round = 0; round < 1_001; round += 77)
      await put(
        Array.from({ length: Math.min(77, 1_001 - round) }, () => 'deep/key'),
        () => `later ${round}`,
      );
    await put(['deep/later'], () => 'written after the moment');

    const histories = [];
    for await (const history of listKeyHistories(t.connection, { bucket: t.bucket, prefix: 'deep/' }))
      histories.push({ key: history.key, versions: history.versions.length });
    expect(histories).toEqual([
      { key: 'deep/key', versions: 1_002 },
      { key: 'deep/later', versions: 1 },
    ]);
    if (serverKind() === 'versitygw') return;

    const restored = await t.engine
      .restoreTo(t.connection, { bucket: t.bucket, prefix: 'deep/', to: moment }, { connectionRef: CONNECTION })
      .finished();
    expect(restored.state.status).toBe('completed');
    // One copy over deep/key, one delete of deep/later: not a delete of deep/key as well.
    expect(restored.progress).toMatchObject({ objectsDone: 2, objectsFailed: 0 });
    const now = await current('deep/');
    expect([...now.keys()]).toEqual(['deep/key']);
    expect(now.get('deep/key')!.etag).toBe(then.etag);
  }, 120_000);

  it('copies back a version written before versioning was enabled (version "null") over a later one', async () => {
    if (serverKind() === 'versitygw') return;
    await put(['n/k.txt'], () => 'written before versioning');
    await versioned();
    const then = (await current('n/')).get('n/k.txt')!;
    await sleep(1_100);
    const moment = Date.now();
    await sleep(1_100);
    await put(['n/k.txt'], () => 'written after the moment');
    const restored = await t.engine
      .restoreTo(t.connection, { bucket: t.bucket, prefix: 'n/', to: moment }, { connectionRef: CONNECTION })
      .finished();
    expect(restored.state.status).toBe('completed');
    expect(restored.progress).toMatchObject({ objectsDone: 1, objectsFailed: 0 });
    expect((await current('n/')).get('n/k.txt')!.etag).toBe(then.etag);
  });

  /** versitygw dates a version by when it was set aside: a restore there stops, and says why. */
  async function expectUnreliableDates(): Promise<void> {
    await versioned();
    await put(['p/a.txt'], () => 'first');
    await sleep(1_100);
    await t.engine.delete(t.connection, { bucket: t.bucket, keys: ['p/a.txt'] }).finished();
    const end = await t.engine
      .restoreTo(t.connection, { bucket: t.bucket, prefix: 'p/', to: Date.now(), dryRun: true })
      .finished();
    expect(end.state).toMatchObject({ status: 'failed', error: { code: 'UnreliableVersionDates' } });
    // A real restore finds it before its first change: p/0.txt, made after the moment, sorts first
    // and would be hidden by the restore; it is left as it is.
    const moment = Date.now();
    await sleep(1_100);
    await put(['p/0.txt'], () => 'made after the moment');
    const real = await t.engine.restoreTo(t.connection, { bucket: t.bucket, prefix: 'p/', to: moment }).finished();
    expect(real.state).toMatchObject({
      status: 'failed',
      error: { code: 'UnreliableVersionDates', message: expect.stringMatching(/Nothing was changed/) },
    });
    expect([...(await current('p/')).keys()]).toEqual(['p/0.txt']);
  }

  it('refuses a moment in the future, and a bucket that never kept versions, naming its state', async () => {
    expect(() =>
      t.engine.restoreTo(t.connection, { bucket: t.bucket, prefix: '', to: Date.now() + 3_600_000 }),
    ).toThrow(/is in the future/);
    const end = await t.engine.restoreTo(t.connection, { bucket: t.bucket, prefix: '', to: Date.now() }).finished();
    expect(end.state).toMatchObject({ status: 'failed', error: { message: expect.stringMatching(/never enabled/) } });
  });
});
