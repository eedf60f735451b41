import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDetails } from '../../../renderer/store/details-store.ts';
import type { ObjectDetails } from '../../../src/contract/models.ts';
import { useFakeApi } from './fake-api.ts';

const target = { connectionId: 'c1', bucket: 'b', key: 'p/a.txt' };
const details: ObjectDetails = {
  key: 'p/a.txt',
  size: 5,
  etag: '"e"',
  contentType: 'text/plain',
  metadata: { owner: 'me' },
};

describe('details store', () => {
  const writeText = vi.fn(async (_text: string) => undefined);
  beforeEach(() => {
    useDetails.getState().close();
    writeText.mockClear();
    vi.stubGlobal('navigator', { clipboard: { writeText } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows an object: its details are fetched', async () => {
    const api = useFakeApi({ 'objects.details': details });
    const shown = useDetails.getState().show(target);
    expect(useDetails.getState().target).toBe(target);
    await shown;
    // The tags are asked apart (objects.stat), a question many stores refuse.
    expect(api.calls).toEqual([
      { method: 'objects.stat', params: { connectionId: 'c1', bucket: 'b', key: 'p/a.txt' } },
      { method: 'objects.details', params: { connectionId: 'c1', bucket: 'b', key: 'p/a.txt' } },
    ]);
    expect(useDetails.getState().details).toEqual(details);
    expect(useDetails.getState().error).toBeUndefined();
  });

  it('shows why the details could not be fetched, and nothing of a closed dialog', async () => {
    useFakeApi({ 'objects.details': new Error('Not found') });
    await useDetails.getState().show(target);
    expect(useDetails.getState().error).toBe('Not found');
    const late = useDetails.getState().show(target);
    useDetails.getState().close();
    await late;
    expect(useDetails.getState()).toMatchObject({ target: undefined, details: undefined, error: undefined });
  });

  it('copies a presigned link to the object shown, valid one hour, and shows it', async () => {
    const api = useFakeApi({ 'objects.details': details, 'objects.presign': { url: 'http://s3/b/p/a.txt?sig' } });
    await useDetails.getState().show(target);
    await useDetails.getState().copyLink();
    expect(api.calls.filter((call) => call.method === 'objects.presign')).toEqual([
      { method: 'objects.presign', params: { ...target, expiresInSeconds: 3600 } },
    ]);
    expect(useDetails.getState().link).toBe('http://s3/b/p/a.txt?sig');
    expect(writeText).toHaveBeenCalledWith('http://s3/b/p/a.txt?sig');
  });

  it("makes a link for the lifetime chosen (up to S3's seven days); a new choice drops the link made before", async () => {
    const api = useFakeApi({ 'objects.details': details, 'objects.presign': { url: 'http://s3/b/p/a.txt?sig' } });
    await useDetails.getState().show(target);
    await useDetails.getState().copyLink();
    expect(useDetails.getState().link).toBeDefined();
    useDetails.getState().setLinkSeconds(7 * 24 * 3600);
    expect(useDetails.getState().link).toBeUndefined();
    await useDetails.getState().copyLink();
    expect(api.calls.filter((call) => call.method === 'objects.presign')[1]).toEqual({
      method: 'objects.presign',
      params: { ...target, expiresInSeconds: 604_800 },
    });
    useDetails.getState().setLinkSeconds(3600);
  });

  it('shows why a link could not be made', async () => {
    useFakeApi({ 'objects.details': details, 'objects.presign': new Error('Presigning is off') });
    await useDetails.getState().show(target);
    await useDetails.getState().copyLink();
    expect(useDetails.getState()).toMatchObject({ link: undefined, error: 'Presigning is off' });
  });
});
