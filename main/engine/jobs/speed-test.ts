// The speed test of an endpoint (issue 29 §2): the grid of src/speed-test.ts measured on the user's own
// bucket, below a prefix of its own that is emptied afterwards, whatever the ending.
//
// Every request is one of s3/'s: PUTs, UploadParts and ranged GETs through the wire (so through the
// connection's byte gate, where Max speed holds them), multipart control and deletes through the SDK.
// Each cell runs its own concurrency (speed-test-cell.ts), beside the scheduler: the Threads setting
// must not cap what is measured, so the socket pool makes room for the grid's largest concurrency.
//
// Bodies come from one buffer of random bytes as large as the largest size (compression cannot help),
// each size a view of it, its Content-MD5 taken once: the store checks what it keeps, and the client
// spends its CPU on requests, not hashing.

import { createHash, randomBytes } from 'node:crypto';
import { formatS3Url } from '../../../src/s3-url.ts';
import {
  bytesPerSecond,
  cellInWords,
  DEFAULT_SPEED_TEST_GRID,
  planSpeedTest,
  sliceNow,
} from '../../../src/speed-test.ts';
import type {
  PlannedCell,
  SpeedCell,
  SpeedTestGrid,
  SpeedTestOutcome,
  SpeedTestProgress,
  SpeedTestResult,
} from '../../../src/speed-test.ts';
import { errorCode, toBargeError } from '../errors.ts';
import { withRetry } from '../queue/retry-loop.ts';
import { sleep } from '../queue/retry-policy.ts';
import { abortMultipartUpload } from '../s3/multipart-aborts.ts';
import { completeMultipartUpload, createMultipartUpload, listedParts, listPartsPage } from '../s3/multipart-upload.ts';
import type { CompletedPart } from '../s3/multipart-upload.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import type { StreamedBody } from '../s3/s3-wire.ts';
import { cleanUpSpeedTest } from './speed-test-cleanup.ts';
import { measureCell } from './speed-test-cell.ts';
import type { CellRequest } from './speed-test-cell.ts';

export interface SpeedTestOptions {
  readonly bucket: string;
  /** A folder's prefix ("bench/"), or "" for the bucket's top: the test's own prefix goes below it. */
  readonly prefix: string;
  readonly budgetMs: number;
  readonly grid?: SpeedTestGrid;
  /** The store, as the engine names it (s3/store-identity.ts): what the result is saved under. */
  readonly endpoint: string;
  /** Max speed when the test starts (0: off). */
  readonly maxRate: number;
  /** Transfers running as it starts, which share the link with it. */
  readonly runningJobs: number;
  /** Cancel: the test stops, then cleans up. */
  readonly signal: AbortSignal;
  readonly onProgress?: (progress: SpeedTestProgress) => void;
  readonly now?: () => number;
}

const PROGRESS_INTERVAL_MS = 250;
/** A part's body goes to the socket in views of this size, each counted as it is taken. */
const PART_CHUNK_BYTES = 1024 * 1024;
/** A cell with no request completed in its slice may go on this much longer, for its first. */
const GRACE_SLICES = 2;
const GRACE_AT_LEAST_MS = 1_000;

function graceFor(sliceMs: number): number {
  return Math.max(sliceMs * GRACE_SLICES, GRACE_AT_LEAST_MS);
}
/** S3's most parts in one upload. */
const MAX_PARTS = 10_000;
/** A complete refused for a part that landed after the list was read is tried with a new list this often. */
const COMPLETE_ATTEMPTS = 4;
const LATE_PART_WAIT_MS = 500;
/** Max speed is "reached" when some cell ran at this share of it or more. */
const REACHED_SHARE = 0.8;

