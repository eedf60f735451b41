// Run `worker` over a (possibly endless, possibly async) sequence with a bounded number in flight.
//
// Items are pulled only as room frees up, so a folder of a million files or a listing of a million
// keys is never held in memory at once. The bound is read again before each item, so it follows a
// setting that changes while the loop runs. If a worker throws, no new items start, the ones in
// flight finish, and the first error is rethrown. The same holds when the sequence throws.

export async function concurrentEach<T>(
  items: Iterable<T> | AsyncIterable<T>,
  limit: () => number,
  worker: (item: T) => Promise<void>,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  try {
    for await (const item of items) {
      while (inFlight.size >= Math.max(1, limit()) && !failure) await Promise.race(inFlight);
      if (failure) break;
      const run: Promise<void> = worker(item).then(
        () => {
          inFlight.delete(run);
        },
        (error: unknown) => {
          inFlight.delete(run);
          failure ??= { error };
        },
      );
      inFlight.add(run);
    }
  } finally {
    // Also when the sequence itself throws (a listing page that fails): the work already started
    // must end before the caller is told anything, or it would go on after the job "finished".
    await Promise.all(inFlight);
  }
  if (failure) throw failure.error;
}
