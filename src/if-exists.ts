// What a download does when its file is already there.

import { z } from 'zod';

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

/** "report (1).pdf", "report (2).pdf"…: the n-th free name beside `name`. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return `${stem} (${n})${ext}`;
}
