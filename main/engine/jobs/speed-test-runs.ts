// The engine's speed tests: one at a time, each saved for its endpoint when it measured, all called off
// (and their prefixes emptied) when the engine closes.
//
// A result is saved in the journal beside the connection's name; without a journal (a test's engine,
// the command line without one), it is kept for this process. Auto starts from the saved best
// (engine.ts, startFromSpeedTest).

import { formatS3Url } from '../../../src/s3-url.ts';
import { savedSpeedTestFrom } from '../../../src/speed-test.ts';
import { printable, unsafeCharacterIn } from '../../../src/unsafe-text.ts';
import type { SavedSpeedTest, SpeedTestGrid, SpeedTestOutcome, SpeedTestProgress } from '../../../src/speed-test.ts';
import { BargeError, toBargeError } from '../errors.ts';
import type { Journal } from '../journal/journal.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { listObjectsPage } from '../s3/s3-listing.ts';
import { storeIdentity } from '../s3/store-identity.ts';
import { runSpeedTest } from './speed-test.ts';

/** A speed test to run (jobs/speed-test.ts). */
export interface SpeedTestRequest {
  readonly bucket: string;
  /** A folder's prefix, or "" for the bucket's top: the test writes below a prefix of its own there. */
  readonly prefix: string;
  readonly budgetMs: number;
  /** The cells; the default grid (src/speed-test.ts) without it. */
  readonly grid?: SpeedTestGrid;
  /** The connection's name in the host (its ID), which the result is saved under beside the endpoint. */
  readonly connectionRef?: string;
  readonly signal: AbortSignal;
  readonly onProgress?: (progress: SpeedTestProgress) => void;
}

export interface SpeedTestRunsOptions {
  /** Read the journal, if there is one now (undefined without). */
  readonly journalRead: <T>(read: (journal: Journal) => T) => T | undefined;
  /** Max speed now: the test holds to it too. */
  readonly maxRate: () => number;
  /** Jobs running now: the result says so, as they share the link with the test. */
  readonly runningJobs: () => number;
}

export class SpeedTestRuns {
  /** Speed tests running, which `cancelAll` calls off and waits for (their clean-up). */
  private readonly running = new Set<{ cancel: AbortController; ended: Promise<unknown> }>();
  /** Results kept for this process where there is no journal: endpoint and connection name, to its JSON. */
  private readonly kept = new Map<string, string>();
  /** A speed test is starting or running: another is refused until it ends. */
  private busy = false;
  /** cancelAll ran (the engine closes): no test starts, even one that was looking at its bucket then. */
  private closed = false;
  private readonly options: SpeedTestRunsOptions;

  constructor(options: SpeedTestRunsOptions) {
    this.options = options;
  }

  /**
   * Measure the store behind `connection` in a bucket: its grid within the budget, below a prefix of its own
   * emptied afterwards. Refused while another runs, and when the bucket cannot be listed (nothing written).
   */
  async start(
    connection: S3Connection,
    request: SpeedTestRequest,
  ): Promise<{ readonly ended: Promise<SpeedTestOutcome> }> {
    if (this.closed) throw closing();
    // One at a time: two would measure each other, and each holds up to 256 sockets and its bodies' buffer.
    if (this.busy)
      throw new BargeError(
        'AlreadyRunning',
        'A speed test is running already: wait for it to end, or cancel it, before starting another.',
      );
    // Its keys would carry it, and some stores refuse to delete what they stored (the test could not clean up).
    const unsafe = unsafeCharacterIn(request.prefix);
    if (unsafe)
      throw new BargeError(
        'UnsafeKey',
        `The speed test's folder "${printable(request.prefix)}" has ${unsafe}: run it in a folder whose name has none.`,
      );
    this.busy = true;
    try {
      // The bucket is there and may be listed, or the test fails now, having written nothing.
      await listObjectsPage(connection, { bucket: request.bucket, prefix: request.prefix, pageSize: 1 });
    } catch (error) {
      this.busy = false;
      throw toBargeError(
        error,
        `start the speed test in ${formatS3Url({ bucket: request.bucket, key: request.prefix })}`,
      );
    }
    // Closed while it looked at the bucket: cancelAll did not see it, so it does not start.
    if (this.closed) {
      this.busy = false;
      throw closing();
    }
    const ended = this.run(connection, request).finally(() => (this.busy = false));
    return { ended };
  }

  /**
   * The last speed test on `connection`'s endpoint (this connection's where it has one), with its best
   * setting: threads, part size and parts in flight, and when it was measured. What Auto starts from.
   */
  saved(connection: S3Connection, connectionRef?: string): SavedSpeedTest | undefined {
    const endpoint = storeIdentity(connection.endpoint.endpoint);
    const row = this.options.journalRead((journal) => journal.lastSpeedTest(endpoint, connectionRef));
    const kept =
      this.kept.get(`${endpoint}\n${connectionRef ?? ''}`) ??
      [...this.kept].find(([key]) => key.startsWith(`${endpoint}\n`))?.[1];
    const json = row?.result ?? kept;
    return json === undefined ? undefined : savedSpeedTestFrom(json);
  }

  /** Call off every test running, and wait until each has emptied its prefix; none starts after. */
  async cancelAll(): Promise<void> {
    this.closed = true;
    for (const test of this.running) test.cancel.abort();
    await Promise.all([...this.running].map((test) => test.ended.catch(() => undefined)));
  }

  private async run(connection: S3Connection, request: SpeedTestRequest): Promise<SpeedTestOutcome> {
    const cancel = new AbortController();
    const onCancel = () => cancel.abort(request.signal.reason);
    request.signal.addEventListener('abort', onCancel, { once: true });
    const endpoint = storeIdentity(connection.endpoint.endpoint);
    const ended = runSpeedTest(connection, {
      bucket: request.bucket,
      prefix: request.prefix,
      budgetMs: request.budgetMs,
      grid: request.grid,
      endpoint,
      maxRate: this.options.maxRate(),
      runningJobs: this.options.runningJobs(),
      signal: cancel.signal,
      onProgress: request.onProgress,
    });
    const running = { cancel, ended };
    this.running.add(running);
    try {
      const outcome = await ended;
      if (outcome.state === 'done') {
        const row = {
          endpoint,
          connectionRef: request.connectionRef ?? '',
          measuredAt: outcome.result.measuredAt,
          result: JSON.stringify(outcome.result),
        };
        const journaled = this.options.journalRead((journal) => (journal.saveSpeedTest(row), true)) ?? false;
        if (!journaled) this.kept.set(`${endpoint}\n${row.connectionRef}`, row.result);
      }
      return outcome;
    } finally {
      request.signal.removeEventListener('abort', onCancel);
      this.running.delete(running);
    }
  }
}

function closing(): BargeError {
  return new BargeError('Closed', 'The engine is closing: no speed test starts now.');
}
