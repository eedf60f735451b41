// Text as one word of a command a user is told to paste: quoted where a shell would read anything in
// it (a space, a glob, `$(...)`). Unsafe characters (unsafe-text.ts) never reach the screen as they
// are: a word holding one is written $'...', where bash and zsh read the escapes back as the very
// characters, so the pasted command names the same key.

import { unsafeCharacterIn } from './unsafe-text.ts';

/** In $'...' a backslash and a quote are escaped too. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\\': '\\\\',
  "'": "\\'",
};

export function shellWord(text: string): string {
  if (/^[\w./:@+-]+$/.test(text)) return text;
  if (unsafeCharacterIn(text) === undefined) return `'${text.replaceAll("'", "'\\''")}'`;
  const escaped = Array.from(text, (c) => (c in SHORT_ESCAPES || unsafeCharacterIn(c) ? ansiEscape(c) : c));
  return `$'${escaped.join('')}'`;
}

/** Words that follow a command's options: after "--" when one begins with "-", so none is read as an option. */
export function shellOperands(texts: readonly string[]): string {
  const words = texts.map(shellWord);
  return texts.some((text) => text.startsWith('-')) ? ['--', ...words].join(' ') : words.join(' ');
}

/** One character as $'...' writes it: \xHH is a byte there, so past ASCII a character is \uHHHH. */
function ansiEscape(c: string): string {
  const point = c.charCodeAt(0);
  const hex = (digits: number) => point.toString(16).padStart(digits, '0');
  return SHORT_ESCAPES[c] ?? (point < 0x80 ? `\\x${hex(2)}` : `\\u${hex(4)}`);
}
