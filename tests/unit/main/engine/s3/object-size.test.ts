import { expect, it } from 'vitest';
import { MAX_OBJECT_BYTES, parseContentRange, parseObjectSize } from '../../../../../main/engine/s3/object-size.ts';
import { parseListObjectsV2 } from '../../../../../main/engine/s3/s3-wire.ts';

it('a size is a whole number of bytes from 0 to 5 TiB, written in digits', () => {
  for (const [stated, size] of [
    ['0', 0],
    ['88', 88],
    ['088', 88],
    [String(MAX_OBJECT_BYTES), MAX_OBJECT_BYTES],
    [88, 88],
  ] as const)
    expect(parseObjectSize(stated), String(stated)).toBe(size);
  for (const stated of [
    '-1',
    '1.5',
    'NaN',
    '1e20',
    '1e3',
    '0x58',
    ' 88',
    '88 ',
    '',
    '9007199254740993',
    String(MAX_OBJECT_BYTES + 1),
    undefined,
    -1,
    1.5,
    Number.NaN,
    2 ** 53 + 2,
  ]) {
    expect(parseObjectSize(stated), String(stated)).toBeUndefined();
  }
});

it('a listing keeps what it said of a size that is no size, and lists the object at 0', () => {
  const xml =
    '<ListBucketResult><Contents><Key>a</Key><Size>-1</Size></Contents><Contents><Key>b</Key></Contents><Contents><Key>c</Key><Size>88</Size></Contents></ListBucketResult>';
  expect(parseListObjectsV2(xml).contents.map(({ key, size, badSize }) => ({ key, size, badSize }))).toEqual([
    { key: 'a', size: 0, badSize: '-1' },
    { key: 'b', size: 0, badSize: '' },
    { key: 'c', size: 88, badSize: undefined },
  ]);
});

it('reads a Content-Range, and nothing that is not one', () => {
  expect(parseContentRange('bytes 0-99/200')).toEqual({ start: 0, end: 99, total: '200' });
  expect(parseContentRange('bytes 0-99/*')).toEqual({ start: 0, end: 99, total: '*' });
  for (const header of [undefined, '', 'bytes 0-99', 'bytes -1-99/200', 'items 0-99/200', 'bytes 0-99/-1'])
    expect(parseContentRange(header), header).toBeUndefined();
});
