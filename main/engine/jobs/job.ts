// A job: one unit of work the user sees (an upload, a download, a delete) and its life cycle.
//
// The job owns its state, counters and cancellation; the work itself is a `JobBody` that sends its
// requests through `JobRuntime.request`, which queues them in the shared scheduler and retries them.
// Retry (after a failure or a cancel) runs the body again; bodies that track items hand over the
// items that failed so only those run again.

import { setMaxListeners } from 'node:events';
import type {
  Conflict,
  ItemError,
  ItemFilter,
  ItemList,
  ItemPlace,
  JobItem,
  JobKind,
  JobSnapshot,
  JobState,
  JobSummary,
  JobUpdate,
} from '../../../src/jobs.ts';
import { isFinished } from '../../../src/jobs.ts';
import { ThroughputMeter } from '../../../src/throughput-meter.ts';
import { plural } from '../../../src/plural.ts';
import { printable } from '../../../src/unsafe-text.ts';
import type { RunSettings } from '../../../src/settings.ts';
import { choosePartSize } from '../../../src/part-size.ts';
import { isJobWide, rerunOf } from '../error-codes.ts';
import { BargeError, toJobError } from '../errors.ts';
import { NO_JOURNAL } from '../journal/job-journal.ts';
import type { JobJournal } from '../journal/job-journal.ts';
import type { JobOutcome } from '../journal/job-outcome.ts';
import type { RequestScheduler } from '../queue/request-scheduler.ts';
import type { RequestOutcome, RequestSignals } from '../queue/request-signals.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { abortError, classifyFailure } from '../queue/retry-policy.ts';
import type { ConflictChoice } from '../../../src/if-exists.ts';
import { ItemLog } from './item-log.ts';
import { ReceiptLog } from './receipt-log.ts';
import type { ReceiptEntry } from '../../../src/receipt.ts';
import { ArrivalCount } from './arrival.ts';
import type { Arrival } from './arrival.ts';

/** At most this many item errors are kept per job; the count goes on. */
const MAX_ITEM_ERRORS = 1_000;
/** Conflicts a snapshot shows at once (the window answers them one at a time). */
const MAX_SHOWN_CONFLICTS = 20;
/** Failed items kept for a retry of just those; past this a retry runs the whole job again. */
const MAX_RETRY_ITEMS = 100_000;

/** How long a job waits for a store that answered before and now refuses connections (restarting). */
const OUTAGE_PATIENCE_MS = 60_000;

export interface JobClock {
  now(): number;
}

export interface JobRuntime<Item> {
  readonly signal: AbortSignal;
  /** The job's ID (the same in every run of a journaled job). */
  readonly jobId: string;
  /** True once a job-wide failure stopped the job (as opposed to the user cancelling it). */
  readonly stoppedByFailure: boolean;
  /** Threads and Part size as numbers: pinned, or what Auto chose now. */
  readonly settings: Readonly<RunSettings>;
  /** The part size for a file or object of `size` bytes (Auto's choice for it, or the setting), within S3's limits. */
  partSizeFor(size: number): number;
  /**
   * Queue a request in the shared scheduler and retry it on throttling and network errors.
   * `attempt` counts from 1: a retry may want a new connection (the old one may be why it failed).
   */
  request<T>(send: (signal: AbortSignal, attempt: number) => Promise<T>): Promise<T>;
  /** Count newly found work (while walking a folder or listing a prefix). */
  addTotals(objects: number, bytes: number): void;
  /** All work has been found: totals are final. */
  totalsFinal(): void;
  /** Bytes moved; negative to take back the bytes of an attempt that failed. */
  addBytes(bytes: number): void;
  /** Resolves when the job may go on: at once, unless it is paused (then when it resumes or is cancelled). */
  whilePaused(): Promise<void>;
  /**
   * An item done: counted, and listed in the job's details (with a word on it, such as "checked for its size only").
   */
  objectDone(item: ItemPlace, note?: string): void;
  /** A finished object whose bytes could be checked only for their count, and why. */
  sizeOnly(name: string, why: string): void;
  /** An entry found but not sent (a named pipe, a link not followed), and why: counted, and named. */
  skipped(name: string, message: string): void;
  /** A file already there kept, as the user asked (--if-exists skip or newer): counted, and named by its path. */
  kept(item: ItemPlace, message: string): void;
  /** Ask the user what to do with a file or object that is already there (or use their "apply to all" answer). */
  askIfExists(question: ConflictQuestion): Promise<ConflictChoice>;
  /**
   * On a retry of the failed items, what the user chose for those already there: the answer that
   * failed them ("fail") would fail them again, so it stands in for the job's own; else undefined.
   */
  readonly retryAnswer: ConflictChoice | undefined;
  /**
   * Work an earlier run of this job finished (found in the journal): counted done, not as
   * throughput; with `item`, one item, listed in the details as done by that run.
   */
  alreadyDone(objects: number, bytes: number, item?: ItemPlace): void;
  /** Where the body records its progress, and finds what an earlier run did. */
  readonly journal: JobJournal;
  /** An item failed (named by its source); the job goes on with the others unless the error is job-wide. */
  itemFailed(item: Item, place: ItemPlace, error: unknown): void;
}

