// `barge cp --json` says what limited the run in its stats: the readout the engine named most often
// while it ran (many small uploads to a store 40 ms away, through toxiproxy: latency).

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { KIB } from '../../src/byte-units.ts';
import type { LimitReadout } from '../../src/contract/models.ts';
import { setUpEngine } from '../support/fixtures.ts';
import { runCli } from '../support/run-cli.ts';
import { startToxiproxy } from '../support/toxiproxy.ts';
import type { ToxiproxyProxy, ToxiproxyServer } from '../support/toxiproxy.ts';

let toxiproxyServer: ToxiproxyServer;
let toxiproxy: ToxiproxyProxy;
beforeAll(async () => {
  toxiproxyServer = await startToxiproxy();
  toxiproxy = await toxiproxyServer.createProxy('cli-limit', inject('s3').endpoint);
});
afterAll(async () => {
  await toxiproxyServer?.stop();
});

interface CpJson {
  readonly state: { readonly status: string };
  readonly stats: { readonly limit?: LimitReadout };
}

it('cp --json of many small files to a store 40 ms away says in its stats that latency limited it', async () => {
  const t = await setUpEngine();
  try {
    const folder = path.join(t.dir, 'small');
    await mkdir(folder);
    for (let index = 0; index < 300; index++)
      await writeFile(path.join(folder, `f${String(index).padStart(4, '0')}`), Buffer.alloc(4 * KIB, index % 251));
    await toxiproxy.addToxic('latency', { type: 'latency', attributes: { latency: 40 } }, { stream: 'downstream' });
    const run = await runCli(['cp', '-r', '--json', '--threads', '4', folder, `s3://${t.bucket}/up/`], {
      env: { AWS_ENDPOINT_URL: toxiproxy.endpoint },
    });
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as CpJson;
    expect(printed.state.status).toBe('completed');
    expect(printed.stats.limit?.kind).toBe('latency');
    expect(printed.stats.limit?.words).toMatch(/^Latency-bound: .*more threads would help/);
    const waitShare = printed.stats.limit?.figures.find((figure) => figure.name === 'waitShare');
    expect(waitShare?.value).toBeGreaterThan(0.6);
    expect(waitShare?.text).toMatch(/^\d+% of request time waiting for the store$/);
  } finally {
    await toxiproxy.removeAllToxics();
    await t.close();
  }
});
