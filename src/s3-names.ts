// What S3 accepts as bucket names and keys, checked before a request is sent so that the error
// says what is wrong instead of the server's bare "InvalidBucketName".

import { unsafeCharacterIn } from './unsafe-text.ts';

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

/** The longest bucket name any store takes (AWS's legacy names in us-east-1; Ceph's relaxed names). */
const MAX_LEGACY_BUCKET_NAME = 255;

/**
 * The laxer check used where a bucket already exists, before any request: what no store takes as a bucket name.
 *
 * Older AWS buckets and laxer stores (Ceph's relaxed names) hold upper case and underscores, up to 255
 * characters; nothing else (the aws CLI's own check). A name inside this but outside AWS's rule for new buckets
 * is tried, and the store's refusal says that rule (errors.ts).
 */
export function bucketReferenceProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > MAX_LEGACY_BUCKET_NAME)
    return `is ${name.length} characters long; no store takes more than ${MAX_LEGACY_BUCKET_NAME}`;
  if (!/^[A-Za-z0-9._-]+$/.test(name))
    return 'may contain only letters, digits, dots (.), hyphens (-) and underscores (_)';
  return undefined;
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Why `key` (or a prefix) is longer than any key S3 takes, or undefined: its limit is in bytes of UTF-8, not characters
 * ("é" is two).
 */
export function keyBytesProblem(key: string): string | undefined {
  // At most 3 bytes per UTF-16 unit: a short text is known to fit without encoding it.
  if (key.length <= MAX_KEY_BYTES / 3) return undefined;
  const bytes = utf8Length(key);
  return bytes > MAX_KEY_BYTES ? `is ${bytes} bytes long in UTF-8; S3 allows at most ${MAX_KEY_BYTES}` : undefined;
}

/**
 * Why `key` cannot be an object key, or undefined if it can, with what to do about it.
 *
 * Control characters, bidirectional formatting characters and line separators are refused although
 * S3 stores them (unsafe-text.ts): listings without URL encoding cannot carry most controls (XML
 * 1.0 forbids them), many tools and consoles show or fetch such keys wrongly, and a bidi override
 * makes a name read as another.
 */
export function objectKeyProblem(key: string): string | undefined {
  if (key.length === 0) return 'is empty';
  const tooLong = keyBytesProblem(key);
  if (tooLong) return `${tooLong}: shorten the name or the destination prefix`;
  const unsafe = unsafeCharacterIn(key);
  if (unsafe) return `contains ${unsafe}, which many S3 tools cannot list or show: rename the file`;
  return undefined;
}
