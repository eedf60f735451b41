// The speed test's pure parts: how the budget is shared over the grid, which cell is best, and the
// result in words and as the command line's table.

import { describe, expect, it } from 'vitest';
import { KIB, MIB } from '../../../src/byte-units.ts';
import {
  bestInWords,
  bestOfRows,
  bestSetting,
  cellFigures,
  cellInWords,
  cleanupInWords,
  DEFAULT_SPEED_TEST_GRID,
  formatSpeedTestTable,
  MIN_SLICE_MS,
  planSpeedTest,
  savedSpeedTestFrom,
  sliceNow,
} from '../../../src/speed-test.ts';
import type { SpeedCell, SpeedTestResult } from '../../../src/speed-test.ts';

describe('planning: the budget shared over the grid', () => {
  it('runs every cell of the default grid once, up then down per size, halves of the budget for each grid', () => {
    const plan = planSpeedTest(DEFAULT_SPEED_TEST_GRID, 60_000);
    // 5 threads x 3 sizes x 2 directions, and 5 part sizes x 4 concurrencies x 2 directions.
    expect(plan).toHaveLength(30 + 40);
    const objects = plan.filter((cell) => cell.grid === 'objects');
    const parts = plan.filter((cell) => cell.grid === 'parts');
    expect(objects.every((cell) => cell.sliceMs === 1000)).toBe(true);
    expect(parts.every((cell) => cell.sliceMs === 750)).toBe(true);
    expect(objects.reduce((sum, cell) => sum + cell.sliceMs, 0)).toBe(30_000);
    expect(parts.reduce((sum, cell) => sum + cell.sliceMs, 0)).toBe(30_000);
    expect(objects[0]!.gridEndsAtMs).toBe(30_000);
    expect(parts[0]!.gridEndsAtMs).toBe(60_000);
    // The uploads of a size come before its downloads, which read what they wrote.
    expect(plan.slice(0, 10).map((cell) => `${cell.direction} ${cell.concurrency}`)).toEqual([
      'up 1',
      'up 4',
      'up 16',
      'up 64',
      'up 256',
      'down 1',
      'down 4',
      'down 16',
      'down 64',
      'down 256',
    ]);
  });

  it('gives a grid alone the whole budget', () => {
    const plan = planSpeedTest({ threads: [1, 2], objectSizes: [16 * KIB], partSizes: [], partConcurrency: [] }, 8_000);
    expect(plan.map((cell) => cell.sliceMs)).toEqual([2_000, 2_000, 2_000, 2_000]);
  });

  it('stops a cell after a count of requests: enough for every thread, at most about a GiB', () => {
    const plan = planSpeedTest(DEFAULT_SPEED_TEST_GRID, 60_000);
    const cell = (size: number, threads: number) =>
      plan.find((each) => each.sizeBytes === size && each.concurrency === threads && each.direction === 'up')!;
    expect(cell(2 * MIB, 1).maxRequests).toBe(512);
    expect(cell(2 * MIB, 256).maxRequests).toBe(1024);
    expect(cell(64 * MIB, 64).maxRequests).toBe(256);
    expect(cell(16 * KIB, 1).maxRequests).toBe(65_536);
  });

  it("shares what is left of a grid's time among the cells left, never less than the least slice", () => {
    const [first] = planSpeedTest(DEFAULT_SPEED_TEST_GRID, 60_000);
    expect(sliceNow(first!, 0, 30)).toBe(1_000);
    // Cells that ran long leave less to the rest; cells that ended early, more.
    expect(sliceNow(first!, 20_000, 10)).toBe(1_000);
    expect(sliceNow(first!, 25_000, 10)).toBe(500);
    expect(sliceNow(first!, 10_000, 10)).toBe(2_000);
    expect(sliceNow(first!, 40_000, 10)).toBe(MIN_SLICE_MS);
  });
});

const cell = (
  grid: SpeedCell['grid'],
  direction: SpeedCell['direction'],
  sizeBytes: number,
  concurrency: number,
  requests: number,
  elapsedMs = 1000,
): SpeedCell => ({
  grid,
  direction,
  sizeBytes,
  concurrency,
  requests,
  errors: 0,
  bytes: grid === 'objects' ? requests * sizeBytes : requests * sizeBytes,
  elapsedMs,
});

