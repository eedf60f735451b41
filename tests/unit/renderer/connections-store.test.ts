import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnections } from '../../../renderer/store/connections-store.ts';
import { useFakeApi } from './fake-api.ts';

describe('connections actions', () => {
  const initial = useConnections.getState();
  beforeEach(() => {
    useConnections.setState({ ...initial, selectedId: 'c1' }, true);
    const kept = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => kept.set(k, v),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('tests the connection in use and says how many buckets it sees', async () => {
    const api = useFakeApi({ 'connections.test': { buckets: 3 } });
    const testing = useConnections.getState().test();
    expect(useConnections.getState().testStatus).toBe('Testing…');
    await testing;
    expect(api.calls).toEqual([{ method: 'connections.test', params: { id: 'c1' } }]);
    expect(useConnections.getState().testStatus).toBe('Connected: 3 buckets.');
  });

  it('says why a test failed, and forgets the verdict when another connection is picked', async () => {
    useFakeApi({ 'connections.test': new Error('The access key is not valid') });
    await useConnections.getState().test();
    expect(useConnections.getState().testStatus).toBe('The access key is not valid');
    useConnections.getState().select('c2');
    expect(useConnections.getState().testStatus).toBeUndefined();
  });

  it("uses the only connection there is (the demo store, the environment's), whatever was remembered; else keeps the one in use", async () => {
    const env = { id: 'env', name: 'Environment (AWS_*)', source: 'environment', hasSecret: true } as const;
    const host = { kind: 'web', defaultDownloadFolder: '/d', machineName: 'host' } as const;
    useFakeApi({ 'connections.list': [env], 'host.info': host });
    localStorage.setItem('barge.connection', 'gone');
    await useConnections.getState().load();
    expect(useConnections.getState().selectedId).toBe('env');
    useFakeApi({ 'connections.list': [env, { ...env, id: 'c1', name: 'saved', source: 'saved' }], 'host.info': host });
    useConnections.setState({ selectedId: 'c1' });
    await useConnections.getState().load();
    expect(useConnections.getState().selectedId).toBe('c1');
  });

  it('opens the connection form from anywhere (the empty browser offers it)', () => {
    useConnections.getState().openForm('new');
    expect(useConnections.getState().form).toBe('new');
    useConnections.getState().openForm(undefined);
    expect(useConnections.getState().form).toBeUndefined();
  });

  it('tests nothing without a connection', async () => {
    const api = useFakeApi({ 'connections.test': { buckets: 1 } });
    useConnections.setState({ selectedId: undefined });
    await useConnections.getState().test();
    expect(api.calls).toEqual([]);
    expect(useConnections.getState().testStatus).toBeUndefined();
  });

  it('asks the host for a folder to download into', async () => {
    const api = useFakeApi();
    api.picked = '/home/me/Downloads/photos';
    expect(await useConnections.getState().pickFolder('/home/me/Downloads')).toBe('/home/me/Downloads/photos');
    api.picked = undefined;
    expect(await useConnections.getState().pickFolder('/home/me/Downloads')).toBeUndefined();
    expect(api.calls).toEqual([
      { method: 'pickFolder', params: '/home/me/Downloads' },
      { method: 'pickFolder', params: '/home/me/Downloads' },
    ]);
  });
});
