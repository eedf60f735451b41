import { expect, it } from 'vitest';
import { autoPartSize } from '../../../../../main/engine/queue/auto-part-size.ts';
import type { SignalSummary } from '../../../../../main/engine/queue/request-signals.ts';
import { GIB, MIB } from '../../../../../src/byte-units.ts';
import { MAX_PART_SIZE_BYTES, MAX_PARTS, MAX_OBJECT_SIZE_BYTES } from '../../../../../src/part-size.ts';
import { settingsPatchSchema, settingsSchema } from '../../../../../src/settings.ts';

it('sends a file up to 16 MiB whole, in one request', () => {
  for (const size of [0, 1, 2 * MIB, 16 * MIB]) {
    const choice = autoPartSize(size, { threads: 64 });
    expect(choice.partSizeBytes).toBeGreaterThanOrEqual(size);
    expect(choice.reason).toBe('Files up to 16 MiB go whole, in one request');
  }
});

it('shares a large file among the threads: 1 GiB at 64 threads in 16 MiB parts, as the fixed default did', () => {
  expect(autoPartSize(1 * GIB, { threads: 64 })).toEqual({
    partSizeBytes: 16 * MIB,
    reason: '16 MiB parts: a 1 GiB file shared by 64 threads',
  });
  expect(autoPartSize(1 * GIB, { threads: 16 }).partSizeBytes).toBe(64 * MIB);
  // One thread, one word: "1 thread".
  expect(autoPartSize(64 * MIB, { threads: 1 }).reason).toBe('64 MiB parts: a 64 MiB file shared by 1 thread');
});

it('keeps parts from getting small: at least 16 MiB, each request costing a round trip, a signature and CPU', () => {
  expect(autoPartSize(1 * GIB, { threads: 256 })).toEqual({
    partSizeBytes: 16 * MIB,
    reason: '16 MiB parts: not smaller, so fewer requests carry the file',
  });
  expect(autoPartSize(40 * MIB, { threads: 64 }).partSizeBytes).toBe(16 * MIB);
});

it('makes a part worth four of its waits for the store when the link is fast and far', () => {
  // 256 requests in flight move 25.6 GB/s together (100 MB/s each) and wait 100 ms each: 10 MB a wait.
  const summary = { bytesPerSecond: 25.6e9, meanInFlight: 256, medianWaitMs: 100 } as SignalSummary;
  const choice = autoPartSize(1 * GIB, { threads: 256, summary: () => summary });
  expect(choice.partSizeBytes).toBe(Math.ceil(40e6 / MIB) * MIB);
  expect(choice.reason).toBe("39 MiB parts: large enough that a part is not mostly waiting for the store's answer");
});

it('holds threads × part size within 1 GiB for a very large file', () => {
  const choice = autoPartSize(100 * GIB, { threads: 64 });
  expect(choice.partSizeBytes).toBe(16 * MIB);
  expect(choice.reason).toBe('16 MiB parts: 64 threads × part size within 1 GiB');
  // Where the floor wins over the 1 GiB, the reason names the floor, not a bound it does not hold.
  expect(autoPartSize(10 * GIB, { threads: 256 }).reason).toBe(
    '16 MiB parts: not smaller, so fewer requests carry the file',
  );
  expect(autoPartSize(10 * GIB, { threads: 64, preferredBytes: 64 * MIB }).reason).toBe(
    '64 MiB parts: not smaller, so fewer requests carry the file',
  );
});

it('keeps within 10,000 parts and 5 GiB a part, whatever else it weighs', () => {
  for (const size of [MAX_OBJECT_SIZE_BYTES, 4.9 * 1024 * GIB, 160 * GIB + 1])
    for (const threads of [1, 64, 256]) {
      const part = autoPartSize(size, { threads }).partSizeBytes;
      expect(Math.ceil(size / part)).toBeLessThanOrEqual(MAX_PARTS);
      expect(part).toBeLessThanOrEqual(MAX_PART_SIZE_BYTES);
    }
});

it("starts from a speed test's best part size: parts are no smaller", () => {
  expect(autoPartSize(1 * GIB, { threads: 64, preferredBytes: 32 * MIB }).partSizeBytes).toBe(32 * MIB);
});

it('takes auto as the default of both knobs, and numbers saved before Auto still pin them', () => {
  expect(settingsSchema.parse({})).toMatchObject({ threads: 'auto', partSizeBytes: 'auto' });
  expect(settingsSchema.parse({ threads: 8, partSizeBytes: 32 * MIB })).toMatchObject({
    threads: 8,
    partSizeBytes: 32 * MIB,
  });
  expect(settingsPatchSchema.safeParse({ threads: 'fast' }).success).toBe(false);
  expect(settingsPatchSchema.safeParse({ threads: 0 }).success).toBe(false);
  expect(settingsPatchSchema.safeParse({ partSizeBytes: MIB }).success).toBe(false);
});
