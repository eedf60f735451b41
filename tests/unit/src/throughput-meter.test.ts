import { describe, expect, it } from 'vitest';
import { METER_WINDOW_MS, ThroughputMeter } from '../../../src/throughput-meter.ts';

describe('ThroughputMeter', () => {
  it('is zero before any bytes', () => {
    expect(new ThroughputMeter().bytesPerSecond(1_000)).toBe(0);
  });

  it('averages a steady rate over the time since the first sample', () => {
    const meter = new ThroughputMeter();
    for (let t = 0; t < 2_000; t += 100) meter.add(1_000, 10_000 + t);
    expect(meter.bytesPerSecond(12_000)).toBeCloseTo(10_000, -2);
  });

  it('forgets bytes older than the window, so a stall shows as a stall', () => {
    const meter = new ThroughputMeter();
    for (let t = 0; t < 10_000; t += 100) meter.add(1_000, t);
    expect(meter.bytesPerSecond(10_000)).toBeGreaterThan(9_000);
    expect(meter.bytesPerSecond(10_000 + METER_WINDOW_MS + 500)).toBe(0);
  });

  it('follows a change of rate within the window', () => {
    const meter = new ThroughputMeter();
    for (let t = 0; t < 20_000; t += 100) meter.add(t < 10_000 ? 100 : 10_000, t);
    expect(meter.bytesPerSecond(20_000)).toBeCloseTo(100_000, -4);
  });

  it('gives an ETA from the current rate, and none while stalled', () => {
    const meter = new ThroughputMeter();
    for (let t = 0; t < 5_000; t += 100) meter.add(1_000, t);
    expect(meter.etaSeconds(100_000, 5_000)).toBeCloseTo(10, 0);
    expect(meter.etaSeconds(0, 5_000)).toBe(0);
    expect(meter.etaSeconds(100, 60_000)).toBeUndefined();
  });
});

it('bytes taken back (a failed attempt) come off the speed: it counts what stayed sent, never below zero', () => {
  const meter = new ThroughputMeter();
  meter.add(10_000_000, 1_000);
  meter.add(-10_000_000, 1_100);
  expect(meter.bytesPerSecond(1_200)).toBe(0);
  meter.add(-5, 1_300);
  expect(meter.bytesPerSecond(1_400)).toBe(0);
  meter.add(1_000_000, 2_000);
  expect(meter.bytesPerSecond(2_000)).toBeGreaterThan(0);
});
