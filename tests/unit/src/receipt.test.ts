import { expect, it } from 'vitest';
import { formatReceipt, receiptFormatFor } from '../../../src/receipt.ts';

const entries = [
  {
    key: 'a,b "c".txt',
    path: '/tmp/a',
    size: 3,
    etag: '"abc"',
    versionId: 'v1',
    checksum: 'CRC32C:AAAA==',
    verified: 'store-checksum' as const,
    finishedAt: 0,
  },
  { key: 'plain', path: '/tmp/p', size: 0, finishedAt: 1000 },
];

it('writes CSV with a header, quoting fields that need it, ETags without quotes, the checksum split', () => {
  const text = [...formatReceipt(entries, 'csv')].join('');
  expect(text).toBe(
    [
      'key,path,size,etag,versionId,checksumAlgorithm,checksum,finishedAt,verified,status,error',
      '"a,b ""c"".txt",/tmp/a,3,abc,v1,CRC32C,AAAA==,1970-01-01T00:00:00.000Z,CRC verified by the store,done,',
      'plain,/tmp/p,0,,,,,1970-01-01T00:00:01.000Z,,done,',
      '',
    ].join('\n'),
  );
});

it('writes JSON that parses back to the same rows, and an empty list for no objects', () => {
  const rows = JSON.parse([...formatReceipt(entries, 'json')].join(''));
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatchObject({ key: 'a,b "c".txt', etag: 'abc', checksumAlgorithm: 'CRC32C', checksum: 'AAAA==' });
  expect(rows[1]).toMatchObject({ key: 'plain', etag: null, checksum: null });
  expect(JSON.parse([...formatReceipt([], 'json')].join(''))).toEqual([]);
  expect(receiptFormatFor('out.JSON')).toBe('json');
  expect(receiptFormatFor('out.csv')).toBe('csv');
});

it('neutralises fields a spreadsheet would run as formulas, but keeps checksums exact', () => {
  const text = [
    ...formatReceipt(
      [
        {
          key: '=HYPERLINK("http://x","y")',
          path: '+1',
          size: 1,
          etag: '@e',
          versionId: '-v',
          checksum: 'CRC32C:+AAA==',
          finishedAt: 0,
        },
        { key: '\tkey', path: '\rp', size: 2, finishedAt: 0 },
      ],
      'csv',
    ),
  ].join('');
  const [, first, second] = text.split('\n');
  expect(first).toBe(`"'=HYPERLINK(""http://x"",""y"")",'+1,1,'@e,'-v,CRC32C,+AAA==,1970-01-01T00:00:00.000Z,,done,`);
  // A tab or a carriage return is shown as an escape: no reader splits the field, no spreadsheet runs it.
  expect(second).toBe(`\\tkey,\\rp,2,,,,,1970-01-01T00:00:00.000Z,,done,`);
  // JSON keeps every value exact.
  expect(
    JSON.parse([...formatReceipt([{ key: '=1+1', path: '/p', size: 0, finishedAt: 0 }], 'json')].join(''))[0].key,
  ).toBe('=1+1');
});

it("shows a name's control characters, bidi overrides and line separators escaped, in CSV and in JSON (the same value)", () => {
  const key = 'invoice-\u202efdp.exe\x9b\u2028';
  const csv = [...formatReceipt([{ key, path: `/dl/${key}`, size: 1, finishedAt: 0 }], 'csv')].join('');
  expect(csv.split('\n')[1]).toBe(
    'invoice-\\u202efdp.exe\\x9b\\u2028,/dl/invoice-\\u202efdp.exe\\x9b\\u2028,1,,,,,1970-01-01T00:00:00.000Z,,done,',
  );
  const json = [...formatReceipt([{ key, path: `/dl/${key}`, size: 1, finishedAt: 0 }], 'json')].join('');
  expect(json).not.toMatch(/[\u202e\x9b\u2028]/);
  expect(JSON.parse(json)[0].key).toBe(key);
});
