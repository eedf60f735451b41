// Show versions: the versions and delete markers of the folder on screen, and what can be done to one.
//
// The browser's folder is listed again with ListObjectVersions when the toggle is on (each key's
// newest first, its delete markers among them); the actions go to the service, and the folder is
// listed again (both views) once one has changed it. Whether the bucket keeps versions is asked once
// per bucket, so the toggle can say plainly where versioning was never enabled or is suspended.

import { create } from 'zustand';
import type { BucketVersioning, ObjectVersionRow } from '../../src/contract/models.ts';
import { request } from './api.ts';
import { useBrowser } from './browser-store.ts';

/** The folder whose versions are on screen. */
export interface VersionsPlace {
  readonly connectionId: string;
  readonly bucket: string;
  readonly prefix: string;
}

/** A row of the versions table: a folder at this level, or one version or delete marker of a key. */
export type VersionsRow =
  { readonly kind: 'folder'; readonly key: string } | ({ readonly kind: 'version' } & ObjectVersionRow);

interface VersionsState {
  /** The toggle: versions shown in place of the objects. */
  readonly showing: boolean;
  readonly place: VersionsPlace | undefined;
  readonly rows: readonly VersionsRow[];
  readonly loading: boolean;
  readonly error: string | undefined;
  /** What the last action did, or why it failed: said in the status line. */
  readonly notice: string | undefined;
  /** Each bucket's versioning, as the store said it ("connectionId\0bucket"); undefined: not known (yet). */
  readonly versioning: Readonly<Record<string, BucketVersioning | 'unknown'>>;
  /** Ask (once) whether a bucket keeps versions. */
  learnVersioning(connectionId: string, bucket: string): Promise<void>;
  setShowing(showing: boolean, place: VersionsPlace | undefined): void;
  /** List the versions of `place` (again), replacing what is on screen once the first page is in. */
  load(place: VersionsPlace): Promise<void>;
  /** Copy this version over its key, as the latest. */
  restore(row: ObjectVersionRow): Promise<void>;
  /** Delete this version (or delete marker) for good. */
  deleteVersion(row: ObjectVersionRow): Promise<void>;
  /** Remove the key's latest delete marker (this one), so the version before it is the key's again. */
  undelete(row: ObjectVersionRow): Promise<void>;
  /** Download this version into the host's download folder, beside what is there (never over it). */
  download(row: ObjectVersionRow): Promise<void>;
}

/** The key the versioning map is kept by. */
export function versioningKey(connectionId: string, bucket: string): string {
  return `${connectionId}\u0000${bucket}`;
}

/** A version ID shortened for a sentence or a file name: letters, digits, ".", "_" and "-" only. */
export function shortVersion(versionId: string): string {
  const safe = versionId.replace(/[^A-Za-z0-9._-]/g, '');
  return safe.length > 12 ? safe.slice(0, 12) : safe || 'version';
}

/** "report.pdf" saved as version 3f2a… is "report (version 3f2a…).pdf": never the current one's name. */
export function versionFileName(key: string, versionId: string): string {
  const name = key.split('/').filter(Boolean).pop() ?? 'download';
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return `${stem} (version ${shortVersion(versionId)})${extension}`.slice(-255);
}

let generation = 0;

export const useVersions = create<VersionsState>((set, get) => {
  const placeOf = (): VersionsPlace => {
    const place = get().place;
    if (!place) throw new Error('No folder is showing its versions.');
    return place;
  };
  /** Run an action on one version, say what it did, and list the folder again (both views). */
  const act = async (done: string, run: (place: VersionsPlace) => Promise<unknown>) => {
    const place = placeOf();
    try {
      await run(place);
      set({ notice: done });
    } catch (error) {
      set({ notice: (error as Error).message });
    }
    await get().load(place);
    void useBrowser.getState().reload();
  };

  return {
    showing: false,
    place: undefined,
    rows: [],
    loading: false,
    error: undefined,
    notice: undefined,
    versioning: {},

    async learnVersioning(connectionId, bucket) {
      const key = versioningKey(connectionId, bucket);
      if (get().versioning[key] !== undefined) return;
      let state: BucketVersioning | 'unknown';
      try {
        state = await request('buckets.versioning', { connectionId, name: bucket });
      } catch {
        state = 'unknown';
      }
      set({ versioning: { ...get().versioning, [key]: state } });
    },

    setShowing(showing, place) {
      set({ showing, notice: undefined });
      if (showing && place) void get().load(place);
      else {
        generation += 1;
        set({ rows: [], place: undefined, loading: false, error: undefined });
      }
    },

    async load(place) {
      const mine = ++generation;
      set({ place, loading: true, error: undefined });
      const rows: VersionsRow[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await request('objects.versions', { ...place, token });
          if (mine !== generation) return;
          rows.push(
            ...page.prefixes.map((key) => ({ kind: 'folder' as const, key })),
            ...page.versions.map((v) => ({ kind: 'version' as const, ...v })),
          );
          token = page.nextToken;
          set({ rows: rows.slice() });
        } while (token !== undefined);
        set({ loading: false });
      } catch (error) {
        if (mine === generation) set({ loading: false, error: (error as Error).message });
      }
    },

    restore: (row) =>
      act(`Restored version ${shortVersion(row.versionId)} of ${row.key}: it is the latest now.`, (place) =>
        request('objects.restoreVersion', { ...withoutPrefix(place), key: row.key, versionId: row.versionId }),
      ),

    deleteVersion: (row) =>
      act(
        `Deleted ${row.isDeleteMarker ? 'the delete marker' : 'version'} ${shortVersion(row.versionId)} of ` +
          `${row.key} for good.`,
        (place) =>
          request('objects.deleteVersion', { ...withoutPrefix(place), key: row.key, versionId: row.versionId }),
      ),

    undelete: (row) =>
      act(`Undeleted ${row.key}: its delete marker is removed.`, (place) =>
        request('objects.undelete', { ...withoutPrefix(place), key: row.key, versionId: row.versionId }),
      ),

    async download(row) {
      const place = placeOf();
      try {
        const host = await request('host.info', {});
        const saveAs = versionFileName(row.key, row.versionId);
        await request('jobs.download', {
          ...withoutPrefix(place),
          keys: [row.key],
          versionId: row.versionId,
          targetFolder: host.defaultDownloadFolder,
          saveAs,
          // Beside a file of that name, never over it.
          ifExists: 'rename',
        });
        set({
          notice:
            `Downloading version ${shortVersion(row.versionId)} of ${row.key} as ${saveAs} in ` +
            `${host.defaultDownloadFolder}.`,
        });
      } catch (error) {
        set({ notice: (error as Error).message });
      }
    },
  };
});

function withoutPrefix(place: VersionsPlace): { connectionId: string; bucket: string } {
  return { connectionId: place.connectionId, bucket: place.bucket };
}
