// One object's details, shown in a dialog, and presigned links to objects.

import { create } from 'zustand';
import type { ObjectDetails } from '../../src/contract/models.ts';
import { request } from './api.ts';

/** How long a copied link stays valid, unless the details dialog's choice says otherwise. */
export const LINK_VALID_SECONDS = 3600;

/** The lifetimes a link may be given: S3 signs none longer than seven days. */
export const LINK_LIFETIMES: readonly { readonly seconds: number; readonly label: string }[] = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 24 * 3600, label: '1 day' },
  { seconds: 7 * 24 * 3600, label: '7 days' },
];

/** A presigned link to an object, valid `expiresInSeconds`. */
export async function presign(
  connectionId: string,
  bucket: string,
  key: string,
  expiresInSeconds = LINK_VALID_SECONDS,
): Promise<string> {
  const { url } = await request('objects.presign', { connectionId, bucket, key, expiresInSeconds });
  return url;
}

/** Put text on the clipboard; a refusal (no permission, window not focused) is not an error. */
export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text).catch(() => undefined);
}

export interface DetailsTarget {
  readonly connectionId: string;
  readonly bucket: string;
  readonly key: string;
}

interface DetailsState {
  /** The object whose details are shown; undefined when the dialog is closed. */
  readonly target: DetailsTarget | undefined;
  readonly details: ObjectDetails | undefined;
  readonly link: string | undefined;
  /** How long the next link is valid. */
  readonly linkSeconds: number;
  readonly error: string | undefined;
  show(target: DetailsTarget): Promise<void>;
  setLinkSeconds(seconds: number): void;
  copyLink(): Promise<void>;
  close(): void;
}

export const useDetails = create<DetailsState>((set, get) => ({
  target: undefined,
  details: undefined,
  link: undefined,
  linkSeconds: LINK_VALID_SECONDS,
  error: undefined,

  async show(target) {
    set({ target, details: undefined, link: undefined, error: undefined });
    try {
      const details = await request('objects.details', {
        connectionId: target.connectionId,
        bucket: target.bucket,
        key: target.key,
      });
      if (get().target === target) set({ details });
    } catch (error) {
      if (get().target === target) set({ error: (error as Error).message });
    }
  },

  setLinkSeconds(seconds) {
    // A link already made keeps its own lifetime: it goes, so no one copies it thinking otherwise.
    set({ linkSeconds: seconds, link: undefined });
  },

  async copyLink() {
    const target = get().target;
    if (!target) return;
    try {
      const link = await presign(target.connectionId, target.bucket, target.key, get().linkSeconds);
      if (get().target === target) set({ link });
      await copyText(link);
    } catch (error) {
      if (get().target === target) set({ error: (error as Error).message });
    }
  },

  close() {
    set({ target: undefined, details: undefined, link: undefined, error: undefined });
  },
}));
