// What recording costs: CPU per journal record (a finished small object, a sent part), measured on
// the real journal file format. `node tests/bench/journal-cost.ts`. The end-to-end cost is measured
// by `BENCH_JOURNAL_COST=1 npm run bench` (Barge with and without its journal, side by side).

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Journal } from '../../main/engine/journal/journal.ts';

const RECORDS = 20_000;
const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-journal-cost-'));
const journal = await Journal.open(path.join(dir, 'journal.sqlite'));
journal.addJob({ id: 'j', host: 'cli', kind: 'upload', name: 'bench', spec: {}, connectionRef: 'c', fingerprint: 'f' });
const recorder = journal.forJob('j', false);

function measure(label: string, write: (i: number) => void): void {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < RECORDS; i++) write(i);
  journal.commit();
  const wallUs = Number(process.hrtime.bigint() - started) / 1000 / RECORDS;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / RECORDS;
  console.log(`${label}: ${cpuUs.toFixed(1)} µs CPU, ${wallUs.toFixed(1)} µs wall per record (${RECORDS} records)`);
}

measure('finished object', (i) =>
  recorder.objectFinished({
    key: `dir/file-${i}.bin`,
    path: `/data/dir/file-${i}.bin`,
    size: 65536,
    mtimeMs: 1.7e12 + i,
    etag: '"0123456789abcdef0123456789abcdef"',
    checksum: 'CRC32C:AAAAAA==',
  }),
);
measure('sent part', (i) =>
  recorder.partFinished('upload-id', {
    partNumber: i + 1,
    etag: '"0123456789abcdef0123456789abcdef"',
    checksum: 'AAAAAA==',
  }),
);
journal.close();
await rm(dir, { recursive: true, force: true });
