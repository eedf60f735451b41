// Whether a delete can be undone, for the delete dialog's note: the bucket's versioning, read when the
// dialog opens, and turned on from there ("Turn on versioning first") when the operator wants a way back.

import { create } from 'zustand';
import type { BucketVersioning } from '../../src/contract/models.ts';
import { request } from './api.ts';

interface UndoNoteState {
  /** The bucket asked about. */
  readonly bucket: { readonly connectionId: string; readonly name: string } | undefined;
  /** Its versioning; undefined while asked, or when the store will not say. */
  readonly versioning: BucketVersioning | undefined;
  /** Versioning is being turned on. */
  readonly turningOn: boolean;
  /** Why the store would not say, or would not turn it on. */
  readonly error: string | undefined;
  read(connectionId: string, bucket: string): Promise<BucketVersioning | undefined>;
  /** Turn versioning on for the bucket asked about; resolves with its state after. */
  turnOn(): Promise<BucketVersioning | undefined>;
}

let generation = 0;

export const useUndoNote = create<UndoNoteState>((set, get) => ({
  bucket: undefined,
  versioning: undefined,
  turningOn: false,
  error: undefined,
  async read(connectionId, name) {
    const mine = ++generation;
    set({ bucket: { connectionId, name }, versioning: undefined, turningOn: false, error: undefined });
    try {
      const versioning = await request('buckets.versioning', { connectionId, name });
      if (mine === generation) set({ versioning });
      return versioning;
    } catch (error) {
      if (mine === generation) set({ error: (error as Error).message });
      return undefined;
    }
  },
  async turnOn() {
    const { bucket } = get();
    if (!bucket) return undefined;
    const mine = generation;
    set({ turningOn: true, error: undefined });
    try {
      const versioning = await request('buckets.setVersioning', { ...bucket, status: 'enabled' });
      if (mine === generation) set({ versioning, turningOn: false });
      return versioning;
    } catch (error) {
      if (mine === generation) set({ error: (error as Error).message, turningOn: false });
      return undefined;
    }
  },
}));
