// XML entity decoding, for text read out of S3's XML bodies.
//
// The wire's own parser (keys, ETags, continuation tokens) and error messages (which can still carry
// "&#34;..&#34;" when a store's XML message reaches us raw) decode the same way, here.

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const LARGEST_CODE_POINT = 0x10ffff;

/**
 * Undo XML escaping: the five named entities and numeric references.
 *
 * Anything else (an unknown name, a number past Unicode's last code point) is left as written rather
 * than thrown over: a garbled message is still worth showing.
 */
export function decodeXmlEntities(text: string): string {
  // Most text has none (keys are URL-encoded): no regular expression run for each of a listing's fields.
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] !== '#') return NAMED_ENTITIES[entity.toLowerCase()] ?? whole;
    const point =
      entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
    return point <= LARGEST_CODE_POINT ? String.fromCodePoint(point) : whole;
  });
}