/** Items handed back for a retry, counted into the totals again as they are taken up. */
export async function* countedAgain<Item>(
  items: readonly Item[],
  runtime: JobRuntime<Item>,
  size: (item: Item) => number | undefined,
): AsyncGenerator<Item> {
  for (const item of items) {
    runtime.addTotals(1, size(item) ?? 0);
    yield item;
  }
}

/** What a job asks of a destination already there: the question without its ID. */
export type ConflictQuestion = Omit<Conflict, 'id'>;

/** The work of a job. `only` holds the items to do again on a retry, or undefined for everything. */
export type JobBody<Item> = (runtime: JobRuntime<Item>, only: readonly Item[] | undefined) => Promise<void>;

export interface JobOptions<Item> {
  readonly id: string;
  readonly kind: JobKind;
  readonly name: string;
  readonly body: JobBody<Item>;
  readonly scheduler: RequestScheduler;
  /** Where every request's time, bytes and outcome are measured (for Auto and what limits a transfer). */
  readonly signals?: RequestSignals;
  readonly settings: () => Readonly<RunSettings>;
  /** Auto's part size for a file of `size` bytes; without it, the setting (raised for 10,000 parts). */
  readonly partSizeFor?: (size: number) => number;
  readonly clock: JobClock;
  readonly onChange: (job: Job<Item>) => void;
  /** An item error or warning, once, as it is kept. */
  readonly onItem?: (job: Job<Item>, list: ItemList, item: ItemError) => void;
  /** What the job asks the user changed (a file already there is waiting, or was answered). */
  readonly onQuestions?: (job: Job<Item>) => void;
  readonly journal?: JobJournal;
  /** When the job was first created (a job brought back from the journal keeps its date). */
  readonly createdAt?: number;
  /** Where the job acts: a window showing that folder lists it again when the job completes. */
  readonly target?: JobTarget;
  /** A count of what it would do (a delete's dry run): it changes nothing. */
  readonly dryRun?: boolean;
  /**
   * A job brought back after a restart, as it stood then (failed, or paused, with its counts): it
   * does not run until it is resumed or retried, and then runs whole over its journal (which
   * skips what was done), since its items are no longer known one by one.
   */
  readonly restored?: JobOutcome;
  /** Files still on their way to this host (a browser's upload): the job's first phase waits for them. */
  readonly arrival?: Arrival;
}

/** The bucket and folder a job changes or reads (JobSummary's bucket and prefix). */
export interface JobTarget {
  readonly bucket: string;
  readonly prefix: string;
}

