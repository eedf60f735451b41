// The Part size slider's scale: logarithmic, 5 MiB to 5 GiB.

import { MIB } from '../src/byte-units.ts';

export const PART_SIZE_STEPS = [5, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 5120].map((m) => m * MIB);

/** The slider position closest to `bytes`. */
export function nearestStep(bytes: number): number {
  let best = 0;
  for (let i = 0; i < PART_SIZE_STEPS.length; i++)
    if (Math.abs(PART_SIZE_STEPS[i]! - bytes) < Math.abs(PART_SIZE_STEPS[best]! - bytes)) best = i;
  return best;
}
