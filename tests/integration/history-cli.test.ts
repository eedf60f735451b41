// barge history, history show --keys, undo and restore, through the real command line (issue 28).

import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { PutBucketVersioningCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { listKeyHistories } from '../../main/engine/s3/key-versions.ts';
import { setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';
import { serverKind } from '../support/s3-server.ts';
import { setTimeout as sleep } from 'node:timers/promises';

let t: TestContext;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  t = await setUpEngine();
  // Each test its own journal, so its history holds its own jobs only.
  env = { BARGE_DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'barge-history-')) };
});
afterEach(() => t.close());

const barge = (args: readonly string[]) => runCli(args, { env });

async function versioned(): Promise<void> {
  await t.connection.client.send(
    new PutBucketVersioningCommand({ Bucket: t.bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
}

async function put(keys: readonly string[], body = (key: string) => `body of ${key}`): Promise<void> {
  await Promise.all(
    keys.map((Key) => t.connection.client.send(new PutObjectCommand({ Bucket: t.bucket, Key, Body: body(Key) }))),
  );
}

/** Each key below `prefix` with the version IDs of its delete markers and of its versions. */
async function versionsBelow(prefix: string): Promise<Map<string, { markers: string[]; latest: string }>> {
  const found = new Map<string, { markers: string[]; latest: string }>();
  for await (const history of listKeyHistories(t.connection, { bucket: t.bucket, prefix }))
    found.set(history.key, {
      markers: history.versions.filter((v) => v.isDeleteMarker).map((v) => v.versionId),
      latest: history.versions[0]!.versionId,
    });
  return found;
}

describe('barge history and undo', () => {
  it('lists a delete, exports exactly the keys and delete markers it made, and undoes it', async () => {
    await versioned();
    const keys = Array.from({ length: 30 }, (_, i) => `logs/${String(i).padStart(2, '0')}, "odd".log`);
    await put([...keys, 'keep.txt']);
    const rm = await barge(['rm', '-r', `s3://${t.bucket}/logs/`]);
    expect(rm.code).toBe(0);
    // The delete says how to take it back.
    const undoHint = /barge undo ([0-9a-f]{8})/.exec(rm.stdout + rm.stderr);
    expect(undoHint).not.toBeNull();

    const listed = await barge(['history', '--json']);
    expect(listed.code).toBe(0);
    const jobs = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: 'delete', status: 'completed', host: 'cli', removed: 30 });
    expect(jobs[0].id.startsWith(undoHint![1])).toBe(true);
    // The connection by its access key ID, never its secret.
    expect(jobs[0].connection).toContain(`key ${inject('s3').accessKeyId}`);
    expect(JSON.stringify(jobs[0])).not.toContain(inject('s3').secretAccessKey);

    const exported = await barge(['history', 'show', undoHint![1]!, '--keys', 'json']);
    expect(exported.code).toBe(0);
    const removed = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { key: string; markerVersionId: string });
    const now = await versionsBelow('logs/');
    expect(removed.map((r) => r.key).sort()).toEqual([...keys].sort());
    for (const r of removed) expect(now.get(r.key)!.markers).toEqual([r.markerVersionId]);
    const csv = await barge(['history', 'show', undoHint![1]!, '--keys', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe('key,version_id,delete_marker_version_id,size');
    expect(csv.stdout.trim().split('\n')).toHaveLength(31);

    const undo = await barge(['undo', undoHint![1]!]);
    expect(undo.code).toBe(0);
    const after = await versionsBelow('logs/');
    for (const key of keys) expect(after.get(key)!.markers).toEqual([]);
    const shown = await barge(['history', 'show', undoHint![1]!]);
    expect(shown.stdout).toMatch(/Undone by:\s+[0-9a-f-]{36}/);
    const again = await barge(['undo', undoHint![1]!]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('was undone already');
    const history = await barge(['history', '--kind', 'undo']);
    expect(history.stdout).toMatch(/Undo\s+completed/);
  }, 60_000);

  it('says plainly why a delete in a bucket that keeps no versions cannot be undone', async () => {
    await put(['gone.txt']);
    const rm = await barge(['rm', `s3://${t.bucket}/gone.txt`]);
    expect(rm.code).toBe(0);
    expect(rm.stdout + rm.stderr).toMatch(/cannot be undone.*versioning/i);
    const id = JSON.parse((await barge(['history', '--json'])).stdout.trim()).id as string;
    const undo = await barge(['undo', id]);
    expect(undo.code).toBe(1);
    expect(undo.stderr).toContain('kept no versions then (versioning never enabled)');
    expect((await barge(['undo', 'ffffffff'])).stderr).toContain('No job ffffffff in the history');
  });
});

describe('barge restore', () => {
  it('lists every change in a dry run, then brings a prefix back to the moment', async () => {
    await versioned();
    await put(['r/a.txt', 'r/b.txt'], (key) => `first ${key}`);
    await sleep(1_100);
    const moment = new Date().toISOString();
    await sleep(1_100);
    await put(['r/a.txt', 'r/c.txt'], (key) => `second ${key}`);
    expect((await barge(['rm', `s3://${t.bucket}/r/b.txt`])).code).toBe(0);

    const plan = await barge(['restore', `s3://${t.bucket}/r`, '--to', moment, '--dry-run']);
    if (serverKind() === 'versitygw') {
      // It dates a version by when it was set aside: a restore there stops and says why.
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain('its dates say when versions were set aside');
      // A dry run changed nothing, and says so once.
      expect(plan.stderr).not.toMatch(/were restored/);
      expect(plan.stderr.match(/Nothing was changed/g)).toHaveLength(1);
      return;
    }
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/r\/a\.txt: would copy version .* over version/);
    expect(plan.stdout).toMatch(/r\/b\.txt: would remove its delete marker/);
    expect(plan.stdout).toMatch(/r\/c\.txt: would delete it: it did not exist at/);
    expect(plan.stdout).toContain('Would make 3 changes; nothing was changed.');

    const run = await barge(['restore', `s3://${t.bucket}/r/`, '--to', moment]);
    expect(run.code).toBe(0);
    const bodies = new Map<string, string>();
    for (const key of ['r/a.txt', 'r/b.txt']) {
      const cat = await barge(['cat', `s3://${t.bucket}/${key}`]);
      bodies.set(key, cat.stdout);
    }
    expect(Object.fromEntries(bodies)).toEqual({ 'r/a.txt': 'first r/a.txt', 'r/b.txt': 'first r/b.txt' });
    expect((await barge(['stat', `s3://${t.bucket}/r/c.txt`])).code).toBe(1);
    const still = await barge(['restore', `s3://${t.bucket}/r/`, '--to', moment]);
    expect(still.stdout).toContain('is as it was at');
  }, 60_000);

  it('says once, in a dry run, that a bucket which never kept versions has nothing to restore', async () => {
    await put(['r/a.txt']);
    const plan = await barge(['restore', `s3://${t.bucket}/r/`, '--to', '1h', '--dry-run']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('has never kept versions (versioning was never enabled)');
    expect(plan.stderr.match(/Nothing was changed/g)).toHaveLength(1);
  });

  it('refuses a time in the future, and a time it cannot read', async () => {
    const future = await barge(['restore', `s3://${t.bucket}/r/`, '--to', '2999-01-01']);
    expect(future.code).toBe(2);
    expect(future.stderr).toContain('is in the future');
    const garbled = await barge(['restore', `s3://${t.bucket}/r/`, '--to', 'yesterday']);
    expect(garbled.code).toBe(2);
    expect(garbled.stderr).toContain('--to takes an age such as 90d');
  });
});