export class Job<Item = unknown> {
  readonly id: string;
  readonly kind: JobKind;
  readonly name: string;
  readonly createdAt: number;
  readonly target: JobTarget | undefined;
  readonly dryRun: boolean;
  /** The current run's start and end (a retry is a new run): a finished row shows its average. */
  private startedAt: number | undefined;
  private endedAt: number | undefined;
  private stateValue: JobState = { status: 'queued' };
  private controller = new AbortController();
  private meter = new ThroughputMeter();
  /** Objects done a second: a job of small files moves objects more than bytes. */
  private objectMeter = new ThroughputMeter();
  /** Who waits for a paused job to go on (a listing read ahead): woken by resume and cancel. */
  private pausedWaiters: (() => void)[] = [];
  private objectsDone = 0;
  private objectsFailed = 0;
  private objectsTotal = 0;
  private bytesDone = 0;
  private bytesTotal = 0;
  private totalsKnown = false;
  private itemErrors: ItemError[] = [];
  private objectsSizeOnly = 0;
  private objectsSkipped = 0;
  private objectsKept = 0;
  private itemWarnings: ItemError[] = [];
  private failedItems: Item[] = [];
  private failedItemsOverflow = false;
  /** Failed items the same answer would fail again (a file already there): a retry of them asks for another. */
  private failedNeedingChoice = 0;
  /** The answer a retry of the failed items was given for those already there (see JobRuntime.retryAnswer). */
  private retryAnswer: ConflictChoice | undefined;
  /** Every item as it ended, for the details (bounded in memory). */
  private readonly log = new ItemLog();
  /** What it stored or saved, for its receipt, where no journal records it (`options.journal` absent). */
  private readonly receiptLog = new ReceiptLog();
  private readonly journal: JobJournal;
  private jobWideError: BargeError | undefined;
  private running: Promise<void> | undefined;
  private retries = 0;
  private waitingForStore = false;
  /** Files already there, waiting for the user's word. */
  private readonly conflicts = new Map<
    string,
    { question: ConflictQuestion; answer: (choice: ConflictChoice) => void; refuse: (error: Error) => void }
  >();
  /** The user's answer for every file, once given with "apply to all". */
  private conflictChoice: ConflictChoice | undefined;
  private nextConflict = 1;
  /** Whether any request of this job got an answer: then the store exists, and refusals are outages. */
  private reachedStore = false;
  /** Brought back after a restart and not run since: its numbers are its last run's. */
  private restoredNotRun = false;
  /** Its files arriving (the first phase), while they do. */
  private arriving: ArrivalCount | undefined;
  /** Every file of its arrival is here: a retry does not wait for them again. */
  private arrived = false;

  private readonly options: JobOptions<Item>;

  constructor(options: JobOptions<Item>) {
    this.options = options;
    this.id = options.id;
    this.kind = options.kind;
    this.name = options.name;
    this.createdAt = options.createdAt ?? options.clock.now();
    this.target = options.target;
    this.dryRun = options.dryRun ?? false;
    this.journal = options.journal ?? {
      ...NO_JOURNAL,
      objectFinished: (object) => this.receiptLog.add(object, options.clock.now()),
    };
    if (options.restored) this.bringBack(options.restored);
  }

  /** Show the job as it stood when its process last saw it; an unfinished one, paused. */
  private bringBack(outcome: JobOutcome): void {
    this.restoredNotRun = true;
    const { state, progress: p } = outcome;
    this.stateValue =
      state.status === 'failed' || state.status === 'cancelled' || state.status === 'completed'
        ? state
        : { status: 'paused' };
    this.startedAt = outcome.startedAt;
    this.endedAt = outcome.endedAt;
    this.objectsDone = p.objectsDone;
    this.objectsFailed = p.objectsFailed;
    this.objectsTotal = p.objectsTotal;
    this.bytesDone = p.bytesDone;
    this.bytesTotal = p.bytesTotal;
    this.totalsKnown = p.totalsKnown;
    this.objectsSizeOnly = p.objectsSizeOnly ?? 0;
    this.objectsSkipped = p.objectsSkipped ?? 0;
    this.objectsKept = p.objectsKept ?? 0;
    this.retries = p.retries ?? 0;
    this.itemErrors = outcome.itemErrors.slice(0, MAX_ITEM_ERRORS);
    this.itemWarnings = outcome.itemWarnings.slice(0, MAX_ITEM_ERRORS);
    // Items that failed for a file already there would fail the same way on Retry: it asks, as before the restart.
    this.failedNeedingChoice = this.itemErrors.filter(
      (failed) => (failed.rerun ?? rerunOf(failed.code)) === 'needs-choice',
    ).length;
    // Its details list the failures it kept (the items done are in its receipt).
    for (const failed of this.itemErrors)
      this.log.add({
        source: failed.item,
        destination: '',
        state: 'failed',
        code: failed.code,
        message: failed.message,
      });
  }

