// Keep V8's young generation small in the command line: a transfer's garbage is short-lived.
//
// V8 doubles the young generation while objects keep surviving collections, up to 128 MiB on a
// machine with a lot of memory (two semi-spaces of 64 MiB). A download of many small objects keeps
// ~128 objects in flight whose bookkeeping lives through a collection or two, so it grew all the
// way: 128 MiB of a 350 MiB peak (20,000 keys), for a live heap of 20-30 MiB. Capped at 16 MiB it
// peaked at ~210 MiB for the same CPU time, where 4 MiB cost more CPU in collections. Node takes the
// size only on its command line (--max-semi-space-size), which a command cannot choose for itself;
// the growth factor V8 reads each time it grows, so it is set to 1 (no growth) while the young
// generation is at the cap, and back to V8's 2 below it. It is set on each collection's notice, which
// Node delivers after the collection: one that comes before the notice may grow it a step past the cap.

import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/** The young generation's size (both semi-spaces) past which it stops growing. */
export const YOUNG_GENERATION_CAP_BYTES = 16 * 1024 * 1024;

function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** V8's own growth factor, given back when the young generation is below the cap again. */
const V8_GROWTH_FACTOR = 2;

/**
 * From now on, the young generation grows no further than YOUNG_GENERATION_CAP_BYTES: after each collection
 * (it grows only in one) growth is stopped at the cap and allowed again below it. Stopped for good, a young
 * generation that V8 shrank in a quiet spell (1 MiB) could never grow back to the cap.
 */
export function capYoungGeneration(): void {
  const follow = capFollower(youngGenerationBytes, (flags) => v8.setFlagsFromString(flags));
  follow();
  const observer = new PerformanceObserver(follow);
  observer.observe({ entryTypes: ['gc'] });
}

/** What to do after a collection, given how to read the young generation's size and how to set a V8 flag. */
export function capFollower(size: () => number, setFlags: (flags: string) => void): () => void {
  let stopped = false;
  return () => {
    const atCap = size() >= YOUNG_GENERATION_CAP_BYTES;
    if (atCap === stopped) return;
    stopped = atCap;
    setFlags(`--semi-space-growth-factor=${atCap ? 1 : V8_GROWTH_FACTOR}`);
  };
}