/** The test's own prefix below the one given: its date and time, and a random tail, so two never meet. */
export function speedTestPrefix(prefix: string, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${prefix}.barge-speedtest-${stamp}-${randomBytes(3).toString('hex')}/`;
}

export async function runSpeedTest(connection: S3Connection, options: SpeedTestOptions): Promise<SpeedTestOutcome> {
  const now = options.now ?? Date.now;
  const grid = options.grid ?? DEFAULT_SPEED_TEST_GRID;
  const { bucket } = options;
  const startedAt = now();
  const prefix = speedTestPrefix(options.prefix, startedAt);
  const place = formatS3Url({ bucket, key: prefix });
  const plan = planSpeedTest(grid, options.budgetMs);
  const cells: SpeedCell[] = [];
  let current: PlannedCell | undefined;
  const tell = (phase: SpeedTestProgress['phase']) =>
    options.onProgress?.({
      phase,
      fraction: phase === 'cleaning' ? 1 : Math.min(0.99, (now() - startedAt) / options.budgetMs),
      cellsDone: cells.length,
      cellsTotal: plan.length,
      ...(current && phase === 'measuring' ? { cell: cellInWords(current) } : {}),
      place,
    });
  const ticker = setInterval(() => tell('measuring'), PROGRESS_INTERVAL_MS);
  const widest = Math.max(1, ...grid.threads, ...grid.partConcurrency);
  const releaseSockets = connection.reserveSockets(widest);
  const run = new GridRun(connection, bucket, prefix, Math.max(1, ...grid.objectSizes, ...grid.partSizes));
  let failure: unknown;
  try {
    for (const [at, planned] of plan.entries()) {
      if (options.signal.aborted) break;
      const left = plan.slice(at).filter((cell) => cell.grid === planned.grid).length;
      const elapsed = now() - startedAt;
      current = { ...planned, sliceMs: sliceNow(planned, elapsed, left) };
      tell('measuring');
      // Past the budget, a cell gets its slice and no grace: the budget wins over a figure.
      const graceMs = elapsed < options.budgetMs ? graceFor(current.sliceMs) : 0;
      cells.push(await run.measure(current, graceMs, options.signal));
    }
  } catch (error) {
    failure = error;
  } finally {
    clearInterval(ticker);
    releaseSockets();
  }
  current = undefined;
  tell('cleaning');
  const cleanup = await cleanUpSpeedTest(connection, bucket, prefix);
  if (options.signal.aborted) return { state: 'cancelled', cleanup };
  if (failure !== undefined) {
    const error = toBargeError(failure, `run the speed test in ${place}`);
    return { state: 'failed', error: { code: error.code, message: error.message }, cleanup };
  }
  const fastest = Math.max(0, ...cells.map(bytesPerSecond));
  const result: SpeedTestResult = {
    id: prefix.slice(options.prefix.length, -1),
    endpoint: options.endpoint,
    bucket,
    prefix: options.prefix,
    measuredAt: startedAt,
    budgetMs: options.budgetMs,
    elapsedMs: now() - startedAt,
    cells,
    ...(options.maxRate > 0
      ? { maxSpeed: { bytesPerSecond: options.maxRate, reached: fastest >= options.maxRate * REACHED_SHARE } }
      : {}),
    runningJobs: options.runningJobs,
  };
  return { state: 'done', result, cleanup };
}

/** The objects and large objects a run has written so far, and how each kind of cell is measured. */
class GridRun {
  /** Each small size's objects, which its downloads read. */
  private readonly objects = new Map<number, string[]>();
  /** Large objects completed, which the ranged GETs read. */
  private readonly large: { key: string; size: number }[] = [];
  private readonly data: Buffer;
  private readonly md5s = new Map<number, string>();
  private readonly connection: S3Connection;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(connection: S3Connection, bucket: string, prefix: string, largestBytes: number) {
    this.connection = connection;
    this.bucket = bucket;
    this.prefix = prefix;
    this.data = randomBytes(largestBytes);
  }

  async measure(planned: PlannedCell, graceMs: number, stop: AbortSignal): Promise<SpeedCell> {
    const base = {
      grid: planned.grid,
      direction: planned.direction,
      concurrency: planned.concurrency,
      sizeBytes: planned.sizeBytes,
    };
    const limits = {
      concurrency: planned.concurrency,
      sliceMs: planned.sliceMs,
      maxRequests: planned.maxRequests,
      graceMs,
    };
    if (planned.grid === 'parts' && planned.direction === 'up')
      return { ...base, ...(await this.partsUp(planned, graceMs, stop)) };
    const request = planned.grid === 'objects' ? this.objectRequest(planned) : this.rangeRequest(planned);
    if (request === undefined) {
      const what = planned.grid === 'objects' ? 'no object' : 'no large object';
      return {
        ...base,
        requests: 0,
        errors: 0,
        bytes: 0,
        elapsedMs: 0,
        note: `${what} of this size to read: its uploads completed none in their time`,
      };
    }
    return { ...base, ...(await measureCell(limits, request, stop)) };
  }

  private body(sizeBytes: number): { bytes: Buffer; md5: string } {
    const bytes = this.data.subarray(0, sizeBytes);
    let md5 = this.md5s.get(sizeBytes);
    if (md5 === undefined) {
      md5 = createHash('md5').update(bytes).digest('base64');
      this.md5s.set(sizeBytes, md5);
    }
    return { bytes, md5 };
  }

  /** A PUT of one small object, or a GET of one the uploads of its size wrote. */
  private objectRequest(planned: PlannedCell): CellRequest | undefined {
    const { sizeBytes, concurrency } = planned;
    const written = this.objects.get(sizeBytes) ?? [];
    this.objects.set(sizeBytes, written);
    if (planned.direction === 'up') {
      const { bytes, md5 } = this.body(sizeBytes);
      return async (index, signal, passed) => {
        const key = `${this.prefix}objects/${sizeBytes}/${concurrency}-${index}`;
        const body = viewBody(bytes);
        await this.connection.wire.putObject(this.bucket, key, body, sizeBytes, { 'content-md5': md5 }, signal);
        written.push(key);
        passed(sizeBytes);
      };
    }
    if (written.length === 0) return undefined;
    return async (index, signal, passed) => {
      await this.connection.wire.getObjectInto(
        this.bucket,
        written[index % written.length]!,
        { signal },
        counted(passed),
      );
    };
  }

  /** A ranged GET of one part's bytes from the largest object the multipart uploads made. */
  private rangeRequest(planned: PlannedCell): CellRequest | undefined {
    const source = this.large.filter((object) => object.size >= planned.sizeBytes).sort((a, b) => b.size - a.size)[0];
    if (!source) return undefined;
    const ranges = Math.floor(source.size / planned.sizeBytes);
    return async (index, signal, passed) => {
      const start = (index % ranges) * planned.sizeBytes;
      const range: [number, number] = [start, start + planned.sizeBytes - 1];
      await this.connection.wire.getObjectInto(this.bucket, source.key, { range, signal }, counted(passed));
    };
  }

  /**
   * One multipart upload's parts in flight for the slice; then completed (the ranged GETs read it) with
   * the parts that arrived, or aborted when none did. Creating and completing it are outside the slice.
   */
  private async partsUp(planned: PlannedCell, graceMs: number, stop: AbortSignal) {
    const { sizeBytes, concurrency } = planned;
    const key = `${this.prefix}parts/${sizeBytes}/${concurrency}`;
    const created = await withRetry(
      () =>
        createMultipartUpload(
          this.connection,
          { bucket: this.bucket, key, contentType: 'application/octet-stream', metadata: {} },
          stop,
        ),
      { signal: stop },
    );
    const uploadId = created.UploadId!;
    const parts: CompletedPart[] = [];
    const { bytes, md5 } = this.body(sizeBytes);
    const limits = {
      concurrency,
      sliceMs: planned.sliceMs,
      maxRequests: Math.min(planned.maxRequests, MAX_PARTS),
      graceMs,
    };
    let figures;
    let failed = true;
    try {
      figures = await measureCell(
        limits,
        async (index, signal, passed) => {
          const answer = await this.connection.wire.uploadPart(
            this.bucket,
            key,
            uploadId,
            index + 1,
            viewBody(bytes),
            sizeBytes,
            signal,
            { 'content-md5': md5 },
          );
          parts.push({ partNumber: index + 1, etag: answer.etag });
          passed(sizeBytes);
        },
        stop,
      );
      failed = false;
    } finally {
      // Every part request has settled on this side (the cell waits for its workers); a part cut late may
      // still land in the store, which the complete below allows for.
      if (failed || parts.length === 0 || stop.aborted)
        await abortMultipartUpload(this.connection, this.bucket, key, uploadId);
    }
    if (parts.length > 0 && !stop.aborted) {
      // A part cut at the slice's end may reach the store whole, unanswered, even after the cell ends: the
      // store's own list is completed, as Ceph's gateway refuses a list that leaves out a part it holds
      // (InvalidPart). Refused so, the list is read again once such a part has had time to land.
      try {
        const size = await this.completeWithStoredParts({ key, uploadId, ours: parts }, stop);
        this.large.push({ key, size: size * sizeBytes });
      } catch (error) {
        await abortMultipartUpload(this.connection, this.bucket, key, uploadId);
        throw error;
      }
    }
    return figures;
  }

  /** Complete an upload with the parts the store lists (ours where it cannot list them); how many it holds. */
  private async completeWithStoredParts(
    upload: { readonly key: string; readonly uploadId: string; readonly ours: readonly CompletedPart[] },
    stop: AbortSignal,
  ): Promise<number> {
    const where = { bucket: this.bucket, key: upload.key, uploadId: upload.uploadId };
    for (let attempt = 1; ; attempt++) {
      // Ours as well as the store's (its ETag where both have one): a store that lists late or not at all still
      // completes what was answered. A listing that fails leaves ours alone.
      const listed = await withRetry(() => storedParts(this.connection, where, stop), { signal: stop }).catch(() => []);
      const byNumber = new Map([...upload.ours, ...listed].map((part) => [part.partNumber, part]));
      const parts = [...byNumber.values()].sort((a, b) => a.partNumber - b.partNumber);
      try {
        await withRetry(() => completeMultipartUpload(this.connection, { ...where, parts, ifAbsent: false }, stop), {
          signal: stop,
        });
        return parts.length;
      } catch (error) {
        if (errorCode(error) !== 'InvalidPart' || attempt >= COMPLETE_ATTEMPTS) throw error;
        await sleep(LATE_PART_WAIT_MS, stop);
      }
    }
  }
}

/** The parts an upload holds, as the store lists them. */
async function storedParts(
  connection: S3Connection,
  where: { readonly bucket: string; readonly key: string; readonly uploadId: string },
  signal: AbortSignal,
): Promise<CompletedPart[]> {
  const parts: CompletedPart[] = [];
  for await (const part of listedParts((marker) => listPartsPage(connection, where, marker, signal)))
    if (part.PartNumber && part.ETag) parts.push({ partNumber: part.PartNumber, etag: part.ETag });
  return parts;
}

/** A GET's body counted as it arrives, and dropped. */
function counted(passed: (bytes: number) => void) {
  return {
    accept: () => undefined,
    write: async (chunk: Buffer) => passed(chunk.length),
  };
}

/**
 * A buffer as a streamed body, in views of it. Streamed, it goes unsigned (the store checks its
 * Content-MD5): signing would hash it on every request, CPU a 256-thread cell of 2 MiB objects would
 * measure instead of the store. An upload's bytes count once the store has them all (its answer): what
 * the socket took may still wait in buffers, megabytes of them at 64 in flight.
 */
function viewBody(bytes: Buffer): StreamedBody {
  return {
    async pipeTo(write) {
      for (let at = 0; at < bytes.length; at += PART_CHUNK_BYTES)
        await write(bytes.subarray(at, Math.min(bytes.length, at + PART_CHUNK_BYTES)));
    },
    release: async () => undefined,
  };
}
