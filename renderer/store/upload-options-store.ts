// The window's upload options (storage class, headers, metadata, tags, SSE), remembered per connection and bucket.
//
// Set for a bucket, they apply to uploads into it; set for a connection, to uploads into any of its
// buckets that has none of its own. Kept on this computer (localStorage) as the "If there" choice is:
// how this user stores objects in each place. Read back through the contract's schema, so a value an
// older build stored that is no option now is dropped, never sent.

import { create } from 'zustand';
import { hasUploadOptions, uploadOptionsSchema } from '../../src/upload-options.ts';
import type { UploadOptions } from '../../src/upload-options.ts';

const STORAGE_KEY = 'barge.uploads.options';

/** Where options are kept: a connection's every bucket, or one bucket of it. */
export function placeKey(connectionId: string, bucket?: string): string {
  return bucket === undefined ? connectionId : `${connectionId}\n${bucket}`;
}

interface UploadOptionsState {
  readonly byPlace: Readonly<Record<string, UploadOptions>>;
  /** What an upload into this bucket is stored with: the bucket's options, else the connection's. */
  optionsFor(connectionId: string, bucket: string): UploadOptions | undefined;
  /** Set (or, with undefined, clear) the options of a connection (no bucket) or of one bucket. */
  setOptions(connectionId: string, bucket: string | undefined, options: UploadOptions | undefined): void;
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // Storage refused: the options last the session.
  }
}

export function readStoredOptions(text: string | null): Record<string, UploadOptions> {
  const kept: Record<string, UploadOptions> = {};
  try {
    const stored: unknown = JSON.parse(text ?? '{}');
    if (typeof stored !== 'object' || stored === null) return kept;
    for (const [place, options] of Object.entries(stored)) {
      const parsed = uploadOptionsSchema.safeParse(options);
      if (parsed.success && hasUploadOptions(parsed.data)) kept[place] = parsed.data;
    }
  } catch {
    // Not JSON: nothing kept.
  }
  return kept;
}

export const useUploadOptions = create<UploadOptionsState>((set, get) => ({
  byPlace: readStoredOptions(storage()?.getItem(STORAGE_KEY) ?? null),
  optionsFor(connectionId, bucket) {
    const { byPlace } = get();
    return byPlace[placeKey(connectionId, bucket)] ?? byPlace[placeKey(connectionId)];
  },
  setOptions(connectionId, bucket, options) {
    const byPlace = { ...get().byPlace };
    const key = placeKey(connectionId, bucket);
    if (hasUploadOptions(options)) byPlace[key] = options;
    else delete byPlace[key];
    set({ byPlace });
    try {
      storage()?.setItem(STORAGE_KEY, JSON.stringify(byPlace));
    } catch {
      // Full or refused: the options still apply now.
    }
  },
}));
