import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatBytes,
  formatDuration,
  formatObjectRate,
  formatRate,
  parseByteSize,
  parseDuration,
  parseRate,
} from '../../../src/byte-units.ts';

describe('parseByteSize', () => {
  it.each([
    ['1048576', 1048576],
    ['64MiB', 64 * 1024 ** 2],
    ['64M', 64 * 1024 ** 2],
    ['16 mib', 16 * 1024 ** 2],
    ['5GB', 5e9],
    ['1.5KiB', 1536],
    ['2k', 2048],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  it.each(['', 'abc', '-5M', '5 XB', '1.3B'])('refuses %j', (text) => {
    expect(parseByteSize(text)).toBeUndefined();
  });
});

describe('parseRate', () => {
  it.each([
    ['50MB/s', 50_000_000],
    ['50MiB/s', 50 * 1024 ** 2],
    ['50 MB/s', 50_000_000],
    ['500KB/s', 500_000],
    ['1.5MB/s', 1_500_000],
    ['2M', 2 * 1024 ** 2],
    ['0', 0],
    ['1000', 1000],
    ['8 kib / s', 8192],
  ])('%s is %d bytes a second', (text, bytesPerSecond) => {
    expect(parseRate(text)).toBe(bytesPerSecond);
  });

  it.each(['', 'fast', '-5MB/s', '5XB/s', '50MB/h', '50MB/s/s', 'MB/s'])('refuses %j', (text) => {
    expect(parseRate(text)).toBeUndefined();
  });
});

describe('formatting', () => {
  it('formats bytes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(64 * 1024 ** 2)).toBe('64.0 MiB');
    expect(formatBytes(1024 ** 4 * 300)).toBe('300 TiB');
  });

  it('formats rates in MiB/s, the unit of the sizes beside them, and durations compactly', () => {
    expect(formatRate(260 * 1024 ** 2)).toBe('260 MiB/s');
    expect(formatRate(1.25 * 1024 ** 2)).toBe('1.3 MiB/s');
    expect(formatRate(250e6)).toBe('238 MiB/s');
    expect(formatDuration(42)).toBe('42s');
  });

  it('formats a rate under 1 MiB/s in KiB/s or B/s, never "0.0 MiB/s", and objects a second in words', () => {
    expect(formatRate(38 * 1024)).toBe('38.0 KiB/s');
    expect(formatRate(512)).toBe('512 B/s');
    expect(formatRate(0)).toBe('0 B/s');
    expect(formatObjectRate(770.4)).toBe('770 objects/s');
    expect(formatObjectRate(12_345)).toBe('12,345 objects/s');
    expect(formatObjectRate(2.46)).toBe('2.5 objects/s');
    expect(formatObjectRate(1)).toBe('1 object/s');
    expect(formatObjectRate(0)).toBe('0 objects/s');
    expect(formatDuration(42)).toBe('42s');
    expect(formatDuration(185)).toBe('3m05s');
    expect(formatDuration(3720)).toBe('1h02m');
    expect(formatDuration(undefined)).toBe('?');
  });
});

it('reads durations as people write them, and shows ages in their largest unit', () => {
  expect([
    parseDuration('90s'),
    parseDuration('30m'),
    parseDuration('2h'),
    parseDuration('7d'),
    parseDuration('1w'),
    parseDuration('1.5h'),
  ]).toEqual([90, 1800, 7200, 604_800, 604_800, 5400]);
  expect([parseDuration('2'), parseDuration('h'), parseDuration('-1h'), parseDuration('2 days')]).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
  expect([formatAge(5), formatAge(600), formatAge(7300), formatAge(3 * 86_400 + 5)]).toEqual(['5s', '10m', '2h', '3d']);
});
