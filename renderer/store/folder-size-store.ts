// Calculate size: how much a folder (or a bucket) holds, per storage class, counted live in a dialog.
//
// The service counts a stretch of the listing per call (objects.size); the running totals show after
// each one, and Stop (or closing the dialog) simply asks for no more.

import { create } from 'zustand';
import { addPrefixSize, EMPTY_PREFIX_SIZE } from '../../src/prefix-size.ts';
import type { PrefixSize } from '../../src/prefix-size.ts';
import { request } from './api.ts';

export interface SizeTarget {
  readonly connectionId: string;
  readonly bucket: string;
  /** A folder's prefix ("logs/"), or "" for the whole bucket. */
  readonly prefix: string;
}

interface FolderSizeState {
  /** The folder being counted or counted; undefined when the dialog is closed. */
  readonly target: SizeTarget | undefined;
  readonly size: PrefixSize;
  readonly counting: boolean;
  /** Stopped before the end: the totals are what was counted so far. */
  readonly stopped: boolean;
  readonly error: string | undefined;
  /** Count the folder's objects and bytes, showing the totals as they grow (the window's one way in). */
  calculateSize(target: SizeTarget): Promise<void>;
  stop(): void;
  close(): void;
}

export const useFolderSize = create<FolderSizeState>((set, get) => ({
  target: undefined,
  size: EMPTY_PREFIX_SIZE,
  counting: false,
  stopped: false,
  error: undefined,

  async calculateSize(target) {
    set({ target, size: EMPTY_PREFIX_SIZE, counting: true, stopped: false, error: undefined });
    // A count goes on only while its dialog shows it: another folder, Stop or Close end it.
    const current = () => get().target === target && get().counting;
    try {
      do {
        const stretch = await request('objects.size', { ...target, token: get().size.nextToken });
        if (!current()) return;
        set({ size: addPrefixSize(get().size, stretch) });
      } while (get().size.nextToken !== undefined);
      if (current()) set({ counting: false });
    } catch (error) {
      if (current()) set({ counting: false, error: (error as Error).message });
    }
  },

  stop() {
    if (get().counting) set({ counting: false, stopped: true });
  },

  close() {
    set({ target: undefined, counting: false });
  },
}));
