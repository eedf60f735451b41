import { afterEach, expect, it } from 'vitest';
import { Engine } from '../../../../main/engine/engine.ts';
import { MIB } from '../../../../src/byte-units.ts';

let engine: Engine | undefined;
afterEach(() => engine?.close());

it('says what Auto chose, and why, in its stats: 64 threads and 16 MiB parts to start from', () => {
  engine = new Engine();
  expect(engine.settings).toMatchObject({ threads: 'auto', partSizeBytes: 'auto' });
  expect(engine.stats().auto).toEqual({
    threads: 64,
    peakThreads: 64,
    partSizeBytes: 16 * MIB,
    reason: '64 threads: the starting point, measuring',
    partSizeReason: undefined,
  });
});

it('runs a pinned number as it is, and Auto again goes on from it', () => {
  engine = new Engine({ settings: { threads: 8, partSizeBytes: 32 * MIB } });
  expect(engine.stats().auto).toMatchObject({ threads: 8, partSizeBytes: 32 * MIB, reason: undefined });
  engine.updateSettings({ threads: 'auto' });
  expect(engine.settings.threads).toBe('auto');
  expect(engine.stats().auto).toMatchObject({ threads: 8, reason: '8 threads: the starting point, measuring' });
});

it("starts Auto from a given point (a speed test's best), leaving a pinned knob as it is", () => {
  engine = new Engine();
  engine.autoStartFrom({ threads: 128, partSizeBytes: 32 * MIB });
  expect(engine.stats().auto).toMatchObject({ threads: 128, peakThreads: 128 });
  engine.updateSettings({ threads: 16 });
  engine.autoStartFrom({ threads: 200 });
  expect(engine.stats().auto!.threads).toBe(16);
});