  /** Where the job stands, for the journal: a restart brings it back so. */
  outcome(): JobOutcome {
    const { state, progress, startedAt, endedAt } = this.update();
    return {
      state,
      progress,
      startedAt,
      endedAt,
      itemErrors: this.itemErrors.slice(),
      itemWarnings: this.itemWarnings.slice(),
    };
  }

  get state(): JobState {
    return this.stateValue;
  }

  /** Requests retried so far (for diagnostics and the fault matrix). */
  get retryCount(): number {
    return this.retries;
  }

  start(): void {
    if (this.running || this.restoredNotRun) return;
    this.run(undefined);
  }

  /** Resolves when the job has finished, however it ended. */
  async finished(): Promise<JobSnapshot> {
    while (this.running) await this.running;
    return this.snapshot();
  }

  pause(): void {
    if (this.stateValue.status !== 'running' && this.stateValue.status !== 'queued') return;
    this.options.scheduler.pause(this.id);
    this.setState({ status: 'paused' });
  }

  resume(): void {
    if (this.stateValue.status !== 'paused') return;
    if (this.restoredNotRun) {
      // Its journal says what was done: it counts again from there.
      this.clearCounts();
      this.run(undefined);
      return;
    }
    this.options.scheduler.resume(this.id);
    this.setState({ status: 'running' });
    this.wakePaused();
  }

  /** Abort the requests in flight; the body cleans up (aborts multipart uploads) before the job ends. */
  cancel(): void {
    if (isFinished(this.stateValue)) return;
    this.controller.abort();
    this.options.scheduler.removeJob(this.id);
    this.wakePaused();
    // Nothing runs to end it (brought back, not resumed): it ends here.
    if (!this.running && this.restoredNotRun) {
      this.restoredNotRun = false;
      this.endedAt = this.options.clock.now();
      this.setState({ status: 'cancelled' });
    }
  }

  /** Run a failed or cancelled job again: only its failed items when it knows them. */
  retry(answer?: ConflictChoice): boolean {
    if (this.running || (this.stateValue.status !== 'failed' && this.stateValue.status !== 'cancelled')) return false;
    this.retryAnswer = answer;
    this.failedNeedingChoice = 0;
    // A job brought back after a restart knows its failures by name only: it runs whole over its
    // journal, which skips what was done.
    const onlyFailed = !this.restoredNotRun && this.failedOnlyRefusal() === undefined;
    const only = onlyFailed ? this.failedItems : undefined;
    if (onlyFailed) {
      // What is done stays done; the body counts the retried items again as it finds them.
      this.objectsFailed = 0;
      this.objectsTotal = this.objectsDone;
      this.bytesTotal = this.bytesDone;
      this.log.retrying();
    } else {
      this.clearCounts();
    }
    this.itemErrors = [];
    this.failedItems = [];
    this.failedItemsOverflow = false;
    this.jobWideError = undefined;
    this.controller = new AbortController();
    this.meter = new ThroughputMeter();
    this.objectMeter = new ThroughputMeter();
    this.run(only);
    return true;
  }

  /** Every count back to nothing, for a run that counts the job whole again. */
  private clearCounts(): void {
    this.log.clear();
    this.objectsDone = 0;
    this.objectsFailed = 0;
    this.objectsTotal = 0;
    this.objectsSizeOnly = 0;
    this.objectsSkipped = 0;
    this.objectsKept = 0;
    this.itemWarnings = [];
    this.itemErrors = [];
    this.bytesDone = 0;
    this.bytesTotal = 0;
    this.totalsKnown = false;
  }

