// The order S3 lists keys in, for walking a folder beside a listing.

/**
 * S3's listing order: UTF-8 bytes, which is code point order. JavaScript compares UTF-16 units,
 * which puts a character above U+FFFF (two surrogates) before U+E000-U+FFFF; UTF-8 puts it after.
 */
export function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xSurrogate = x >= 0xd800 && x <= 0xdfff;
    const ySurrogate = y >= 0xd800 && y <= 0xdfff;
    if (xSurrogate !== ySurrogate) return xSurrogate ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
