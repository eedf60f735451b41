// A move killed mid-way (SIGKILL) loses nothing, and goes on when the command runs again: every
// object moved by the first run stays moved and is not copied again, the rest are moved, and no
// source is left behind.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { runCli, startCli } from '../support/run-cli.ts';

const OBJECTS = 40;

let t: TestContext;
let proxy: FaultProxy;
let dataDir: string;
beforeEach(async () => {
  t = await setUpEngine();
  proxy = await startFaultProxy(serverConfig().endpoint!);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'barge-journal-'));
});
afterEach(async () => {
  await proxy.close();
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

function movedInJournal(): number {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path.join(dataDir, 'journal.sqlite'), { readOnly: true });
    return Number((db.prepare('SELECT count(*) AS n FROM objects').get() as { n: number }).n);
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}

async function keys(prefix: string): Promise<string[]> {
  const listed = await t.connection.client.send(new ListObjectsV2Command({ Bucket: t.bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key!);
}

it('a move killed mid-way goes on when run again, copying none of the moved objects again', async () => {
  for (let i = 0; i < OBJECTS; i++)
    await t.connection.client.send(
      new PutObjectCommand({ Bucket: t.bucket, Key: `from/k${String(i).padStart(2, '0')}`, Body: `object ${i}` }),
    );
  const args = ['mv', '-r', '--threads', '2', '--quiet', `s3://${t.bucket}/from`, `s3://${t.bucket}/to/`];
  const env = { AWS_ENDPOINT_URL: proxy.endpoint, BARGE_DATA_DIR: dataDir };
  // Slow requests, so the kill lands mid-job.
  proxy.setRule(() => ({ kind: 'delay', ms: 100 }));
  const run = startCli(args, { env });
  const deadline = Date.now() + 30_000;
  while (movedInJournal() < 3) {
    if (run.child.exitCode !== null) throw new Error(`barge ended before it was killed: ${run.output.stderr}`);
    if (Date.now() > deadline) throw new Error('the journal recorded no move in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  run.child.kill('SIGKILL');
  await run.done;
  proxy.setRule(() => undefined);
  const moved = movedInJournal();
  expect(moved).toBeLessThan(OBJECTS);
  // Nothing lost: every object is at its source, its destination, or (copied, not yet deleted) both.
  const left = await keys('from/');
  const arrived = await keys('to/from/');
  expect(new Set([...left.map((k) => k.slice(5)), ...arrived.map((k) => k.slice(8))]).size).toBe(OBJECTS);

  const copiesBefore = proxy.seen.filter((r) => r.method === 'PUT').length;
  const again = await runCli(args, { env });
  expect(again.code).toBe(0);
  expect(await keys('from/')).toEqual([]);
  expect((await keys('to/from/')).length).toBe(OBJECTS);
  // The second run copied only what the first had not moved (those it moved are no longer listed).
  const copiesAfter = proxy.seen.filter((r) => r.method === 'PUT').length - copiesBefore;
  expect(copiesAfter).toBeLessThanOrEqual(OBJECTS - moved);
});