  /**
   * Run exactly the items that failed again, within this job; refused (with why) where they are not
   * known, and where some failed for a file already there and no other answer is given for them:
   * the same answer would fail them again (ChoiceNeeded, which a window answers by asking).
   */
  retryFailed(answer?: ConflictChoice): void {
    const refusal = this.failedOnlyRefusal();
    if (refusal) throw refusal;
    const waiting = this.failedNeedingChoice;
    if (waiting > 0 && answer === undefined) {
      const what = this.kind === 'upload' || this.kind === 'copy' ? 'object' : 'file';
      throw new BargeError(
        'ChoiceNeeded',
        `${plural(waiting, 'item')} failed because ` +
          `${waiting === 1 ? `its ${what} was` : `their ${what}s were`} already there: ` +
          `retried the same way, ${waiting === 1 ? 'it' : 'they'} would fail again. Choose whether to replace ` +
          `${waiting === 1 ? 'it' : 'them'}, keep both, or skip ${waiting === 1 ? 'it' : 'them'}.`,
      );
    }
    this.retry(answer);
  }

  /** Why a retry of just the failed items cannot run, or undefined when it can. */
  private failedOnlyRefusal(): BargeError | undefined {
    if (this.running)
      return new BargeError(
        'JobNotFinished',
        'That job is still running: its failed items can be retried once it has ended.',
      );
    if (this.stateValue.status !== 'failed')
      return new BargeError('NothingToRetry', 'Only a job that ended with failed items has failed items to retry.');
    // A sync's retry is the sync again: it compares afresh, and sends only what still differs.
    if (this.kind === 'sync')
      return new BargeError(
        'FailedWhole',
        'A sync retries by running again: it compares afresh and sends only what still differs. Retry the whole job.',
      );
    if (this.jobWideError || this.stateValue.whole || this.objectsFailed === 0)
      return new BargeError(
        'FailedWhole',
        `This job failed as a whole (${this.stateValue.error.message}), not item by item: retry the whole job.`,
      );
    if (!this.totalsKnown)
      return new BargeError('FailedWhole', 'This job failed before it had found all its items: retry the whole job.');
    if (this.failedItemsOverflow)
      return new BargeError(
        'TooManyFailed',
        `More than ${MAX_RETRY_ITEMS.toLocaleString('en-US')} items failed, more than are kept to retry one by ` +
          `one: retry the whole job.`,
      );
    return undefined;
  }

  /** A page of the job's items (every one, or the failed ones), in the order they ended, and how many there are. */
  details(filter: ItemFilter, offset: number, limit: number): { items: JobItem[]; total: number; unlisted: number } {
    return { ...this.log.page(filter, offset, limit), unlisted: this.log.unlisted };
  }

  /** Every item (or every failed one), in the order they ended. */
  allItems(filter: ItemFilter): Generator<JobItem> {
    return this.log.all(filter);
  }

  /** What the job stored or saved, where no journal records it (else nothing: the journal has it). */
  unjournaledReceipt(): Generator<ReceiptEntry> {
    return this.receiptLog.all();
  }

  /** Let go of what the job holds for its details and receipt (it left the list). */
  dispose(): void {
    this.log.close();
    this.receiptLog.close();
  }

  /** The user's word on a file that is already there; with `applyToAll`, on every one of this job's. */
  resolveConflict(conflictId: string, choice: ConflictChoice, applyToAll: boolean): boolean {
    const conflict = this.conflicts.get(conflictId);
    if (!conflict) return false;
    conflict.answer(choice);
    if (applyToAll) {
      this.conflictChoice = choice;
      for (const other of [...this.conflicts.values()]) other.answer(choice);
    }
    this.changed();
    return true;
  }

  /** The job with its item lists (bounded). */
  snapshot(): JobSnapshot {
    return { ...this.summary(), itemErrors: this.itemErrors.slice(), itemWarnings: this.itemWarnings.slice() };
  }

