// What limits the running transfers now, under the overall throughput: the engine's readout in its
// own words (what it is, what would help), its figures in a smaller line. Nothing when nothing runs
// or no one thing dominates: the engine says nothing rather than guess, and so does the window.

import { Gauge } from 'lucide-react';
import type { LimitReadout as Readout } from '../../src/contract/models.ts';
import { LIMIT_NAMES } from '../../src/limit-names.ts';

export function LimitReadout({ limit }: { limit: Readout | undefined }) {
  if (!limit) return null;
  // "Latency-bound: requests spend…": the name is said in bold, the rest after it.
  const said = limit.words.slice(limit.words.indexOf(':') + 1).trim();
  const figures = limit.figures.map((figure) => figure.text).join(', ');
  return (
    <p className="limit-readout" role="note" aria-label="What limits the transfers" data-kind={limit.kind}>
      <Gauge size={14} aria-hidden />
      <span>
        Limited by <strong>{LIMIT_NAMES[limit.kind]}</strong>: {said}
        {figures && <span className="limit-figures"> ({figures})</span>}
      </span>
    </p>
  );
}
