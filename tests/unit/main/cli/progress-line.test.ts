import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../../main/cli/progress-line.ts';
import type { JobSnapshot } from '../../../../src/jobs.ts';

function snapshot(progress: Partial<JobSnapshot['progress']>): JobSnapshot {
  return {
    id: 'j',
    kind: 'upload',
    name: 'x',
    state: { status: 'running' },
    itemErrors: [],
    createdAt: 0,
    progress: {
      objectsDone: 0,
      objectsFailed: 0,
      objectsTotal: 0,
      bytesDone: 0,
      bytesTotal: 0,
      totalsKnown: true,
      bytesPerSecond: 0,
      etaSeconds: undefined,
      ...progress,
    },
  };
}

describe('progressLine', () => {
  it('shows a bar, bytes, rate, ETA and objects', () => {
    const line = progressLine(
      snapshot({
        bytesDone: 512 * 1024 ** 2,
        bytesTotal: 1024 ** 3,
        bytesPerSecond: 250e6,
        objectsPerSecond: 1,
        etaSeconds: 2.1,
        objectsDone: 1,
        objectsTotal: 2,
      }),
    );
    expect(line).toBe(
      '[############............]  50%  512 MiB / 1.00 GiB  238 MiB/s, 1 object/s  ETA 2s  1/2 objects',
    );
  });

  it('names what limits the run now, last on the line', () => {
    const line = progressLine(snapshot({ objectsDone: 3, objectsTotal: 4 }), 140, {
      kind: 'latency',
      words: 'Latency-bound: …',
      figures: [],
    });
    expect(line).toMatch(/3\/4 objects {2}limited by latency$/);
  });

  it('shows objects a second beside the bytes for small files, and one file in words', () => {
    const small = progressLine(
      snapshot({
        bytesDone: 200_000,
        bytesTotal: 500_000,
        bytesPerSecond: 38_500,
        objectsPerSecond: 770,
        etaSeconds: 7.8,
        objectsDone: 4_000,
        objectsTotal: 10_000,
      }),
      140,
    );
    expect(small).toContain('37.6 KiB/s, 770 objects/s');
    expect(small).toContain('4,000/10,000 objects');
    const one = progressLine(snapshot({ bytesDone: 5, bytesTotal: 10, bytesPerSecond: 5, objectsTotal: 1 }));
    expect(one).toContain('  5 B/s  ');
    expect(one).toContain('0/1 object');
    expect(one).not.toContain('objects');
  });

  it('marks totals that are still growing, and counts failures', () => {
    const line = progressLine(
      snapshot({
        totalsKnown: false,
        objectsDone: 3,
        objectsFailed: 1,
        objectsTotal: 10,
        bytesDone: 10,
        bytesTotal: 40,
        etaSeconds: 5,
      }),
    );
    expect(line).toContain('25%+');
    expect(line).toContain('ETA 5s+');
    expect(line).toContain('3/10+ objects');
    expect(line).toContain('1 failed');
  });

  it('falls back to objects when there are no bytes (a delete by key), and fits the terminal', () => {
    expect(progressLine(snapshot({ objectsDone: 3, objectsTotal: 4 }))).toMatch(/^\[#{18}\.{6}\] {2}75%/);
    expect(progressLine(snapshot({ objectsDone: 3, objectsTotal: 4 }), 30)).toHaveLength(29);
  });
});
