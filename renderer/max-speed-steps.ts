// The Max speed slider's scale: logarithmic, 256 KiB/s to 1 GiB/s, then no limit at the far right.

import { KIB, MIB } from '../src/byte-units.ts';
import { formatRate } from './format.ts';

/** Bytes a second at each position; 0, the last, is no limit. */
export const MAX_SPEED_STEPS = [
  256 * KIB,
  512 * KIB,
  ...[1, 2, 5, 10, 20, 50, 100, 200, 500, 1024].map((m) => m * MIB),
  0,
];

/** The slider position closest to `bytesPerSecond` (0, no limit, is the last). */
export function nearestSpeedStep(bytesPerSecond: number): number {
  if (bytesPerSecond === 0) return MAX_SPEED_STEPS.length - 1;
  let best = 0;
  for (let i = 0; i < MAX_SPEED_STEPS.length - 1; i++) {
    const distance = (step: number) => Math.abs(Math.log(step) - Math.log(bytesPerSecond));
    if (distance(MAX_SPEED_STEPS[i]!) < distance(MAX_SPEED_STEPS[best]!)) best = i;
  }
  return best;
}

/** "No limit", or the cap as rates are shown ("50 MiB/s"). */
export function speedLabel(bytesPerSecond: number): string {
  return bytesPerSecond === 0 ? 'No limit' : formatRate(bytesPerSecond);
}
