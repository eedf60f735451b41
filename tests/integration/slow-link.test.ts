// A slow link is not a broken one: through toxiproxy at a fixed rate per connection, a part that
// takes far longer than the stall timeout to cross still completes, with no retry. The bytes a
// request hands to the kernel (or a proxy) leave slowly after the last write; the request waits for
// them to arrive rather than calling the link stalled.

import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { MIB } from '../../src/byte-units.ts';
import { Engine } from '../../main/engine/engine.ts';
import { createBucket } from '../../main/engine/s3/s3-buckets.ts';
import { startFaultLab } from '../faults/fault-lab.ts';
import type { FaultLab } from '../faults/fault-lab.ts';
import { randomFile, uniqueBucket } from '../support/fixtures.ts';

/** Per connection, in toxiproxy's KB/s (1,000 bytes). */
const RATE_KBPS = 1000;
const PART = 16 * MIB;

let lab: FaultLab;
beforeAll(async () => {
  lab = await startFaultLab();
});
afterAll(async () => {
  await lab.close();
});

it(`a 16 MiB part at ${RATE_KBPS / 1000} MB/s per connection (about 17 s, the stall timeout 2 s) completes with no retry`, async () => {
  const engine = new Engine({ settings: { threads: 2, partSizeBytes: PART, stallTimeoutMs: 2000 } });
  try {
    const connection = await engine.connect(lab.connectionConfig('toxiproxy'));
    const bucket = uniqueBucket();
    await createBucket(connection, bucket);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-slow-'));
    const source = await randomFile(dir, 'slow.bin', PART + 1);
    await lab.toxiproxy.addToxic(
      'slow-up',
      { type: 'bandwidth', attributes: { rate: RATE_KBPS } },
      { stream: 'upstream' },
    );
    const job = engine.upload(connection, { sources: [source.path], bucket, destination: 'slow.bin' });
    const end = await job.finished();
    expect(end.state).toEqual({ status: 'completed' });
    expect(job.retryCount).toBe(0);
  } finally {
    await lab.clearFaults();
    await engine.close();
  }
});

it('while the store is down mid-job the job says it is waiting for the store, counts its resends, and goes on when it is back', async () => {
  const engine = new Engine({ settings: { threads: 2, partSizeBytes: 5 * MIB } });
  try {
    const connection = await engine.connect(lab.connectionConfig('direct'));
    const bucket = uniqueBucket();
    await createBucket(connection, bucket);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-outage-'));
    const source = await randomFile(dir, 'outage.bin', 40 * MIB);
    await lab.toxiproxy.removeAllToxics();
    const seen = { waiting: false, retries: 0 };
    const stop = engine.onProgress((batch) => {
      for (const snapshot of batch) {
        if (snapshot.progress.waitingForStore) seen.waiting = true;
        seen.retries = Math.max(seen.retries, snapshot.progress.retries ?? 0);
      }
    });
    const job = engine.upload(connection, { sources: [source.path], bucket, destination: 'outage.bin' });
    await new Promise<void>((resolve) => {
      const off = engine.onProgress((batch) => {
        if (batch.some((s) => s.id === job.id && s.progress.bytesDone > 8 * MIB)) {
          off();
          resolve();
        }
      });
    });
    await lab.server.halt('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await lab.server.restart();
    const end = await job.finished();
    stop();
    expect(end.state).toEqual({ status: 'completed' });
    expect(seen.waiting).toBe(true);
    expect(seen.retries).toBeGreaterThan(0);
    expect(end.progress.waitingForStore).toBe(false);
  } finally {
    await lab.clearFaults();
    await engine.close();
  }
});

it('when parts keep timing out, the files that start after them use smaller parts', async () => {
  // Two requests at a time, four files at a time: the fifth and sixth start only after a part lands.
  const engine = new Engine({ settings: { threads: 2, partSizeBytes: 10 * MIB, stallTimeoutMs: 1000 } });
  try {
    // Content-MD5 on every part: no first part finding out whether the store checks CRCs while the
    // others wait, so the first two parts are sent side by side and stall together.
    const connection = await engine.connect({ ...lab.connectionConfig('http-proxy'), uploadChecksum: 'MD5' });
    const bucket = uniqueBucket();
    await createBucket(connection, bucket);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-shrink-'));
    for (let i = 1; i <= 6; i++) await randomFile(dir, `files/f${i}.bin`, 11 * MIB);
    // The first two parts sent are taken and never answered: they time out, and are sent again.
    let parts = 0;
    lab.httpProxy.setRule((request) =>
      request.method === 'PUT' && request.url?.includes('partNumber=') && parts++ < 2 ? { kind: 'stall' } : undefined,
    );
    const end = await engine
      .upload(connection, { sources: [path.join(dir, 'files')], bucket, destination: '' })
      .finished();
    expect(end.state).toEqual({ status: 'completed' });
    const partSizes = [];
    for (let i = 1; i <= 6; i++) {
      const head = await connection.client.send(new HeadObjectCommand({ Bucket: bucket, Key: `files/f${i}.bin` }));
      partSizes.push(Number(head.Metadata?.['barge-part-size']));
    }
    // The files begun before the timeouts kept their 10 MiB parts; those begun after them, 5 MiB.
    expect(partSizes.filter((size) => size === 10 * MIB)).toHaveLength(4);
    expect(partSizes.filter((size) => size === 5 * MIB)).toHaveLength(2);
  } finally {
    await lab.clearFaults();
    await engine.close();
  }
});
