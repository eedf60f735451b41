// What S3 accepts as bucket names and keys, checked before a request is sent so that the error
// says what is wrong instead of the server's bare "InvalidBucketName".

export const MAX_KEY_BYTES = 1024;

/**
 * Why `name` is not a valid bucket name, or undefined if it is.
 *
 * These are AWS's rules for new buckets (3-63 characters of lowercase letters, digits, dots and
 * hyphens, starting and ending with a letter or digit, no "..", not an IP address). Older buckets
 * and other stores can be laxer, so listing is not refused by this check, only creation.
 */
export function bucketNameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 63) return `must be 3 to 63 characters long (it has ${name.length})`;
  if (!/^[a-z0-9.-]+$/.test(name)) return 'may contain only lowercase letters, digits, dots (.) and hyphens (-)';
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name)) return 'must start and end with a letter or digit';
  if (name.includes('..')) return 'must not contain two dots in a row';
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return 'must not look like an IP address';
  return undefined;
}

/** The laxer check used where a bucket already exists: anything a URL path segment can hold. */
export function bucketReferenceProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (/[/\\\s]/.test(name)) return 'must not contain slashes or spaces';
  return undefined;
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** C0 control characters and DEL: S3 stores them, but XML 1.0 cannot carry most of them. */
const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;

/**
 * Why `key` cannot be an object key, or undefined if it can, with what to do about it.
 *
 * Control characters are refused although S3 stores them: listings without URL encoding cannot
 * carry them (XML 1.0 forbids most), and many tools and consoles show or fetch such keys wrongly.
 */
export function objectKeyProblem(key: string): string | undefined {
  if (key.length === 0) return 'is empty';
  const bytes = utf8Length(key);
  if (bytes > MAX_KEY_BYTES) return `is ${bytes} bytes long in UTF-8; S3 allows at most ${MAX_KEY_BYTES}: shorten the name or the destination prefix`;
  const control = CONTROL_CHARACTER.exec(key);
  if (control) return `contains a control character (${printable(control[0])}), which many S3 tools cannot list or show: rename the file`;
  return undefined;
}

/** Characters that must not reach a screen as they are: control characters and bidirectional overrides. */
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNPRINTABLE_OR_BACKSLASH = /[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\\]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' };

/**
 * `text` with every control character and bidirectional override shown as an escape (\x07, \n,
 * \u202e): names from a bucket or a disk must neither drive a terminal nor reorder the
 * text of a message around them. Messages go through this once, whole, as they leave the engine.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escape);
}

/**
 * A name alone, as a listing shows it (one per line, for people and for scripts): escaped as
 * printable does, and a backslash doubled, so a key that holds "\n" as two characters is never
 * shown as one that holds a newline.
 */
export function printableName(name: string): string {
  return name.replace(UNPRINTABLE_OR_BACKSLASH, escape);
}

function escape(c: string): string {
  const point = c.charCodeAt(0);
  return SHORT_ESCAPES[c] ?? (point < 0x100 ? `\\x${point.toString(16).padStart(2, '0')}` : `\\u${point.toString(16).padStart(4, '0')}`);
}
