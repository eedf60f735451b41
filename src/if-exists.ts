// What a download does when its file is already there.

import { z } from 'zod';
import { cutToBytes, MAX_NAME_BYTES, utf8Bytes } from './file-name-bytes.ts';

export const ifExistsSchema = z.enum(['ask', 'overwrite', 'skip', 'rename', 'newer', 'fail']);
export type IfExists = z.infer<typeof ifExistsSchema>;

/** The answers to "this file is already there": what the window offers for each one. */
export const conflictChoiceSchema = z.enum(['overwrite', 'skip', 'rename', 'newer']);
export type ConflictChoice = z.infer<typeof conflictChoiceSchema>;

export const IF_EXISTS_LABELS: Readonly<Record<IfExists, string>> = {
  ask: 'Ask me for each one',
  fail: 'Stop and say so (fail that file)',
  overwrite: 'Overwrite it',
  skip: 'Skip it',
  rename: 'Keep both (save as "name (1).ext")',
  newer: 'Overwrite it only if the object is newer',
};

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
