// Run `worker` over a (possibly endless, possibly async) sequence with a bounded number in flight.
//
// Items are pulled only as room frees up, so a folder of a million files or a listing of a million
// keys is never held in memory at once. The bound is read again before each item, so it follows a
// setting that changes while the loop runs. If a worker throws, no new items start, the ones in
// flight finish, and the first error is rethrown. The same holds when the sequence throws.
//
// Room is a count and one waiter woken by whichever worker ends, never `Promise.race` over the
// workers in flight: a race subscribes to every one of them each time it is called, so with 128 in
// flight each item cost 128 reactions, run when each worker ended (~16 KB of garbage an object, and
// a sixth of a small-file upload's CPU in microtasks).

export async function concurrentEach<T>(
  items: Iterable<T> | AsyncIterable<T>,
  limit: () => number,
  worker: (item: T) => Promise<void>,
): Promise<void> {
  let running = 0;
  let failure: { error: unknown } | undefined;
  let wakeWaiter: (() => void) | undefined;
  const ended = () => {
    running -= 1;
    const wake = wakeWaiter;
    wakeWaiter = undefined;
    wake?.();
  };
  const oneEnds = () => new Promise<void>((resolve) => (wakeWaiter = resolve));
  try {
    for await (const item of items) {
      while (running >= Math.max(1, limit()) && !failure) await oneEnds();
      if (failure) break;
      const run = worker(item);
      running += 1;
      run.then(ended, (error: unknown) => {
        failure ??= { error };
        ended();
      });
    }
  } finally {
    // Also when the sequence itself throws (a listing page that fails): the work already started
    // must end before the caller is told anything, or it would go on after the job "finished".
    while (running > 0) await oneEnds();
  }
  if (failure) throw failure.error;
}