const result = (cells: SpeedCell[]): SpeedTestResult => ({
  id: 't',
  endpoint: 'loopback:9000',
  bucket: 'b',
  prefix: '',
  measuredAt: 1_700_000_000_000,
  budgetMs: 60_000,
  elapsedMs: 60_000,
  cells,
  runningJobs: 0,
});

describe('the best cell', () => {
  it("is each row's most throughput; on a tie, fewer threads; a row where nothing completed has none", () => {
    const cells = [
      cell('objects', 'up', 16 * KIB, 16, 300),
      cell('objects', 'up', 16 * KIB, 64, 412),
      cell('objects', 'up', 16 * KIB, 256, 412),
      cell('objects', 'down', 16 * KIB, 16, 0),
    ];
    const best = bestOfRows(cells);
    expect(best.get('objects:up:16384')?.concurrency).toBe(64);
    expect(best.has('objects:down:16384')).toBe(false);
  });

  it('counts a large object by its bytes, a part or none completed; small objects only by those completed', () => {
    const partial = { ...cell('parts', 'down', 64 * MIB, 16, 0), bytes: 40 * MIB };
    const cutOff = { ...cell('objects', 'up', 2 * MIB, 256, 0), bytes: 300 * MIB };
    const best = bestOfRows([partial, cutOff, cell('objects', 'up', 2 * MIB, 16, 12)]);
    expect(best.get('parts:down:67108864')).toBe(partial);
    expect(best.get('objects:up:2097152')?.concurrency).toBe(16);
    expect(cellFigures(cutOff)).toBe('no object completed');
    expect(cellFigures(partial)).toBe('40.0 MiB/s');
  });

  it('passes over a cell cut short after a few requests where a cell of its row completed more', () => {
    // 100 ms of four 64 MiB parts: bytes counted as they came, none completed, a rate no link gave.
    const burst = { ...cell('parts', 'down', 64 * MIB, 4, 0, 100), bytes: 170 * MIB };
    const steady = cell('parts', 'down', 64 * MIB, 1, 6, 2000);
    expect(bestOfRows([burst, steady]).get('parts:down:67108864')).toBe(steady);
    expect(bestOfRows([burst]).get('parts:down:67108864')).toBe(burst);
    const overall = bestSetting(
      result([cell('objects', 'up', 16 * KIB, 16, 300), burst, cell('parts', 'down', 8 * MIB, 4, 10, 2000)]),
    );
    expect(overall).toMatchObject({ partSizeBytes: 8 * MIB, partConcurrency: 4 });
  });

  it('overall: the threads closest to every row’s best, and the part setting fastest up and down together', () => {
    const best = bestSetting(
      result([
        // 16 KiB: 64 threads best, 16 at half; 2 MiB: 16 best, 64 at 90%. Sum: 64 → 1.9, 16 → 1.5.
        cell('objects', 'up', 16 * KIB, 16, 200),
        cell('objects', 'up', 16 * KIB, 64, 400),
        cell('objects', 'up', 2 * MIB, 16, 100),
        cell('objects', 'up', 2 * MIB, 64, 90),
        // Parts: 16 MiB x 4 is fastest up, 8 MiB x 16 down; together 8 MiB x 16 wins.
        cell('parts', 'up', 16 * MIB, 4, 30),
        cell('parts', 'down', 16 * MIB, 4, 10),
        cell('parts', 'up', 8 * MIB, 16, 50),
        cell('parts', 'down', 8 * MIB, 16, 80),
      ]),
    );
    expect(best).toMatchObject({ threads: 64, partSizeBytes: 8 * MIB, partConcurrency: 16 });
    expect(best?.threadsBySize).toEqual([
      { sizeBytes: 16 * KIB, direction: 'up', threads: 64 },
      { sizeBytes: 2 * MIB, direction: 'up', threads: 16 },
    ]);
  });

  it('is read back from its saved JSON; a result that does not parse is none', () => {
    const saved = result([cell('objects', 'up', 256 * KIB, 64, 412)]);
    expect(savedSpeedTestFrom(JSON.stringify(saved))).toMatchObject({ threads: 64, result: saved });
    expect(savedSpeedTestFrom('{"id": 3}')).toBeUndefined();
    expect(savedSpeedTestFrom('not json')).toBeUndefined();
  });
});

