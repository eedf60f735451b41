// Links a browser follows to save one object with its own download ("Save to this computer").
//
// A browser starts a download by following a link (<a download>), which carries no Authorization
// header, and the access token must never be put in a URL (it would sit in the history and the
// downloads list). So a page that holds the token asks for a link over its socket
// (objects.saveLink), and gets a random name that stands for one object: used once, within a
// minute, then gone. Whoever learns a used or stale link learns nothing; a fresh one reads only the
// object it was made for, through the same host checks (its name, its origin) as every request.
// A link is spent once the store gives its object; one followed while the store fails (or the
// browser goes away first) is given back, so the browser's own Retry works within the minute.

import { randomBytes } from 'node:crypto';
import { BargeError } from '../engine/errors.ts';

/** How long a link waits to be followed: the page follows it at once. */
export const SAVE_LINK_TTL_MS = 60_000;
/** Links waiting at once, at most (a page asks for one per object it saves, in turn). */
export const MAX_WAITING_SAVE_LINKS = 1000;

export interface SavedObjectTarget {
  readonly connectionId: string;
  readonly bucket: string;
  readonly key: string;
  /** Fail the download rather than pass bytes that can be checked only for their size. */
  readonly requireVerified?: boolean;
}

/** A link being followed: no one else may follow it until it is given back. */
export interface TakenLink {
  readonly target: SavedObjectTarget;
  /** Its object was not sent (nothing went out): it may be followed again, until it would have expired. */
  giveBack(): void;
}

export class SaveLinks {
  private readonly waiting = new Map<string, { readonly target: SavedObjectTarget; readonly expires: number }>();
  private readonly now: () => number;
  private readonly ttlMs: number;

  constructor(options: { now?: () => number; ttlMs?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? SAVE_LINK_TTL_MS;
  }

  /** A new link's name for `target`; TooManySaveLinks while a thousand wait unfollowed. */
  offer(target: SavedObjectTarget): string {
    this.dropExpired();
    if (this.waiting.size >= MAX_WAITING_SAVE_LINKS)
      throw new BargeError(
        'TooManySaveLinks',
        'Too many objects are waiting to be saved through this browser: let the downloads start, then save the rest.',
      );
    const name = randomBytes(24).toString('base64url');
    this.waiting.set(name, { target, expires: this.now() + this.ttlMs });
    return name;
  }

  /** What a link stands for, once: undefined for a link unknown, followed already (or being followed), or stale. */
  take(name: string): TakenLink | undefined {
    const link = this.waiting.get(name);
    this.waiting.delete(name);
    if (!link || link.expires <= this.now()) return undefined;
    return {
      target: link.target,
      giveBack: () => {
        if (link.expires > this.now()) this.waiting.set(name, link);
      },
    };
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [name, link] of this.waiting) if (link.expires <= now) this.waiting.delete(name);
  }
}
