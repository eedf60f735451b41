// barge speedtest's progress line on a terminal: the budget spent as a bar, the cell measured, the cells done.

import { expect, it } from 'vitest';
import { progressText } from '../../../../main/cli/commands/speedtest.ts';

const place = 's3://b/.barge-speedtest-20261126-120000-abcdef/';

it('draws the share of the budget spent, the cell it measures and how many cells are done', () => {
  expect(
    progressText({
      phase: 'measuring',
      fraction: 0.5,
      cellsDone: 35,
      cellsTotal: 70,
      cell: 'PUT 2 MiB objects, 64 threads',
      place,
    }),
  ).toBe('[############............] 50%  PUT 2 MiB objects, 64 threads  (35/70 cells)');
  expect(progressText({ phase: 'cleaning', fraction: 1, cellsDone: 70, cellsTotal: 70, place }, 60)).toBe(
    `[########################] 100%  Deleting the test objects in ${place}`.slice(0, 59),
  );
});
