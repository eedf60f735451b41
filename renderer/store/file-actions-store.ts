// The window's file actions within one connection: new folder, rename, copy to and move to (by the
// picker, the context menu or a drag). Each is one service call: objects.makeFolder, or jobs.copy
// through the jobs store (a rename is a move to a new name), so the window adds no logic of its own.
//
// A move empties folders the browser may have on screen, where the job's own bucket and prefix (its
// destination) say nothing: the folder on screen is listed again when one of the moves started here
// completes.
//
// Nothing is replaced without the user's word: every copy and move sends ifExists "fail" unless the
// user chose Replace, so an object already at the target fails that item ("already there: it was
// kept") and a move keeps its source. A rename asks first (renameTargetTaken) and offers Replace.

import { create } from 'zustand';
import { copyPlacesProblem, copyTargetKey } from '../../src/copy-targets.ts';
import type { RowRef } from './browser-store.ts';
import { useBrowser } from './browser-store.ts';
import { request } from './api.ts';
import { onJobsCompleted, useJobs } from './jobs-store.ts';

/** Keys a folder's rename preview shows; past them it says there are more. */
export const RENAME_PREVIEW_KEYS = 20;

/** What a copy or move acts on: objects by key, folders by prefix, all in one bucket. */
export interface CopySources {
  readonly connectionId: string;
  readonly bucket: string;
  readonly keys: readonly string[];
  readonly prefixes: readonly string[];
}

/** Selected rows as what a copy acts on: objects by key, folders by prefix. */
export function copySources(connectionId: string, bucket: string, selected: readonly RowRef[]): CopySources {
  return {
    connectionId,
    bucket,
    keys: selected.filter((r) => r.kind === 'object').map((r) => r.key),
    prefixes: selected.filter((r) => r.kind === 'folder').map((r) => r.key),
  };
}

export interface RenamePreview {
  /** The first keys the rename moves, each with the key it becomes. */
  readonly moves: readonly { readonly from: string; readonly to: string }[];
  /** More keys are below the folder than `moves` shows. */
  readonly more: boolean;
}

/** A folder's subfolders, one page (a picker shows the first thousand; past them it says there are more). */
export interface PickerFolders {
  readonly prefixes: readonly string[];
  readonly more: boolean;
}

interface FileActionsState {
  /** What the last drop did not do, and why (shown until the next drop or dismissed). */
  readonly dropProblem: string | undefined;
  /** Dropped sources copied (or moved) into `destination` of `bucket`: refused in words if that cannot be. */
  drop(sources: CopySources, bucket: string, destination: string, move: boolean): Promise<void>;
  dismissDropProblem(): void;
  /** Make the empty folder `name` in `prefix` of `bucket`; the folder on screen is listed again. Rejects with why. */
  makeFolder(connectionId: string, bucket: string, prefix: string, name: string): Promise<string>;
  /** What renaming folder `folder` (a prefix) to `name` moves: its first keys, each with its new key. */
  renamePreview(connectionId: string, bucket: string, folder: string, name: string): Promise<RenamePreview>;
  /** Whether renaming `row` of `prefix` to `name` meets something there: the object, or any key in the folder. */
  renameTargetTaken(connectionId: string, bucket: string, prefix: string, row: RowRef, name: string): Promise<boolean>;
  /**
   * Rename one object or folder of `prefix` to `name`: a move job. Rejects with why. `replace`: the user
   * chose to replace what is there; else an object already there is kept and its source stays.
   */
  rename(
    connectionId: string,
    bucket: string,
    prefix: string,
    row: RowRef,
    name: string,
    replace?: boolean,
  ): Promise<void>;
  /**
   * Copy (or move) the sources into folder `destination` ("" the top, else ending in "/") of `bucket`.
   * An object already at a target is kept (that item fails, a move keeps its source) unless `replace`.
   */
  copyTo(sources: CopySources, bucket: string, destination: string, move: boolean, replace?: boolean): Promise<void>;
  /** The subfolders of `prefix` in `bucket`, for the picker. */
  folders(connectionId: string, bucket: string, prefix: string): Promise<PickerFolders>;
}

