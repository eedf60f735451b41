// Text as one word of a command a user is told to paste: quoted where a shell would read anything in
// it (a space, a glob, `$(...)`). Unsafe characters (unsafe-text.ts) never reach the screen as they
// are: each is written $'\xHH', its UTF-8 bytes, which bash, zsh and mksh read back as that character
// in any locale, so the pasted command names the same key. The rest stays in plain '...' pieces: a
// shell without $'...' (dash, which is /bin/sh on Debian) reads "$" and the escapes as text, a wrong
// name, but still one word, and never a command. (A NUL cannot be pasted: no key or argument holds one.)

import { unsafeCharacterIn } from './unsafe-text.ts';

/** In $'...', the characters with a short escape. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export function shellWord(text: string): string {
  if (/^[\w./:@+-]+$/.test(text)) return text;
  if (text === '') return "''";
  // Runs of safe characters and runs of unsafe ones, each quoted its own way, side by side: one word.
  const runs: { unsafe: boolean; text: string }[] = [];
  for (const c of text) {
    const unsafe = unsafeCharacterIn(c) !== undefined;
    const last = runs.at(-1);
    if (last?.unsafe === unsafe) last.text += c;
    else runs.push({ unsafe, text: c });
  }
  return runs
    .map((run) =>
      run.unsafe
        ? `$'${Array.from(run.text, (c) => SHORT_ESCAPES[c] ?? utf8Escapes(c)).join('')}'`
        : `'${run.text.replaceAll("'", "'\\''")}'`,
    )
    .join('');
}

/** Words that follow a command's options: after "--" when one begins with "-", so none is read as an option. */
export function shellOperands(texts: readonly string[]): string {
  const words = texts.map(shellWord);
  return texts.some((text) => text.startsWith('-')) ? ['--', ...words].join(' ') : words.join(' ');
}

const utf8 = new TextEncoder();

/** A character as the \xHH escapes of its UTF-8 bytes (a window has no Buffer): \u would depend on the locale. */
function utf8Escapes(c: string): string {
  return [...utf8.encode(c)].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
}
