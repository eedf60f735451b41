// What a delete's history costs on disk: a delete of 1,000,000 keys in a versioned bucket, each with
// the delete marker it made, recorded as the delete job records them (1,000 a batch), in a real
// journal file. `node tests/bench/history-size.ts [keys]`. Version IDs are drawn as AWS shapes them
// (32 random URL-safe characters) and as MinIO does (UUIDs): random either way, they cost most.

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Journal } from '../../main/engine/journal/journal.ts';
import type { Removal } from '../../main/engine/journal/job-journal.ts';

const KEYS = Number(process.argv[2] ?? 1_000_000);
const BATCH = 1_000;
const MIB = 1024 * 1024;

async function measure(label: string, versionId: () => string): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-history-size-'));
  const file = path.join(dir, 'journal.sqlite');
  const journal = await Journal.open(file);
  journal.addJob({
    id: 'd',
    host: 'cli',
    kind: 'delete',
    name: 'bench',
    spec: {},
    connectionRef: 'c',
    fingerprint: 'f',
  });
  const recorder = journal.forJob('d', false);
  journal.commit();
  const before = await sizeOf(file);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let first = 0; first < KEYS; first += BATCH) {
    const batch: Removal[] = [];
    for (let i = first; i < Math.min(first + BATCH, KEYS); i++)
      batch.push({
        key: `logs/2026/11/${String(1 + (i % 30)).padStart(2, '0')}/host-${String(i % 97).padStart(3, '0')}/app-${String(i).padStart(8, '0')}.log.gz`,
        markerVersionId: versionId(),
        size: 1000 + (i % 50_000),
      });
    recorder.deleteBatchFinished(batch.length, batch);
  }
  journal.commit();
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  journal.close();
  const added = (await sizeOf(file)) - before;
  let read = 0;
  const reader = await Journal.open(file);
  const readStarted = process.hrtime.bigint();
  for (const _ of reader.removals('d')) read += 1;
  const readS = Number(process.hrtime.bigint() - readStarted) / 1e9;
  reader.close();
  console.log(
    `${label}: ${KEYS.toLocaleString('en-US')} keys add ${(added / MIB).toFixed(1)} MiB to the journal ` +
      `(${(added / KEYS).toFixed(1)} bytes a key); recorded in ${wallS.toFixed(2)} s ` +
      `(${((used.user + used.system) / 1e6).toFixed(2)} s CPU), read back in ${readS.toFixed(2)} s (${read} keys)`,
  );
  await rm(dir, { recursive: true, force: true });
}

/** The journal file with its write-ahead log, as it stands on disk. */
async function sizeOf(file: string): Promise<number> {
  const sizes = await Promise.all(
    [file, `${file}-wal`].map((f) =>
      stat(f).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

await measure('AWS-shaped version IDs', () => randomBytes(24).toString('base64url'));
await measure('MinIO UUID version IDs', () => randomUUID());
