// The items CSV (jobs.detailsCsv, Export CSV) and receipts neutralise a field that
// *starts* like a formula, and quote one that holds ";" or a tab too: Excel reads a .csv
// with the locale's list separator, which is ";" wherever the decimal mark is a comma (German,
// French, Dutch, ...), and LibreOffice's import offers ";" and tab: there a key such as
// `report;=cmd|' /C calc'!A0` becomes two cells, the second a formula. Keys are chosen by a store's
// other users. A field holding ";" or a tab must be quoted (and each part that starts like a formula
// made text), so that no reader splits it into a formula.

import { expect, it } from 'vitest';
import { formatItemsCsv } from '../../../src/job-items.ts';

/** The cells a reader splitting on `separator` (honouring quotes, as Excel does) gets from one CSV line. */
function cells(line: string, separator: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  out.push(cell);
  return out;
}

it('leaves no cell that starts like a formula, for a reader that splits on ";" or a tab', () => {
  const source = `s3://shared/report;=cmd|' /C calc'!A0\t=HYPERLINK(A1)`;
  const csv = [
    ...formatItemsCsv([
      { source, destination: '/home/me/Downloads/x', state: 'failed', code: 'AccessDenied', message: 'Access denied' },
    ]),
  ].join('');
  const line = csv.split('\n')[1]!;
  for (const separator of [',', ';', '\t']) {
    // Unquoted, ";" and tab would give "=cmd|' /C calc'!A0" and "=HYPERLINK(A1)" cells of their own.
    expect(cells(line, separator).filter((cell) => /^[=+\-@]/.test(cell))).toEqual([]);
  }
});
