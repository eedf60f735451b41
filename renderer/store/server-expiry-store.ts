// The delete dialog's Expire on the server: the folders handed to the store's lifecycle engine, one
// rule each (buckets.expirePrefix), each as the store read it back. For a delete too big for one
// machine: the store expires the keys itself, in its own time.

import { create } from 'zustand';
import type { ExpiryOnServer } from '../../src/lifecycle-rules.ts';
import { request } from './api.ts';

interface ServerExpiryState {
  /** The rules being added now. */
  readonly adding: boolean;
  /** Each folder's rule as the store keeps it, in the order asked. */
  readonly added: readonly ExpiryOnServer[];
  /** Why a rule could not be added (the folders before it keep theirs: they are in `added`). */
  readonly error: string | undefined;
  /** Add the expiry rule of each folder in turn, stopping at the first the store refuses. */
  expire(connectionId: string, bucket: string, prefixes: readonly string[]): Promise<void>;
  /** Forget what was added (a new dialog). */
  reset(): void;
}

export const useServerExpiry = create<ServerExpiryState>((set) => ({
  adding: false,
  added: [],
  error: undefined,
  async expire(connectionId, bucket, prefixes) {
    set({ adding: true, added: [], error: undefined });
    const added: ExpiryOnServer[] = [];
    try {
      for (const prefix of prefixes) {
        added.push(await request('buckets.expirePrefix', { connectionId, name: bucket, prefix }));
        set({ added: [...added] });
      }
    } catch (error) {
      set({ error: (error as Error).message });
    } finally {
      set({ adding: false });
    }
  },
  reset() {
    set({ adding: false, added: [], error: undefined });
  },
}));