  /** The job without its item lists: what a window keeps. */
  summary(): JobSummary {
    const conflicts = [...this.conflicts]
      .slice(0, MAX_SHOWN_CONFLICTS)
      .map(([id, conflict]) => ({ id, ...conflict.question }));
    return {
      ...this.update(),
      kind: this.kind,
      name: this.name,
      conflicts,
      createdAt: this.createdAt,
      ...this.target,
      ...(this.dryRun ? { dryRun: true } : {}),
    };
  }

  /** Bytes and objects a second now: zero unless the job runs (a paused or ended job moves nothing). */
  rates(): { bytesPerSecond: number; objectsPerSecond: number } {
    if (this.stateValue.status !== 'running') return { bytesPerSecond: 0, objectsPerSecond: 0 };
    const now = this.options.clock.now();
    return { bytesPerSecond: this.meter.bytesPerSecond(now), objectsPerSecond: this.objectMeter.bytesPerSecond(now) };
  }

  /**
   * Seconds left, from whichever rate is known: bytes for a big file (no object has ended yet),
   * objects for small files (each costs requests more than bytes), the longer where both are.
   */
  private etaSeconds(rates: { bytesPerSecond: number; objectsPerSecond: number }): number | undefined {
    const left = (remaining: number, perSecond: number) =>
      remaining <= 0 ? 0 : perSecond > 0 ? remaining / perSecond : undefined;
    const byBytes = left(this.bytesTotal - this.bytesDone, rates.bytesPerSecond);
    const byObjects = left(this.objectsTotal - this.objectsDone - this.objectsFailed, rates.objectsPerSecond);
    if (byBytes === undefined || byObjects === undefined) return byBytes ?? byObjects;
    return Math.max(byBytes, byObjects);
  }

  /** Where the job is: its state and numbers, what goes out ten times a second. */
  update(): JobUpdate {
    const active = this.stateValue.status === 'running';
    const rates = this.rates();
    return {
      id: this.id,
      state: this.stateValue,
      ...(this.startedAt === undefined ? {} : { startedAt: this.startedAt }),
      ...(this.endedAt === undefined ? {} : { endedAt: this.endedAt }),
      progress: {
        objectsDone: this.objectsDone,
        objectsFailed: this.objectsFailed,
        objectsSizeOnly: this.objectsSizeOnly,
        objectsSkipped: this.objectsSkipped,
        objectsKept: this.objectsKept,
        retries: this.retries,
        waitingForStore: active && this.waitingForStore,
        objectsTotal: this.objectsTotal,
        bytesDone: this.bytesDone,
        bytesTotal: this.bytesTotal,
        totalsKnown: this.totalsKnown,
        bytesPerSecond: rates.bytesPerSecond,
        objectsPerSecond: rates.objectsPerSecond,
        // While the job is still finding work this is a lower bound (shown as "3m or more").
        etaSeconds: active ? this.etaSeconds(rates) : undefined,
        ...(this.arriving ? { phase: this.arriving.phase(this.options.clock.now()) } : {}),
      },
    };
  }

  /** A page of one of the job's item lists, and how many it holds (bounded; the progress counts go on). */
  items(list: ItemList, offset: number, limit: number): { items: ItemError[]; total: number } {
    const all = list === 'errors' ? this.itemErrors : this.itemWarnings;
    return { items: all.slice(offset, offset + limit), total: all.length };
  }

  private run(only: readonly Item[] | undefined): void {
    this.restoredNotRun = false;
    const signal = this.controller.signal;
    // Every request in flight listens for cancellation: hundreds of listeners are expected here.
    setMaxListeners(0, signal);
    this.startedAt = this.options.clock.now();
    this.endedAt = undefined;
    this.setState({ status: 'running' });
    this.options.scheduler.resume(this.id);
    this.running = this.receive(signal)
      .then(() => this.options.body(this.runtime(signal), only))
      .then(
        () => this.finish(undefined),
        (error: unknown) => this.finish(error),
      );
  }

