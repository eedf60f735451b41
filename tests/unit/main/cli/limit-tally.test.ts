import { expect, it } from 'vitest';
import { LimitTally } from '../../../../main/cli/limit-tally.ts';
import type { LimitKind, LimitReadout } from '../../../../src/contract/models.ts';

const readout = (kind: LimitKind, value = 0): LimitReadout => ({
  kind,
  words: kind,
  figures: [{ name: 'value', value, text: String(value) }],
});

it('names the limit read most often over the run, with its last figures, and the one read now', () => {
  const tally = new LimitTally();
  for (const reading of [undefined, readout('latency', 1), readout('cpu'), readout('latency', 2), undefined])
    tally.add(reading);
  expect(tally.mostNamed()).toEqual(readout('latency', 2));
  expect(tally.now).toBeUndefined();
  tally.add(readout('cpu'));
  expect(tally.now?.kind).toBe('cpu');
});

it('names none when no reading named one', () => {
  const tally = new LimitTally();
  tally.add(undefined);
  expect(tally.mostNamed()).toBeUndefined();
});
