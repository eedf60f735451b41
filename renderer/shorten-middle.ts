// A name too long for its room, shortened in the middle: "photos in s3://b/ → /home/…/Downloads/2024".
//
// The end of a job's name is where it goes (a folder, a bucket), and an ellipsis at the end cut it
// off at every width. The middle goes instead, a third of what is kept from the start and the rest
// from the end; cut between whole characters as a reader sees them (graphemes), never inside one.

const ELLIPSIS = '…';
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text` as it is when it fits, else the longest "start…end" that does (at least the ellipsis). */
export function shortenInMiddle(text: string, fits: (candidate: string) => boolean): string {
  if (fits(text)) return text;
  const parts = Array.from(graphemes.segment(text), (part) => part.segment);
  const kept = (count: number) => {
    const head = Math.ceil(count / 3);
    return `${parts.slice(0, head).join('')}${ELLIPSIS}${parts.slice(parts.length - (count - head)).join('')}`;
  };
  // The most characters kept that still fit: binary search, since fewer kept is never wider.
  let low = 0;
  let high = parts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(kept(middle))) low = middle;
    else high = middle - 1;
  }
  return kept(low);
}