  /** The first phase: wait for the job's files to arrive, counting them (none: nothing to wait for). */
  private async receive(signal: AbortSignal): Promise<void> {
    const arrival = this.options.arrival;
    if (!arrival || this.arrived) return;
    const count = new ArrivalCount(arrival);
    this.arriving = count;
    this.changed();
    try {
      await arrival.wait((files, bytes) => {
        count.received(files, bytes, this.options.clock.now());
        this.changed();
      }, signal);
      this.arrived = true;
    } finally {
      this.arriving = undefined;
      this.changed();
    }
  }

  private finish(error: unknown): void {
    this.running = undefined;
    this.wakePaused();
    this.endedAt = this.options.clock.now();
    this.options.scheduler.removeJob(this.id);
    this.log.settle(this.controller.signal.aborted || Boolean(this.jobWideError || error));
    if (this.controller.signal.aborted && !this.jobWideError) {
      this.setState({ status: 'cancelled' });
    } else if (this.jobWideError || error) {
      this.setState({ status: 'failed', error: toJobError(this.jobWideError ?? error), whole: true });
    } else if (this.objectsFailed > 0) {
      const first = this.itemErrors[0];
      this.setState({
        status: 'failed',
        error: {
          code: first?.code ?? 'ItemsFailed',
          message: `${this.objectsFailed} of ${this.objectsTotal} failed; first: ${first?.message ?? 'unknown error'}`,
        },
      });
    } else {
      this.setState({ status: 'completed' });
    }
  }

  private runtime(signal: AbortSignal): JobRuntime<Item> {
    const settings = this.options.settings;
    const stoppedByFailure = () => this.jobWideError !== undefined;
    return {
      signal,
      jobId: this.id,
      get stoppedByFailure() {
        return stoppedByFailure();
      },
      get settings() {
        return settings();
      },
      partSizeFor: (size) =>
        choosePartSize(size, this.options.partSizeFor?.(size) ?? this.options.settings().partSizeBytes),
      request: (send) => this.request(signal, send),
      addTotals: (objects, bytes) => {
        this.objectsTotal += objects;
        this.bytesTotal += bytes;
        this.changed();
      },
      totalsFinal: () => {
        this.totalsKnown = true;
        this.changed();
      },
      addBytes: (bytes) => {
        this.bytesDone += bytes;
        if (bytes !== 0) {
          // Bytes taken back (a failed attempt) come off the speed too: it counts what stayed sent.
          this.meter.add(bytes, this.options.clock.now());
        }
        this.changed();
      },
      whilePaused: () => this.whilePaused(signal),
      objectDone: (item, note) => {
        this.objectsDone += 1;
        this.objectMeter.add(1, this.options.clock.now());
        this.log.add({ ...item, state: 'done', ...(note === undefined ? {} : { message: printable(note) }) });
        this.changed();
      },
      retryAnswer: this.retryAnswer,
      askIfExists: (question) => {
        if (this.conflictChoice) return Promise.resolve(this.conflictChoice);
        return new Promise<ConflictChoice>((resolve, reject) => {
          const id = String(this.nextConflict++);
          const onAbort = () => {
            if (this.conflicts.delete(id)) this.options.onQuestions?.(this);
            reject(abortError());
          };
          if (signal.aborted) return onAbort();
          signal.addEventListener('abort', onAbort, { once: true });
          this.conflicts.set(id, {
            question,
            answer: (choice) => {
              signal.removeEventListener('abort', onAbort);
              this.conflicts.delete(id);
              this.options.onQuestions?.(this);
              resolve(choice);
            },
            refuse: reject,
          });
          this.options.onQuestions?.(this);
          this.changed();
        });
      },
      kept: (item, message) => {
        this.objectsKept += 1;
        const warning = { item: item.destination, code: 'Exists', message: printable(message) };
        this.keepItem('warnings', warning);
        this.log.add({ ...item, state: 'kept', code: warning.code, message: warning.message });
        this.changed();
      },
      skipped: (name, message) => {
        this.objectsSkipped += 1;
        const warning = { item: name, code: 'Skipped', message: printable(message) };
        this.keepItem('warnings', warning);
        this.log.add({ source: name, destination: '', state: 'skipped', code: warning.code, message: warning.message });
        this.changed();
      },
      sizeOnly: (name, why) => {
        this.objectsSizeOnly += 1;
        this.keepItem('warnings', {
          item: name,
          code: 'SizeOnly',
          message: printable(`${name} was checked for its size only: ${why}.`),
        });
        this.changed();
      },
      alreadyDone: (objects, bytes, item) => {
        this.objectsDone += objects;
        this.bytesDone += bytes;
        if (item) this.log.add({ ...item, state: 'done', message: 'Done by an earlier run of this job.' });
        this.changed();
      },
      journal: this.journal,
      itemFailed: (item, place, error) => this.itemFailed(item, place, error),
    };
  }