describe('the result in words', () => {
  const measured = result([
    cell('objects', 'up', 256 * KIB, 16, 200),
    cell('objects', 'up', 256 * KIB, 64, 412),
    cell('objects', 'down', 256 * KIB, 16, 0),
    cell('parts', 'up', 16 * MIB, 4, 8),
  ]);

  it('says the best setting of each row, then what held it back', () => {
    expect(bestInWords({ ...measured, maxSpeed: { bytesPerSecond: 50 * MIB, reached: true }, runningJobs: 2 })).toEqual(
      [
        'Best overall: 64 threads, 16 MiB parts with 4 at once.',
        'Best: 64 threads for 256 KiB objects up, 412 objects/s (103 MiB/s).',
        'Best: 16 MiB parts, 4 at once, for a large object up, 128 MiB/s.',
        'Max speed (50.0 MiB/s) was on: it capped these figures. Turn it off to measure the endpoint itself.',
        '2 transfers were running beside the test, sharing the link with it.',
      ],
    );
  });

  it('prints a table per grid, each cell with the requests it is based on, the best of each row starred', () => {
    expect(formatSpeedTestTable(measured)).toBe(
      [
        'Small objects: objects a second [requests]',
        'object size    16 threads    64 threads',
        '256 KiB up    200/s [200]  *412/s [412]',
        '256 KiB down        - [0]',
        '',
        'One large object: bytes a second [parts]',
        'part size       4 at once',
        '16 MiB up  *128 MiB/s [8]',
        '',
        'Best overall: 64 threads, 16 MiB parts with 4 at once.',
        'Best: 64 threads for 256 KiB objects up, 412 objects/s (103 MiB/s).',
        'Best: 16 MiB parts, 4 at once, for a large object up, 128 MiB/s.',
        '',
      ].join('\n'),
    );
  });

  it('names the cell being measured, and what a clean-up left with the prefix to remove', () => {
    expect(cellInWords({ grid: 'objects', direction: 'up', concurrency: 1, sizeBytes: 16 * KIB })).toBe(
      'PUT 16 KiB objects, 1 thread',
    );
    expect(cellInWords({ grid: 'parts', direction: 'down', concurrency: 16, sizeBytes: 5 * MIB })).toBe(
      'Ranged GET 5 MiB parts, 16 at once',
    );
    const place = 's3://b/.barge-speedtest-x/';
    expect(cleanupInWords({ place, clean: true, objectsLeft: 0, uploadsLeft: 0 })).toBe('');
    expect(cleanupInWords({ place, clean: false, objectsLeft: 3, uploadsLeft: 1, problem: 'AccessDenied.' })).toBe(
      'The test could not remove everything it wrote below s3://b/.barge-speedtest-x/ (3 objects, 1 unfinished ' +
        'uploads left): AccessDenied. Remove it with: barge rm -r --raw --all-versions s3://b/.barge-speedtest-x/ && ' +
        'barge abort-uploads s3://b/.barge-speedtest-x/',
    );
  });

  it('says what a clean-up left is not known when the listing that would tell failed', () => {
    const cleanup = { place: 's3://b/x/', clean: false, objectsLeft: undefined, uploadsLeft: undefined };
    expect(cleanupInWords({ ...cleanup, problem: 'The store is faulty.' })).toContain(
      '(what is left is not known: it could not be listed): The store is faulty.',
    );
  });

  it('gives the command that removes the leftovers as words a shell takes whole, globs read as they are', () => {
    const place = "s3://b/a b*'$(rm -rf ~)/.barge-speedtest-x/";
    const words = cleanupInWords({ place, clean: false, objectsLeft: 1, uploadsLeft: 0, problem: 'AccessDenied.' });
    const quoted = `'s3://b/a b*'\\''$(rm -rf ~)/.barge-speedtest-x/'`;
    expect(words).toContain(`barge rm -r --raw --all-versions ${quoted} && barge abort-uploads ${quoted}`);
  });
});
