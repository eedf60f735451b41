// One object's details, shown in a dialog, and presigned links to objects.

import { create } from 'zustand';
import type { ObjectDetails } from '../../src/contract/models.ts';
import type { Answered } from '../../src/object-stat.ts';
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
  /** The object's tags, or why the store gives none ("not available: ..."); undefined until asked. */
  readonly tags: Answered<Readonly<Record<string, string>>> | undefined;
  /** A metadata and tags edit being saved (a copy of the object onto itself). */
  readonly saving: boolean;
  show(target: DetailsTarget): Promise<void>;
  /** Replace the object's metadata and tags with these (each whole); true once the store has them. */
  saveLabels(metadata: Record<string, string>, tags: Record<string, string>): Promise<boolean>;
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
  tags: undefined,
  saving: false,

  async show(target) {
    set({ target, details: undefined, link: undefined, error: undefined, tags: undefined, saving: false });
    // Tags are a question of their own, which many stores refuse: said in the dialog, never its failure.
    void request('objects.stat', { ...target }).then(
      (stat) => {
        if (get().target === target) set({ tags: stat.tags });
      },
      () => undefined,
    );
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

  async saveLabels(metadata, tags) {
    const target = get().target;
    if (!target) return false;
    set({ saving: true, error: undefined });
    try {
      const stat = await request('objects.editLabels', { ...target, metadata, tags });
      if (get().target !== target) return false;
      const details = get().details;
      set({
        saving: false,
        tags: stat.tags,
        details: details && { ...details, metadata: stat.metadata, etag: stat.etag, lastModified: stat.lastModified },
      });
      return true;
    } catch (error) {
      if (get().target === target) set({ saving: false, error: (error as Error).message });
      return false;
    }
  },

  close() {
    set({ target: undefined, details: undefined, link: undefined, error: undefined, tags: undefined });
  },
}));
