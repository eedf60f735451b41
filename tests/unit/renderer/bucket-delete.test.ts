// Deleting a bucket from the window: emptied first when it is not empty, and the list kept true to
// the store (a bucket deleted here, by a job, or elsewhere leaves it).

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bucketContents } from '../../../renderer/components/BucketDeleteDialog.tsx';
import { useBrowser } from '../../../renderer/store/browser-store.ts';
import { jobSnapshot, useFakeApi } from './fake-api.ts';

describe('what an emptied bucket loses', () => {
  it('says its objects, or its versions where it keeps them, and its unfinished uploads', () => {
    expect(bucketContents(3, '12 B', 0, 'off')).toBe('3 objects (12 B)');
    expect(bucketContents(6, '1.0 KiB', 1, 'enabled')).toBe(
      '6 versions and delete markers (1.0 KiB) and 1 unfinished upload',
    );
    expect(bucketContents(1, '5 B', 0, 'suspended')).toBe('1 version or delete marker (5 B)');
    expect(bucketContents(0, '0 B', 2, undefined)).toBe('2 unfinished uploads');
  });
});

describe('bucket actions', () => {
  const initial = useBrowser.getState();
  beforeEach(() => {
    useBrowser.setState(
      { ...initial, connectionId: 'c1', buckets: [{ name: 'b' }, { name: 'gone' }], bucket: 'gone', prefix: 'p/' },
      true,
    );
  });

  it('starts Empty and delete as a job of the connection the dialog counted on, whichever is picked now', async () => {
    const api = useFakeApi({
      'buckets.emptyAndDelete': jobSnapshot('j1', { kind: 'delete', name: 'Empty and delete bucket gone' }),
    });
    expect(await useBrowser.getState().emptyAndDeleteBucket('c0', 'gone')).toMatchObject({
      id: 'j1',
      name: 'Empty and delete bucket gone',
    });
    expect(api.calls).toEqual([{ method: 'buckets.emptyAndDelete', params: { connectionId: 'c0', name: 'gone' } }]);
  });

  it('counts the unfinished uploads Empty and delete would abort, without aborting any', async () => {
    const upload = { key: 'k', uploadId: 'u' };
    const api = useFakeApi({ 'uploads.abortIncomplete': { aborted: [upload, upload], failed: [], younger: 0 } });
    expect(await useBrowser.getState().unfinishedUploads('c1', 'gone')).toBe(2);
    expect(api.calls[0]!.params).toMatchObject({ bucket: 'gone', prefix: '', dryRun: true });
  });

  it('closes the bucket on screen once the list no longer has it (deleted by a job, or elsewhere)', async () => {
    useFakeApi({ 'buckets.list': [{ name: 'b' }] });
    await useBrowser.getState().loadBuckets();
    expect(useBrowser.getState().buckets).toEqual([{ name: 'b' }]);
    expect(useBrowser.getState().bucket).toBeUndefined();
  });

  it('keeps the bucket on screen when the list could not be had', async () => {
    useFakeApi({ 'buckets.list': new Error('Access denied') });
    await useBrowser.getState().loadBuckets();
    expect(useBrowser.getState().bucket).toBe('gone');
  });

  it('lists the buckets again when a delete of a whole bucket completes', async () => {
    const api = useFakeApi({
      'buckets.list': [{ name: 'b' }],
      'objects.list': { objects: [], prefixes: [], nextToken: undefined },
    });
    useBrowser.getState().jobsCompleted([{ kind: 'delete', bucket: 'gone', prefix: '' }]);
    await vi.waitFor(() => expect(useBrowser.getState().bucket).toBeUndefined());
    expect(api.calls.map((c) => c.method)).toContain('buckets.list');
  });
});
