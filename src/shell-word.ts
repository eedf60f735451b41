// Text as one word of a command a user is told to paste: quoted where a shell would read anything in
// it (a space, a glob, `$(...)`), its unsafe characters shown as escapes (unsafe-text.ts).

import { printable } from './unsafe-text.ts';

export function shellWord(text: string): string {
  const shown = printable(text);
  return /^[\w./:@+-]+$/.test(shown) ? shown : `'${shown.replaceAll("'", "'\\''")}'`;
}
