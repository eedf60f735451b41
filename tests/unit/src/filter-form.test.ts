import { describe, expect, it } from 'vitest';
import { EMPTY_FILTER_FIELDS, readFilterFields } from '../../../src/filter-form.ts';
import type { FilterFields } from '../../../src/filter-form.ts';
import { parseObjectFilter, splitGlobList } from '../../../src/object-filter.ts';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const DAY_MS = 86_400_000;
const read = (fields: Partial<FilterFields>) => readFilterFields({ ...EMPTY_FILTER_FIELDS, ...fields }, NOW);

describe("the delete dialog's filter fields", () => {
  it('are no filter while empty or blank', () => {
    expect(read({})).toEqual({ ok: true, filter: undefined });
    expect(read({ olderThan: '  ', include: ' , ' })).toEqual({ ok: true, filter: undefined });
  });

  it('read the same values as the flags: ages, dates, sizes, classes, globs', () => {
    expect(
      read({
        olderThan: '90d',
        newerThan: '2026-01-01',
        largerThan: '1GiB',
        smallerThan: '5GB',
        storageClass: 'standard_ia, glacier',
        include: '*.gz, 2024-*/*',
        exclude: 'tmp/*',
      }),
    ).toEqual({
      ok: true,
      filter: {
        modifiedBefore: NOW - 90 * DAY_MS,
        modifiedAfter: Date.parse('2026-01-01T00:00:00Z'),
        largerThan: 1024 ** 3,
        smallerThan: 5e9,
        storageClasses: ['STANDARD_IA', 'GLACIER'],
        include: ['*.gz', '2024-*/*'],
        exclude: ['tmp/*'],
      },
    });
    expect(read({ olderThan: '12h' })).toEqual({ ok: true, filter: { modifiedBefore: NOW - 12 * 3_600_000 } });
  });

  it('refuse a date in the future with the rule, naming the field by its label', () => {
    expect(read({ olderThan: '2027-01-01' })).toEqual({
      ok: false,
      problem:
        'Older than 2027-01-01 is in the future: every object is older than that. Give a past date or an age ' +
        'such as 90d.',
    });
    expect(read({ newerThan: '2030-05-01T10:00Z' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^Newer than 2030-05-01T10:00Z is in the future: no object is newer/),
    });
  });

  it('refuse values the flags refuse, each with the forms it takes', () => {
    expect(read({ largerThan: '1 parsec' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^Larger than takes a size such as 1GiB, 500MB, 10KiB or 4096 \(bytes\)/),
    });
    expect(read({ olderThan: 'yesterday' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^Older than takes an age such as 90d, 12h/),
    });
    expect(read({ storageClass: 'COLD' })).toMatchObject({ ok: false, problem: expect.stringMatching(/not "COLD"/) });
    expect(read({ largerThan: '10', smallerThan: '11' })).toMatchObject({
      ok: false,
      problem: 'Larger than 10 and Smaller than 11 leave no size between them: nothing could match.',
    });
    expect(read({ smallerThan: '0' })).toMatchObject({ ok: false, problem: expect.stringMatching(/^Smaller than 0/) });
  });
});

describe('globs typed in one field', () => {
  it('split at commas, the spaces after them and empty ones dropped', () => {
    expect(splitGlobList('*.tmp, *.log,,cache/* ')).toEqual(['*.tmp', '*.log', 'cache/*']);
    expect(splitGlobList('')).toEqual([]);
  });
});

it('the flags keep their own names in the refusals', () => {
  expect(() => parseObjectFilter({ olderThan: '2027-01-01' }, NOW)).toThrow(/^--older-than 2027-01-01 is in the/);
});
