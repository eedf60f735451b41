import { afterEach, beforeEach, expect, it } from 'vitest';
import { KIB } from '../../src/byte-units.ts';
import { randomFile, serverConfig, setUpEngine } from '../support/fixtures.ts';
import type { TestContext } from '../support/fixtures.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';

let t: TestContext;
let proxy: FaultProxy;
beforeEach(async () => {
  t = await setUpEngine({ settings: { threads: 2 } });
  // 30 ms of latency per request, as a store across a network has: on loopback a PUT returns so fast
  // that few requests are ever in flight at once, whatever the limit.
  proxy = await startFaultProxy(serverConfig().endpoint!);
  proxy.setRule(() => ({ kind: 'delay', ms: 30 }));
});
afterEach(async () => {
  await t.close();
  await proxy.close();
});

it('changing Threads while a job runs changes the requests in flight', async () => {
  for (let i = 0; i < 600; i++) await randomFile(t.dir, `many/f${i}.bin`, 16 * KIB);
  const distant = await t.engine.connect({ ...serverConfig(), endpoint: proxy.endpoint });
  // Counted by the proxy, outside the engine: what the server really has in flight.
  const counter = proxy.inFlight;
  const job = t.engine.upload(distant, { sources: [`${t.dir}/many`], bucket: t.bucket, destination: '' });

  const waitForObjects = (n: number) =>
    new Promise<void>((resolve) => {
      const stop = t.engine.onProgress((batch) => {
        if (batch.some((s) => s.id === job.id && s.progress.objectsDone >= n)) {
          stop();
          resolve();
        }
      });
    });

  await waitForObjects(50);
  const peakAtTwo = counter.peak;
  t.engine.updateSettings({ threads: 24 });
  counter.peak = 0;
  await waitForObjects(250);
  const peakAtTwentyFour = counter.peak;
  t.engine.updateSettings({ threads: 1 });
  await new Promise((resolve) => setTimeout(resolve, 200)); // let the 24 drain
  counter.peak = 0;
  await waitForObjects(job.snapshot().progress.objectsDone + 20);
  const peakAtOne = counter.peak;
  t.engine.updateSettings({ threads: 32 });
  const end = await job.finished();

  expect(end.state.status).toBe('completed');
  expect(end.progress.objectsDone).toBe(600);
  expect(peakAtTwo).toBe(2);
  expect(peakAtTwentyFour).toBeGreaterThan(16);
  expect(peakAtTwentyFour).toBeLessThanOrEqual(24);
  expect(peakAtOne).toBe(1);
});
