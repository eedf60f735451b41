// What a transfer does when its destination is already there: a file (a download) or an object (an
// upload). The answers are the same both ways; only the words differ.

import { z } from 'zod';
import { cutToBytes, MAX_NAME_BYTES, utf8Bytes } from './file-name-bytes.ts';
import type { ConflictSide } from './jobs.ts';

export const ifExistsSchema = z.enum(['ask', 'overwrite', 'skip', 'rename', 'newer', 'fail']);
export type IfExists = z.infer<typeof ifExistsSchema>;

/** The answers to "this is already there": what the window offers for each one. */
export const conflictChoiceSchema = z.enum(['overwrite', 'skip', 'rename', 'newer']);
export type ConflictChoice = z.infer<typeof conflictChoiceSchema>;

/** For a download: what becomes of a file already there. */
export const IF_EXISTS_LABELS: Readonly<Record<IfExists, string>> = {
  ask: 'Ask me for each one',
  fail: 'Stop and say so (fail that file)',
  overwrite: 'Overwrite it',
  skip: 'Skip it',
  rename: 'Keep both (save as "name (1).ext")',
  newer: 'Overwrite it only if the object is newer',
};

/** For an upload: what becomes of an object already there. */
export const IF_EXISTS_UPLOAD_LABELS: Readonly<Record<IfExists, string>> = {
  ask: 'Ask me for each one',
  fail: 'Stop and say so (fail that file)',
  overwrite: 'Replace it',
  skip: 'Skip it',
  rename: 'Keep both (upload as "name (1).ext")',
  newer: 'Replace it only if the file is newer',
};

/**
 * Whether `incoming` is newer than `present`, to whole seconds: stores keep Last-Modified to the
 * second (AWS lists ".000"), so a file uploaded within the second it was saved is not "newer" than
 * its own upload. Unknown dates are never newer: nothing is replaced on a guess.
 */
export function isNewer(incoming: number | undefined, present: number | undefined): boolean {
  if (incoming === undefined || present === undefined) return false;
  return Math.floor(incoming / 1000) > Math.floor(present / 1000);
}

/** What to do about one destination already there, once the answer is known. */
export type ExistsDecision =
  | { readonly act: 'replace' }
  | { readonly act: 'rename' }
  /** Keep what is there: as asked, because it is as new or newer, or because a date is unknown. */
  | { readonly act: 'keep'; readonly reason: 'asked' | 'not-newer' | 'date-unknown' }
  | { readonly act: 'fail' }
  | { readonly act: 'ask' };

/**
 * The decision for `choice` about what is there (`present`) and what would replace it (`incoming`).
 * `newer` replaces only what is older by a whole second; an unknown date keeps what is there.
 */
export function decideIfExists(choice: IfExists, present: ConflictSide, incoming: ConflictSide): ExistsDecision {
  switch (choice) {
    case 'overwrite':
      return { act: 'replace' };
    case 'rename':
      return { act: 'rename' };
    case 'fail':
      return { act: 'fail' };
    case 'ask':
      return { act: 'ask' };
    case 'skip':
      return { act: 'keep', reason: 'asked' };
    case 'newer':
      if (isNewer(incoming.modifiedAt, present.modifiedAt)) return { act: 'replace' };
      return {
        act: 'keep',
        reason: present.modifiedAt === undefined || incoming.modifiedAt === undefined ? 'date-unknown' : 'not-newer',
      };
  }
}

/**
 * "report (1).pdf", "report (2).pdf"…: the n-th free name beside `name`. It fits wherever `name`
 * fits: a name near 255 bytes has its stem cut (at a character boundary) to leave room for " (n)",
 * the extension kept; an extension too long to keep is cut with the rest.
 */
export function numberedName(name: string, n: number): string {
  const number = ` (${n})`;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const room = MAX_NAME_BYTES - utf8Bytes(number);
  if (utf8Bytes(stem) + utf8Bytes(ext) <= room) return `${stem}${number}${ext}`;
  if (utf8Bytes(ext) < room) return `${cutToBytes(stem, room - utf8Bytes(ext))}${number}${ext}`;
  return `${cutToBytes(name, room)}${number}`;
}

/**
 * A key with its last segment numbered as `numberedName` numbers a file ("docs/a (1).txt"), so the
 * copy kept beside an object downloads under a name that fits on disk. A segment longer than any
 * file name (no file could be saved under it anyway) is numbered without being cut.
 */
export function numberedKey(key: string, n: number): string {
  const slash = key.lastIndexOf('/');
  const [folder, name] = [key.slice(0, slash + 1), key.slice(slash + 1)];
  if (utf8Bytes(name) <= MAX_NAME_BYTES) return `${folder}${numberedName(name, n)}`;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${folder}${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${folder}${name} (${n})`;
}
