// Keep V8's young generation small in the command line: a transfer's garbage is short-lived.
//
// V8 doubles the young generation while objects keep surviving collections, up to 128 MiB on a
// machine with a lot of memory (two semi-spaces of 64 MiB). A download of many small objects keeps
// ~128 objects in flight whose bookkeeping lives through a collection or two, so it grew all the
// way: 128 MiB of a 350 MiB peak (20,000 keys), for a live heap of 20-30 MiB. Capped at 16 MiB it
// peaked at ~210 MiB for the same CPU time, where 4 MiB cost more CPU in collections. Node takes the
// size only on its command line (--max-semi-space-size), which a command cannot choose for itself;
// the growth factor V8 reads each time it grows, so it is set to 1 (no growth) once the young
// generation has reached the cap. A command that never grows it pays one observer, nothing more.

import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/** The young generation's size (both semi-spaces) past which it stops growing. */
export const YOUNG_GENERATION_CAP_BYTES = 16 * 1024 * 1024;

function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** From now on, the young generation grows no further once it holds YOUNG_GENERATION_CAP_BYTES. */
export function capYoungGeneration(): void {
  const stopGrowing = () => {
    if (youngGenerationBytes() < YOUNG_GENERATION_CAP_BYTES) return false;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    return true;
  };
  if (stopGrowing()) return;
  // After each collection: the young generation grows only in one.
  const observer = new PerformanceObserver(() => {
    if (stopGrowing()) observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