/** Moves started here, by job ID: their source bucket, listed again when they complete. */
const moves = new Map<string, string>();
onJobsCompleted((jobs) => {
  const browser = useBrowser.getState();
  for (const job of jobs) {
    const source = moves.get(job.id);
    if (source === undefined) continue;
    moves.delete(job.id);
    if (source === browser.bucket) void browser.reload();
  }
});

export const useFileActions = create<FileActionsState>((set, get) => ({
  dropProblem: undefined,

  async drop(sources, bucket, destination, move) {
    const verb = move ? 'move' : 'copy';
    const places = { ...sources, sourceBucket: sources.bucket, bucket, destination };
    const problem =
      sources.connectionId !== useBrowser.getState().connectionId
        ? `These objects are in another connection: a drag copies or moves within one connection.`
        : copyPlacesProblem(places, verb);
    set({ dropProblem: problem });
    if (problem) return;
    try {
      await get().copyTo(sources, bucket, destination, move);
    } catch (error) {
      set({ dropProblem: (error as Error).message });
    }
  },

  dismissDropProblem() {
    set({ dropProblem: undefined });
  },

  async makeFolder(connectionId, bucket, prefix, name) {
    const { key } = await request('objects.makeFolder', { connectionId, bucket, prefix, name });
    const browser = useBrowser.getState();
    if (browser.connectionId === connectionId && browser.bucket === bucket && browser.prefix === prefix)
      await browser.reload();
    return key;
  },

  async renamePreview(connectionId, bucket, folder, name) {
    const page = await request('objects.list', {
      connectionId,
      bucket,
      prefix: folder,
      recursive: true,
      pageSize: RENAME_PREVIEW_KEYS,
    });
    const spec = { sourceBucket: bucket, bucket, destination: `${parentPrefix(folder)}${name}` };
    return {
      moves: page.objects.map((o) => ({ from: o.key, to: copyTargetKey(spec, o.key, folder) })),
      more: page.nextToken !== undefined,
    };
  },

  async renameTargetTaken(connectionId, bucket, prefix, row, name) {
    // The first key listed under a prefix is the prefix itself when it is a key ("b.txt" before "b.txt.bak").
    const target = `${prefix}${name}${row.kind === 'folder' ? '/' : ''}`;
    const page = await request('objects.list', { connectionId, bucket, prefix: target, recursive: true, pageSize: 1 });
    const first = page.objects[0]?.key;
    return row.kind === 'folder' ? first !== undefined : first === target;
  },

  async rename(connectionId, bucket, prefix, row, name, replace = false) {
    const job = await useJobs.getState().copy({
      connectionId,
      sourceBucket: bucket,
      ...(row.kind === 'folder' ? { prefixes: [row.key] } : { keys: [row.key] }),
      bucket,
      destination: `${prefix}${name}`,
      move: true,
      ifExists: replace ? 'overwrite' : 'fail',
    });
    moves.set(job.id, bucket);
  },

  async copyTo(sources, bucket, destination, move, replace = false) {
    const job = await useJobs.getState().copy({
      connectionId: sources.connectionId,
      sourceBucket: sources.bucket,
      keys: [...sources.keys],
      prefixes: [...sources.prefixes],
      bucket,
      destination,
      move,
      ifExists: replace ? 'overwrite' : 'fail',
    });
    if (move) moves.set(job.id, sources.bucket);
  },

  async folders(connectionId, bucket, prefix) {
    const page = await request('objects.list', { connectionId, bucket, prefix, pageSize: 1000 });
    return { prefixes: page.prefixes, more: page.nextToken !== undefined };
  },
}));

/** The prefix a folder is in ("a/b/" → "a/", "a/" → ""). */
function parentPrefix(folder: string): string {
  const trimmed = folder.slice(0, -1);
  return trimmed.includes('/') ? trimmed.slice(0, trimmed.lastIndexOf('/') + 1) : '';
}
