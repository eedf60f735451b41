// One limit on requests in flight, shared by every job.
//
// Jobs ask for a slot before each request and give it back after. Waiting requests queue per job and
// jobs take turns (round robin), so a job of a million small files cannot starve a job that starts
// later. The limit can change at any time: raising it grants waiting requests at once; lowering it
// lets the requests in flight finish and grants no more until the count is under the new limit.
// A paused job keeps its queue but is passed over.

import { abortError } from './retry-policy.ts';

export type ReleaseSlot = () => void;

interface Waiter {
  readonly grant: (release: ReleaseSlot) => void;
  readonly fail: (error: Error) => void;
}

class JobQueue {
  readonly waiters: Waiter[] = [];
  head = 0;
  paused = false;
  active = 0;
  /** The job is gone; the queue lives only until its last request in flight returns. */
  removed = false;

  get length(): number {
    return this.waiters.length - this.head;
  }

  shift(): Waiter | undefined {
    if (this.head >= this.waiters.length) return undefined;
    const waiter = this.waiters[this.head]!;
    this.head += 1;
    // Compact now and then so a long-lived queue does not keep every waiter it ever held.
    if (this.head > 1024 && this.head * 2 > this.waiters.length) {
      this.waiters.splice(0, this.head);
      this.head = 0;
    }
    return waiter;
  }

  remove(waiter: Waiter): boolean {
    const index = this.waiters.indexOf(waiter, this.head);
    if (index < 0) return false;
    this.waiters.splice(index, 1);
    return true;
  }
}

export class RequestScheduler {
  private limit: number;
  private activeCount = 0;
  private readonly queues = new Map<string, JobQueue>();
  /** Job ids in turn order; the next grant starts after `turn`. */
  private order: string[] = [];
  private turn = 0;

  constructor(threads: number) {
    this.limit = Math.max(1, Math.floor(threads));
  }

  get threads(): number {
    return this.limit;
  }

  set threads(value: number) {
    this.limit = Math.max(1, Math.floor(value));
    this.grantWaiting();
  }

  /** Requests in flight now. */
  get active(): number {
    return this.activeCount;
  }

  /** Requests waiting for a slot, for one job or for all. */
  waiting(jobId?: string): number {
    if (jobId !== undefined) return this.queues.get(jobId)?.length ?? 0;
    let total = 0;
    for (const queue of this.queues.values()) total += queue.length;
    return total;
  }

  /** Wait for a slot for `jobId`; the returned function gives it back (calling it twice is harmless). */
  acquire(jobId: string, signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(abortError());
    const queue = this.queueFor(jobId);
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const onAbort = () => {
        if (queue.remove(waiter)) reject(abortError());
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        fail: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.waiters.push(waiter);
      this.grantWaiting();
    });
  }

  pause(jobId: string): void {
    this.queueFor(jobId).paused = true;
  }

  resume(jobId: string): void {
    this.queueFor(jobId).paused = false;
    this.grantWaiting();
  }

  /** Forget a finished job; any requests still waiting for it fail with `error`. */
  removeJob(jobId: string, error: Error = abortError()): void {
    const queue = this.queues.get(jobId);
    if (!queue) return;
    queue.removed = true;
    for (let waiter = queue.shift(); waiter; waiter = queue.shift()) waiter.fail(error);
    if (queue.active === 0) this.forget(jobId);
  }

  private forget(jobId: string): void {
    this.queues.delete(jobId);
    this.order = this.order.filter((id) => id !== jobId);
    this.turn = 0;
  }

  private queueFor(jobId: string): JobQueue {
    let queue = this.queues.get(jobId);
    if (queue?.removed) queue.removed = false; // the same job started again (a retry)
    if (!queue) {
      queue = new JobQueue();
      this.queues.set(jobId, queue);
      this.order.push(jobId);
    }
    return queue;
  }

  private grantWaiting(): void {
    while (this.activeCount < this.limit) {
      const next = this.nextWaiter();
      if (!next) break;
      const [jobId, queue, waiter] = next;
      this.activeCount += 1;
      queue.active += 1;
      waiter.grant(this.releaseFor(jobId, queue));
    }
  }

  /** The next waiter in turn order, skipping paused and empty queues. */
  private nextWaiter(): [string, JobQueue, Waiter] | undefined {
    const count = this.order.length;
    for (let i = 0; i < count; i++) {
      const index = (this.turn + i) % count;
      const jobId = this.order[index]!;
      const queue = this.queues.get(jobId)!;
      if (queue.paused || queue.length === 0) continue;
      this.turn = (index + 1) % count;
      return [jobId, queue, queue.shift()!];
    }
    return undefined;
  }

  private releaseFor(jobId: string, queue: JobQueue): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.activeCount -= 1;
      queue.active -= 1;
      if (queue.removed && queue.active === 0 && this.queues.get(jobId) === queue) this.forget(jobId);
      this.grantWaiting();
    };
  }
}
