// A host others can reach refuses this machine's own addresses as endpoints, as it refuses loopback.
//
// A socket to the machine's own public IPv4 address, or any global IPv6 one, reaches its own
// services (past most firewalls): tried for real with 11.0.0.1 added to lo, a service on
// [::]:18199 answered the host's ListBuckets, and connections.check told its port open from a
// closed one. This machine has no such address, so its interfaces are given one of each.

import { mkdtemp, rm } from 'node:fs/promises';
import type os from 'node:os';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { BargeService } from '../../../../main/service/barge-service.ts';
import { createRuntime } from '../../../../main/service/runtime.ts';

const PUBLIC_V4 = '11.0.0.1';
const GLOBAL_V6 = '2a01:4f8:1:2::3';

vi.mock('node:os', async (importOriginal) => {
  const real = await importOriginal<typeof os>();
  const own = (address: string, family: 'IPv4' | 'IPv6') => ({
    address,
    family,
    netmask: family === 'IPv4' ? '255.255.255.0' : 'ffff:ffff:ffff:ffff::',
    mac: '02:00:00:00:00:01',
    internal: false,
    cidr: `${address}/${family === 'IPv4' ? 24 : 64}`,
  });
  const networkInterfaces = () =>
    ({ ...real.networkInterfaces(), eth7: [own(PUBLIC_V4, 'IPv4'), own(GLOBAL_V6, 'IPv6')] }) as ReturnType<
      typeof real.networkInterfaces
    >;
  return { ...real, networkInterfaces, default: { ...real, networkInterfaces } };
});

let reachable: BargeService;
let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'barge-own-addresses-'));
  reachable = await createRuntime({
    host: 'web',
    dataDir: path.join(root, 'data'),
    warn: () => undefined,
    journal: false,
    downloadRoot: path.join(root, 'dl'),
    refuseInternalEndpoints: true,
    env: {},
  });
});
afterEach(async () => {
  await reachable.close();
  await rm(root, { recursive: true, force: true });
});

it.each([`http://${PUBLIC_V4}:9000`, `http://[${GLOBAL_V6}]:9000`])(
  "refuses an endpoint on one of this machine's own addresses (%s), as it refuses loopback",
  async (endpoint) => {
    expect(
      await reachable.dispatch('connections.add', { name: 'self', endpoint, accessKeyId: 'A', secretAccessKey: 'B' }),
    ).toMatchObject({ ok: false, error: { code: 'EndpointRefused' } });
  },
);
