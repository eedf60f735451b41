import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useConnections } from '../../../renderer/store/connections-store.ts';
import { useJobs } from '../../../renderer/store/jobs-store.ts';
import { startSession } from '../../../renderer/store/session.ts';
import { useSettings } from '../../../renderer/store/settings-store.ts';
import { useHostLink } from '../../../renderer/store/host-link-store.ts';
import { DEFAULT_SETTINGS } from '../../../src/settings.ts';
import { jobSnapshot, useFakeApi } from './fake-api.ts';

beforeEach(() => {
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    queueMicrotask(() => callback(0));
    return 1;
  });
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined });
});
afterEach(() => vi.unstubAllGlobals());
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

it('subscribes the stores to the engine, then loads jobs, settings and connections; stops on unsubscribe', async () => {
  const api = useFakeApi({
    'jobs.snapshot': [jobSnapshot('j1')],
    'settings.get': DEFAULT_SETTINGS,
    'connections.list': [{ id: 'env', name: 'Environment', source: 'environment', hasSecret: false }],
    'host.info': { kind: 'web', defaultDownloadFolder: '/srv/downloads', machineName: 'host' },
  });
  const stop = startSession();
  api.emit({ type: 'stats', stats: { activeRequests: 3, waitingRequests: 0, bytesPerSecond: 10 } });
  await settle();
  expect(api.calls.map((c) => c.method).sort()).toEqual([
    'connections.list',
    'host.info',
    'jobs.snapshot',
    'settings.get',
  ]);
  expect(useJobs.getState().stats?.activeRequests).toBe(3);
  expect(useJobs.getState().order).toEqual(['j1']);
  expect(useSettings.getState().settings).toEqual(DEFAULT_SETTINGS);
  expect(useConnections.getState()).toMatchObject({
    selectedId: 'env',
    host: { defaultDownloadFolder: '/srv/downloads' },
  });

  api.emit({ type: 'jobs-removed', ids: ['j1'] });
  expect(useJobs.getState().order).toEqual([]);
  stop();
  api.emit({ type: 'jobs', jobs: [jobSnapshot('j2')] });
  await settle();
  expect(useJobs.getState().order).toEqual([]);
});

it("when the host is lost the window says so at once; once it is back, the jobs shown are the host's own, as it brought them back", async () => {
  const snapshots = [
    [jobSnapshot('before-restart'), jobSnapshot('kept', { state: { status: 'running' } })],
    [jobSnapshot('kept', { state: { status: 'failed', error: { code: 'SlowDown', message: 'slow' } } })],
  ];
  const api = useFakeApi({
    'jobs.snapshot': () => snapshots.shift() ?? [],
    'settings.get': DEFAULT_SETTINGS,
    'connections.list': [],
    'host.info': {
      kind: 'web',
      defaultDownloadFolder: '/srv/downloads',
      machineName: 'host',
      startedBy: 'npm run demo',
    },
  });
  const stop = startSession();
  await settle();
  expect(useJobs.getState().order.slice().sort()).toEqual(['before-restart', 'kept']);
  api.link({ state: 'lost', nextTryAt: Date.now() + 1000 });
  expect(useHostLink.getState().link.state).toBe('lost');
  const calledBefore = api.calls.length;
  api.link({ state: 'connected' });
  await settle();
  expect(useHostLink.getState().link.state).toBe('connected');
  expect(api.calls.slice(calledBefore).map((c) => c.method)).toEqual(
    expect.arrayContaining(['jobs.snapshot', 'settings.get', 'connections.list', 'host.info']),
  );
  // A job the new host does not have is gone; one it brought back shows as it stood.
  expect(useJobs.getState().order).toEqual(['kept']);
  expect(useJobs.getState().jobs.get('kept')?.state.status).toBe('failed');
  stop();
});