  /** Resolves at once unless the job is paused; then when it resumes, or is cancelled or stopped. */
  private whilePaused(signal: AbortSignal): Promise<void> {
    if (this.stateValue.status !== 'paused' || signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.pausedWaiters.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  private wakePaused(): void {
    const waiters = this.pausedWaiters;
    this.pausedWaiters = [];
    for (const wake of waiters) wake();
  }

  /** One slot per attempt: the slot is given back while the retry waits out its backoff. */
  private request<T>(signal: AbortSignal, send: (signal: AbortSignal, attempt: number) => Promise<T>): Promise<T> {
    return withRetry(
      async (attempt) => {
        const release = await this.options.scheduler.acquire(this.id, signal);
        try {
          const signals = this.options.signals;
          const result = signals
            ? await signals.measure(() => send(signal, attempt), outcomeOf)
            : await send(signal, attempt);
          this.reachedStore = true;
          if (this.waitingForStore) {
            this.waitingForStore = false;
            this.changed();
          }
          return result;
        } finally {
          release();
        }
      },
      {
        signal,
        maxAttempts: this.options.settings().maxAttempts,
        onRetry: (error) => {
          this.retries += 1;
          // Refused connections from a store that answered before: an outage being waited out.
          if (this.reachedStore && classifyFailure(error) === 'unreachable') this.waitingForStore = true;
          this.changed();
        },
        // Once the store has answered this job, a refusal is an outage (a restart) worth waiting out.
        outagePatienceMs: () => (this.reachedStore ? OUTAGE_PATIENCE_MS : 0),
      },
    );
  }

  private itemFailed(item: Item, place: ItemPlace, error: unknown): void {
    // Once the job is cancelled (by the user, or by a job-wide error) the items still in flight fail
    // with aborts and resets: noise, not failures of their own.
    if (this.controller.signal.aborted) return;
    const jobError = toJobError(error);
    this.objectsFailed += 1;
    if (jobError.rerun === 'needs-choice') this.failedNeedingChoice += 1;
    this.keepItem('errors', { item: place.source, ...jobError });
    this.log.add({ ...place, state: 'failed', code: jobError.code, message: jobError.message });
    if (this.failedItems.length < MAX_RETRY_ITEMS) this.failedItems.push(item);
    else this.failedItemsOverflow = true;
    // A code that fails every item alike (error-codes.ts): the job stops at the first.
    if (isJobWide(jobError.code) && !this.jobWideError) {
      this.jobWideError = new BargeError(jobError.code, jobError.message);
      this.controller.abort();
      this.options.scheduler.removeJob(this.id);
    }
    this.changed();
  }

  /** Keep an item error or warning (the first ones: the counts go on) and tell it once. */
  private keepItem(list: ItemList, item: ItemError): void {
    const kept = list === 'errors' ? this.itemErrors : this.itemWarnings;
    if (kept.length >= MAX_ITEM_ERRORS) return;
    kept.push(item);
    this.options.onItem?.(this, list, item);
  }

  private setState(state: JobState): void {
    this.stateValue = state;
    this.changed();
  }

  private changed(): void {
    this.options.onChange(this);
  }
}

/** How a failed request counts in the signals. */
function outcomeOf(error: unknown): RequestOutcome {
  const kind = classifyFailure(error);
  return kind === 'throttle' ? 'throttled' : kind === 'cancelled' ? 'cancelled' : 'failed';
}
