import { describe, expect, it } from 'vitest';
import {
  describeFilter,
  filterBase,
  FilterProblem,
  globMatches,
  globMayMatchBelow,
  hasWildcard,
  nothingMatched,
  objectMatcher,
  parseInstant,
  parseObjectFilter,
  parseSizeLimit,
  parseStorageClasses,
  wildcardPrefix,
} from '../../../src/object-filter.ts';
import type { FilterableObject } from '../../../src/object-filter.ts';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const DAY_MS = 86_400_000;

function object(key: string, extra: Partial<FilterableObject> = {}): FilterableObject {
  return { key, size: 100, lastModified: NOW - DAY_MS, storageClass: 'STANDARD', ...extra };
}

describe('wildcards in S3 URLs (as s5cmd)', () => {
  it('lists only the literal part before the first wildcard', () => {
    expect(wildcardPrefix('logs/2024-*/*.gz')).toBe('logs/2024-');
    expect(wildcardPrefix('logs/a?c')).toBe('logs/a');
    expect(wildcardPrefix('*.gz')).toBe('');
    expect(wildcardPrefix('plain/key')).toBe('plain/key');
    expect(hasWildcard('plain/key')).toBe(false);
    expect(hasWildcard('a*')).toBe(true);
  });

  it('lets * span "/" and ? stand for exactly one character', () => {
    expect(globMatches('logs/2024-*/*.gz', 'logs/2024-01/a.gz')).toBe(true);
    expect(globMatches('logs/2024-*/*.gz', 'logs/2024-01/deep/er/a.gz')).toBe(true);
    expect(globMatches('logs/2024-*/*.gz', 'logs/2023-01/a.gz')).toBe(false);
    expect(globMatches('logs/2024-*/*.gz', 'logs/2024-01/a.gz.bak')).toBe(false);
    expect(globMatches('a?c', 'abc')).toBe(true);
    expect(globMatches('a?c', 'ac')).toBe(false);
    expect(globMatches('a?c', 'a/c')).toBe(true);
  });

  it('takes every other character as itself, regular-expression characters and newlines included', () => {
    expect(globMatches('a.b', 'a.b')).toBe(true);
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(globMatches('(x)[1]+{2}|$^\\-', '(x)[1]+{2}|$^\\-')).toBe(true);
    expect(globMatches('*.tmp', 'line\nbreak.tmp')).toBe(true);
    expect(globMatches('é*', 'été')).toBe(true);
  });

  it('matches a glob of many stars against a long key without backtracking for ever', () => {
    // As a regular expression (.*a.*a.*…b) this took a minute on a 100-character key, holding the
    // event loop (and every job) the while; the test's own timeout is what fails it then.
    const key = 'a'.repeat(5_000);
    expect(globMatches('*a*a*a*a*a*a*a*a*a*a*b', key)).toBe(false);
    expect(globMatches('*a*a*a*a*a*a*a*a*a*a*', key)).toBe(true);
    expect(globMatches('**a?*', 'xa1')).toBe(true);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('?', '')).toBe(false);
    expect(globMatches('a*b*c', 'aXbYbZc')).toBe(true);
    expect(globMatches('a*b*c', 'aXbYbZ')).toBe(false);
  });

  it('tells whether a glob matches some key below a folder (its copies there would be matched again)', () => {
    expect(globMayMatchBelow('logs/*.gz', 'logs/archive/')).toBe(true);
    expect(globMayMatchBelow('*.gz', 'old/')).toBe(true);
    expect(globMayMatchBelow('logs/*.gz', 'logs/')).toBe(true);
    expect(globMayMatchBelow('logs/2024-??.gz', 'logs/old/')).toBe(false);
    expect(globMayMatchBelow('logs/*.gz', 'archive/')).toBe(false);
    expect(globMayMatchBelow('logs/a?', 'logs/ab/')).toBe(false);
    expect(globMayMatchBelow('logs/a?*', 'logs/ab/')).toBe(true);
    expect(globMayMatchBelow('**x', '')).toBe(true);
    expect(globMayMatchBelow('a*b*c', 'aXbY/')).toBe(true);
    expect(globMayMatchBelow('é?/*', 'éé/')).toBe(true);
    // Time is the product of the lengths, as globMatcher's: a long folder against many stars is quick.
    expect(globMayMatchBelow('*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(5_000))).toBe(true);
    expect(globMayMatchBelow('b*a*a*a*a*a*a*a*a*a*a*', 'a'.repeat(5_000))).toBe(false);
  });

  it('says by name what matched nothing, with its filter and what was not done', () => {
    expect(nothingMatched('b', 'logs/*.zip', false, undefined, 'moved')).toBe(
      'No object s3://b/logs/*.zip matches: nothing was moved.',
    );
    expect(nothingMatched('b', 'logs', true, { largerThan: 1024 }, 'copied')).toBe(
      'No object below s3://b/logs/ matches --larger-than 1024 bytes: nothing was copied.',
    );
  });

  it('sees include and exclude globs below the folder named', () => {
    expect(filterBase('logs/2024-*/*.gz')).toBe('logs/');
    expect(filterBase('logs/')).toBe('logs/');
    expect(filterBase('logs/a.txt')).toBe('logs/');
    expect(filterBase('')).toBe('');
  });
});

describe('objectMatcher', () => {
  it('keeps objects the pattern matches, whole', () => {
    const match = objectMatcher(undefined, 'logs/', 'logs/*.gz');
    expect(match(object('logs/a.gz'))).toBe(true);
    expect(match(object('logs/x/b.gz'))).toBe(true);
    expect(match(object('logs/a.gz.1'))).toBe(false);
  });

  it('leaves out what any --exclude matches, whatever the order, and wants one --include where any is given', () => {
    const match = objectMatcher({ include: ['*.log', '*.txt'], exclude: ['debug/*'] }, 'app/');
    expect(match(object('app/x.log'))).toBe(true);
    expect(match(object('app/a/x.txt'))).toBe(true);
    expect(match(object('app/x.bin'))).toBe(false);
    expect(match(object('app/debug/x.log'))).toBe(false);
    const reordered = objectMatcher({ exclude: ['debug/*'], include: ['*.txt', '*.log'] }, 'app/');
    expect(reordered(object('app/debug/x.log'))).toBe(false);
  });

  it('matches globs against the key below the folder, not the whole key', () => {
    const match = objectMatcher({ exclude: ['keep/*'] }, 'data/');
    expect(match(object('data/keep/a'))).toBe(false);
    expect(match(object('data/other/keep/a'))).toBe(true);
  });

  it('compares sizes strictly', () => {
    const match = objectMatcher({ largerThan: 100, smallerThan: 200 }, '');
    expect(match(object('a', { size: 100 }))).toBe(false);
    expect(match(object('a', { size: 101 }))).toBe(true);
    expect(match(object('a', { size: 199 }))).toBe(true);
    expect(match(object('a', { size: 200 }))).toBe(false);
  });

  it('compares ages, and leaves an object listed without a date alone', () => {
    const match = objectMatcher({ modifiedBefore: NOW - 30 * DAY_MS }, '');
    expect(match(object('old', { lastModified: NOW - 31 * DAY_MS }))).toBe(true);
    expect(match(object('new', { lastModified: NOW - DAY_MS }))).toBe(false);
    expect(match(object('undated', { lastModified: undefined }))).toBe(false);
    const newer = objectMatcher({ modifiedAfter: NOW - 2 * DAY_MS }, '');
    expect(newer(object('new', { lastModified: NOW - DAY_MS }))).toBe(true);
    expect(newer(object('undated', { lastModified: undefined }))).toBe(false);
  });

  it('takes an object listed without a storage class as STANDARD', () => {
    const match = objectMatcher({ storageClasses: ['STANDARD'] }, '');
    expect(match(object('a', { storageClass: undefined }))).toBe(true);
    expect(match(object('a', { storageClass: 'GLACIER' }))).toBe(false);
  });
});

describe('parsing the flags', () => {
  it('reads ages as that long before now, and dates as UTC unless they say otherwise', () => {
    expect(parseInstant('--older-than', '90d', NOW)).toBe(NOW - 90 * DAY_MS);
    expect(parseInstant('--older-than', '12h', NOW)).toBe(NOW - 12 * 3_600_000);
    expect(parseInstant('--older-than', '30m', NOW)).toBe(NOW - 30 * 60_000);
    expect(parseInstant('--older-than', '2024-01-31', NOW)).toBe(Date.parse('2024-01-31T00:00:00Z'));
    expect(parseInstant('--older-than', '2024-01-31T12:30', NOW)).toBe(Date.parse('2024-01-31T12:30:00Z'));
    expect(parseInstant('--older-than', '2024-01-31T12:30:00+02:00', NOW)).toBe(Date.parse('2024-01-31T10:30:00Z'));
  });

  it.each(['', '90', 'd', '-5d', '90 days', '2024-02-30', '2024-13-01', '2024-01-31T25:00', 'yesterday'])(
    'refuses the age or date "%s" with the forms it takes',
    (text) => {
      expect(() => parseInstant('--older-than', text, NOW)).toThrow(
        new FilterProblem(
          `--older-than takes an age such as 90d, 12h, 30m or 2w, or a date such as 2024-01-31 or 2024-01-31T12:00Z, not "${text}".`,
        ),
      );
    },
  );

  it('reads sizes in binary and decimal units', () => {
    expect(parseSizeLimit('--larger-than', '1GiB')).toBe(1024 ** 3);
    expect(parseSizeLimit('--larger-than', '500MB')).toBe(500e6);
    expect(parseSizeLimit('--larger-than', '10KiB')).toBe(10240);
    expect(() => parseSizeLimit('--larger-than', '1 parsec')).toThrow(/--larger-than takes a size such as 1GiB/);
    expect(() => parseSizeLimit('--smaller-than', '-1')).toThrow(/not "-1"/);
  });

  it('reads storage classes in any case, separated by commas, and names one it does not know', () => {
    expect(parseStorageClasses('--storage-class', 'glacier, standard_ia')).toEqual(['GLACIER', 'STANDARD_IA']);
    expect(() => parseStorageClasses('--storage-class', 'GLACIER,COLD')).toThrow(/not "COLD"/);
    expect(() => parseStorageClasses('--storage-class', ',')).toThrow(/--storage-class takes one or more of STANDARD/);
  });

  it('refuses an --older-than in the future', () => {
    expect(() => parseObjectFilter({ olderThan: '2027-01-01' }, NOW)).toThrow(
      new FilterProblem(
        '--older-than 2027-01-01 is in the future: every object is older than that. Give a past date or an age such as 90d.',
      ),
    );
  });

  it('refuses a --newer-than in the future and limits that leave nothing between them', () => {
    expect(() => parseObjectFilter({ newerThan: '2027-01-01' }, NOW)).toThrow(/is in the future: no object is newer/);
    expect(() => parseObjectFilter({ olderThan: '30d', newerThan: '10d' }, NOW)).toThrow(/leave no time between/);
    expect(() => parseObjectFilter({ largerThan: '10', smallerThan: '11' }, NOW)).toThrow(/leave no size between/);
    expect(() => parseObjectFilter({ smallerThan: '0' }, NOW)).toThrow(/matches nothing/);
    expect(() => parseObjectFilter({ include: [''] }, NOW)).toThrow(/--include takes a glob/);
  });

  it('gives no filter for no flags, and the whole filter for all of them', () => {
    expect(parseObjectFilter({}, NOW)).toBeUndefined();
    expect(parseObjectFilter({ include: [], exclude: [] }, NOW)).toBeUndefined();
    const filter = parseObjectFilter(
      {
        include: ['*.gz'],
        exclude: ['tmp/*'],
        olderThan: '10d',
        newerThan: '30d',
        largerThan: '1KiB',
        smallerThan: '1GiB',
        storageClass: 'standard',
      },
      NOW,
    );
    expect(filter).toEqual({
      include: ['*.gz'],
      exclude: ['tmp/*'],
      modifiedBefore: NOW - 10 * DAY_MS,
      modifiedAfter: NOW - 30 * DAY_MS,
      largerThan: 1024,
      smallerThan: 1024 ** 3,
      storageClasses: ['STANDARD'],
    });
    expect(describeFilter(filter)).toBe(
      '--include *.gz, --exclude tmp/*, --older-than 2026-06-05T12:00:00Z, --newer-than 2026-05-16T12:00:00Z, --larger-than 1024 bytes, --smaller-than 1073741824 bytes, --storage-class STANDARD',
    );
  });
});
