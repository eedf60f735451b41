// A path or address shown whole where it fits, else shortened in the middle (middle-path.ts), with
// the whole of it in a tooltip. Isolated (<bdi>) and escaped as Name.tsx shows every name.

import { printable } from '../../src/unsafe-text.ts';
import { splitForMiddle } from '../middle-path.ts';

export function MiddlePath({ text }: { text: string }) {
  // Split before escaping: an escape such as \u202e is never cut in two.
  const { head, tail } = splitForMiddle(text);
  return (
    <bdi className="middle-path" title={printable(text)}>
      <span className="middle-path-head">{printable(head)}</span>
      <span className="middle-path-tail">{printable(tail)}</span>
    </bdi>
  );
}
