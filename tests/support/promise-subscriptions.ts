// How many times any one promise is subscribed to (`then`) while `run` runs.
//
// A reaction stays on a promise until it settles: a loop that subscribes to one long-lived promise
// per item holds memory in proportion to the items, however small each is. Promise.race and
// Promise.all subscribe through `then`, which this counts per promise (an `await` on a native promise
// does not go through it, so only those explicit subscriptions show).

export async function mostSubscriptionsToOnePromise(run: () => Promise<void>): Promise<number> {
  const counts = new Map<Promise<unknown>, number>();
  let most = 0;
  const then = Promise.prototype.then;
  Promise.prototype.then = function (this: Promise<unknown>, ...args: Parameters<typeof then>) {
    const count = (counts.get(this) ?? 0) + 1;
    counts.set(this, count);
    most = Math.max(most, count);
    return then.apply(this, args);
  } as typeof then;
  try {
    await run();
  } finally {
    Promise.prototype.then = then;
  }
  return most;
}
