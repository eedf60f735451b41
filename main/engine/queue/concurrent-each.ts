// Run `worker` over a (possibly endless, possibly async) sequence with a bounded number in flight.
//
// Items are pulled only as room frees up, so a folder of a million files or a listing of a million
// keys is never held in memory at once. The bound is read again before each item, so it follows a
// setting that changes while the loop runs. If a worker throws, no new items start, the ones in
// flight finish, and the first error is rethrown. The same holds when the sequence throws.
//
// The loop waits for a slot on one promise that the next worker to end resolves, not on a race of
// the workers in flight: a race subscribes to every one of them, so each item left a reaction on
// each of the others (128 in flight: ~16 KB per item), held as long as they ran. Held past a young
// collection or two, that garbage was promoted, and a download of many small objects carried
// ~100 MB of it in the old space between major collections.

export async function concurrentEach<T>(
  items: Iterable<T> | AsyncIterable<T>,
  limit: () => number,
  worker: (item: T) => Promise<void>,
): Promise<void> {
  let inFlight = 0;
  let failure: { error: unknown } | undefined;
  // The loop, when it waits for a worker to end (for a slot, or for the last ones at the end).
  let wakeLoop: (() => void) | undefined;
  const workerEnded = () => {
    inFlight -= 1;
    const wake = wakeLoop;
    wakeLoop = undefined;
    wake?.();
  };
  const aWorkerEnds = () => new Promise<void>((resolve) => (wakeLoop = resolve));
  try {
    for await (const item of items) {
      while (inFlight >= Math.max(1, limit()) && !failure) await aWorkerEnds();
      if (failure) break;
      const running = worker(item);
      inFlight += 1;
      running.then(workerEnded, (error: unknown) => {
        failure ??= { error };
        workerEnded();
      });
    }
  } finally {
    // Also when the sequence itself throws (a listing page that fails): the work already started
    // must end before the caller is told anything, or it would go on after the job "finished".
    while (inFlight > 0) await aWorkerEnds();
  }
  if (failure) throw failure.error;
}
