// A path shortened in the middle, as Finder and Cyberduck shorten it: the folders give way, the file
// name at its end stays. Cut at the end, "s3://bucket/photos/2024/summer/…" hid the one part that
// tells two rows apart.

/** A file name longer than this keeps its last TAIL_CHARS, so the folders before it still show a little. */
const LONGEST_WHOLE_NAME = 40;
const TAIL_CHARS = 24;

/**
 * `text` in two: the head, which the window shortens with "…" when the room runs out, and the tail
 * (the name at the end), which it never shortens. Joined, they are `text`. Split as it is (before
 * escaping, so no escape is cut in two), by code point; "\\" separates only in a path with no "/".
 */
export function splitForMiddle(text: string): { head: string; tail: string } {
  const separator = text.includes('/') ? '/' : '\\';
  const chars = Array.from(text);
  const slash = chars.lastIndexOf(separator, chars.length - 2);
  const name = chars.length - (slash + 1);
  const tailLength = name <= LONGEST_WHOLE_NAME ? name : TAIL_CHARS;
  return {
    head: chars.slice(0, chars.length - tailLength).join(''),
    tail: chars.slice(chars.length - tailLength).join(''),
  };
}
