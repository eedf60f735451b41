// Characters that must never reach a screen or a file name as they are, in one place: C0 and C1
// controls and DEL (they drive terminals: colours, the clipboard, the cursor; U+0085 and U+009B are
// a new line and a CSI to some of them), the bidirectional formatting characters (an override makes
// "invoice-\u202efdp.exe" read "invoice-exe.pdf"), and the line and paragraph separators (a new line
// to some readers, none to others). File names refuse them (key-path.ts, s3-names.ts); every output
// shows them escaped (errors, listings, receipts, CSV, notifications); the window isolates names.

const UNSAFE = '\\x00-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2028\\u2029\\u2066-\\u2069';
const UNSAFE_CHARACTER = new RegExp(`[${UNSAFE}]`);
const EVERY_UNSAFE_CHARACTER = new RegExp(`[${UNSAFE}]`, 'g');
const EVERY_UNSAFE_CHARACTER_OR_BACKSLASH = new RegExp(`[${UNSAFE}\\\\]`, 'g');
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' };

/**
 * The first unsafe character of `text`, said as a refusal says it ("a bidirectional formatting
 * character (\u202e)"), or undefined when it has none.
 */
export function unsafeCharacterIn(text: string): string | undefined {
  const found = UNSAFE_CHARACTER.exec(text)?.[0];
  if (found === undefined) return undefined;
  const kind = BIDI.test(found)
    ? 'a bidirectional formatting character'
    : found === '\u2028' || found === '\u2029'
      ? 'a line or paragraph separator'
      : 'a control character';
  return `${kind} (${escape(found)})`;
}

/**
 * `text` with every unsafe character shown as an escape (\x07, \n, \u202e): names from a bucket or
 * a disk must neither drive a terminal nor reorder the text of a message around them. Messages go
 * through this once, whole, as they leave the engine.
 */
export function printable(text: string): string {
  return text.replace(EVERY_UNSAFE_CHARACTER, escape);
}

/**
 * A name alone, as a listing shows it (one per line, for people and for scripts): escaped as
 * printable does, and a backslash doubled, so a key that holds "\n" as two characters is never
 * shown as one that holds a newline.
 */
export function printableName(name: string): string {
  return name.replace(EVERY_UNSAFE_CHARACTER_OR_BACKSLASH, escape);
}

/**
 * `value` as JSON whose every unsafe character is a \u escape: the very same value to a parser, and
 * nothing raw on a screen (JSON.stringify leaves C1 controls, bidi overrides and U+2028 as they are).
 */
export function printableJson(value: unknown): string {
  return JSON.stringify(value).replace(
    EVERY_UNSAFE_CHARACTER,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `text` without its unsafe characters: for a name that cannot carry an escape (a browser's file name). */
export function withoutUnsafeCharacters(text: string): string {
  return text.replace(EVERY_UNSAFE_CHARACTER, '');
}

function escape(c: string): string {
  const point = c.charCodeAt(0);
  return (
    SHORT_ESCAPES[c] ??
    (point < 0x100 ? `\\x${point.toString(16).padStart(2, '0')}` : `\\u${point.toString(16).padStart(4, '0')}`)
  );
}
