import { beforeEach, describe, expect, it } from 'vitest';
import { shortVersion, useVersions, versionFileName } from '../../../renderer/store/versions-store.ts';
import type { ObjectVersionRow } from '../../../src/contract/models.ts';
import { useFakeApi } from './fake-api.ts';

const place = { connectionId: 'c1', bucket: 'b', prefix: 'docs/' };
const old: ObjectVersionRow = {
  key: 'docs/report.pdf',
  versionId: '3f2a9c1e-77aa-4b1c-9d0e-1234',
  size: 5,
  isLatest: false,
  isDeleteMarker: false,
};

describe('versions store', () => {
  beforeEach(() => useVersions.getState().setShowing(false, undefined));

  it('names a saved version beside the current file, never as it, with only safe characters', () => {
    expect(versionFileName('docs/report.pdf', old.versionId)).toBe('report (version 3f2a9c1e-77a).pdf');
    expect(versionFileName('notes', 'null')).toBe('notes (version null)');
    expect(shortVersion('../\u202e/x')).toBe('..x');
    expect(shortVersion('///')).toBe('version');
  });

  it('lists every page of the folder when shown, folders first on each page', async () => {
    const api = useFakeApi({
      'objects.versions': (params) =>
        params.token === undefined
          ? { versions: [old], prefixes: ['docs/sub/'], nextToken: 't2' }
          : { versions: [{ ...old, versionId: 'v2', isLatest: true }], prefixes: [] },
    });
    useVersions.getState().setShowing(true, place);
    await expect.poll(() => useVersions.getState().loading).toBe(false);
    expect(useVersions.getState().rows.map((row) => (row.kind === 'folder' ? row.key : row.versionId))).toEqual([
      'docs/sub/',
      old.versionId,
      'v2',
    ]);
    expect(api.calls.map((c) => c.params)).toEqual([
      { ...place, token: undefined },
      { ...place, token: 't2' },
    ]);
  });

  it('restores a version, says so, and lists the folder again; a refusal is said instead', async () => {
    const api = useFakeApi({
      'objects.versions': { versions: [old], prefixes: [] },
      'objects.restoreVersion': { size: 5 },
      'objects.list': { objects: [], prefixes: [] },
      'objects.undelete': new Error('s3://b/docs/report.pdf is not deleted: nothing was changed.'),
    });
    useVersions.getState().setShowing(true, place);
    await expect.poll(() => useVersions.getState().loading).toBe(false);
    await useVersions.getState().restore(old);
    expect(api.calls.find((c) => c.method === 'objects.restoreVersion')?.params).toEqual({
      connectionId: 'c1',
      bucket: 'b',
      key: 'docs/report.pdf',
      versionId: old.versionId,
    });
    expect(useVersions.getState().notice).toBe(
      'Restored version 3f2a9c1e-77a of docs/report.pdf: it is the latest now.',
    );
    expect(api.calls.filter((c) => c.method === 'objects.versions')).toHaveLength(2);
    await useVersions.getState().undelete(old);
    expect(useVersions.getState().notice).toBe('s3://b/docs/report.pdf is not deleted: nothing was changed.');
  });
});
