// The fault matrix: each scenario is one fault, applied while an upload or a download runs.
//
// The vitest suite (tests/integration/fault-matrix.test.ts) and the table runner (`npm run faults`)
// both run exactly this list, through run-scenario.ts, which also judges the outcome (the job
// completes; objects intact; no multipart upload, partial or corrupt file left).

import type { SettingsPatch } from '../../src/settings.ts';
import { MIB } from '../../src/byte-units.ts';
import type { ToxicStream } from '../support/toxiproxy.ts';
import type { FaultLab, Route } from './fault-lab.ts';
import { PAYLOAD_PART_SIZE_BYTES } from './payload.ts';

export type Direction = 'upload' | 'download';
export const DIRECTIONS: readonly Direction[] = ['upload', 'download'];

/** Settings every scenario starts from: small parts, so a few dozen MiB make many requests. */
export const MATRIX_SETTINGS = { threads: 4, partSizeBytes: PAYLOAD_PART_SIZE_BYTES } as const satisfies SettingsPatch;

export interface FaultContext {
  readonly lab: FaultLab;
  readonly direction: Direction;
  /**
   * The way the job's bulk data flows: request bodies (upstream) for an upload, responses (downstream) for a download.
   */
  readonly dataStream: ToxicStream;
  /** Bytes the job moves in all. */
  readonly totalBytes: number;
  /** Resolves once the job has moved this many bytes, or as soon as it ends: "mid-job". */
  bytesMoved(bytes: number): Promise<void>;
  /** Aborted when the job has ended: a fault that keeps acting stops then. */
  readonly jobEnded: AbortSignal;
}

export interface FaultScenario {
  /** Short and stable: a row of the table, part of a test's name. */
  readonly id: string;
  /** The fault, as a person would put it. */
  readonly description: string;
  readonly route: Route;
  /** Engine settings on top of MATRIX_SETTINGS. */
  readonly settings?: SettingsPatch;
  /** The fault must cost at least one retry: a scenario whose fault never hit the job proves nothing. */
  readonly expectsRetries: boolean;
  /** For a fault that only slows: a job faster than this cannot have met it. */
  minimumDurationMs?(totalBytes: number): number;
  /** Start the fault once the job runs; may return while the fault goes on. The lab clears what is left afterwards. */
  inject(context: FaultContext): Promise<void>;
}

/** Connections carry this much (in the job's data direction) and are then cut. */
const RESET_AFTER_BYTES = 8 * MIB;
const RESET_BURSTS = 3;
const RESET_BURST_MS = 100;
/** The stall outlasts the stall timeout comfortably, so every connection caught in it is abandoned. */
const STALL_TIMEOUT_MS = 1_000;
const STALL_MS = 2_500;
const ADDED_LATENCY_MS = 50;
/** Per connection, in toxiproxy's KB/s (1,000 bytes): 5 MB/s, a modest uplink. */
const BANDWIDTH_CAP_KBPS = 5_000;
/** A quick restart: with MinIO's own start (~0.6 s) the server gives no answer for about 1.6 s. */
const MINIO_DOWNTIME_MS = 1_000;
/** One request in this many is answered 503 SlowDown... */
const SLOW_DOWN_EVERY = 2;
/** ...but no single request more often than this, so the default 6 attempts always suffice. */
const SLOW_DOWN_PER_REQUEST_MAX = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const SCENARIOS: readonly FaultScenario[] = [
  {
    id: `reset-every-${RESET_AFTER_BYTES / MIB}-mib`,
    description: `every connection cut after carrying ${RESET_AFTER_BYTES / MIB} MiB (limit_data), in the direction the data flows`,
    route: 'toxiproxy',
    expectsRetries: true,
    // limit_data counts per connection: a fresh connection has the whole allowance again, so the job
    // can always make progress, while every connection that lives long enough dies mid-request.
    async inject({ lab, dataStream }) {
      await lab.toxiproxy.addToxic(
        'reset',
        { type: 'limit_data', attributes: { bytes: RESET_AFTER_BYTES } },
        { stream: dataStream },
      );
    },
  },
  {
    id: 'reset-bursts',
    description: `${RESET_BURSTS} bursts of resets mid-job (reset_peer for ${RESET_BURST_MS} ms): every connection in use dies`,
    route: 'toxiproxy',
    expectsRetries: true,
    // A request is caught by at most every burst, so it needs at most RESET_BURSTS + 1 attempts: the
    // default 6 always suffice, and the scenario fails only if the engine mishandles a reset.
    // Connections opened during a burst get a TCP RST; those already open are closed (FIN) instead.
    async inject({ lab, dataStream, totalBytes, bytesMoved, jobEnded }) {
      for (let burst = 1; burst <= RESET_BURSTS; burst++) {
        await bytesMoved((totalBytes * burst) / (RESET_BURSTS + 1));
        if (jobEnded.aborted) return;
        await lab.toxiproxy.addToxic(
          'reset-burst',
          { type: 'reset_peer', attributes: { timeout: 0 } },
          { stream: dataStream },
        );
        await sleep(RESET_BURST_MS);
        await lab.toxiproxy.removeToxic('reset-burst');
      }
    },
  },
  {
    id: 'stalled-connection',
    description: `no bytes either way for ${STALL_MS / 1000} s mid-job (timeout toxic), stall timeout ${STALL_TIMEOUT_MS / 1000} s`,
    route: 'toxiproxy',
    settings: { stallTimeoutMs: STALL_TIMEOUT_MS },
    expectsRetries: true,
    async inject({ lab, totalBytes, bytesMoved, jobEnded }) {
      await bytesMoved(totalBytes / 3);
      if (jobEnded.aborted) return;
      // timeout 0: data is swallowed and the connection stays open, silent, until the toxic goes.
      await lab.toxiproxy.addToxic('stall-up', { type: 'timeout', attributes: { timeout: 0 } }, { stream: 'upstream' });
      await lab.toxiproxy.addToxic(
        'stall-down',
        { type: 'timeout', attributes: { timeout: 0 } },
        { stream: 'downstream' },
      );
      await sleep(STALL_MS);
      await lab.toxiproxy.removeToxic('stall-up');
      await lab.toxiproxy.removeToxic('stall-down');
    },
  },
  {
    id: 'latency-bandwidth',
    description: `${ADDED_LATENCY_MS} ms added to every answer and ${BANDWIDTH_CAP_KBPS / 1000} MB/s per connection each way`,
    route: 'toxiproxy',
    // Slow is not broken: nothing should fail, and so nothing is expected to be retried.
    expectsRetries: false,
    // At most `threads` requests move data at once, each at the cap (80%: a first chunk goes out unmetered).
    minimumDurationMs: (totalBytes) => (0.8 * totalBytes) / (MATRIX_SETTINGS.threads * BANDWIDTH_CAP_KBPS),
    async inject({ lab }) {
      await lab.toxiproxy.addToxic(
        'latency',
        { type: 'latency', attributes: { latency: ADDED_LATENCY_MS } },
        { stream: 'downstream' },
      );
      await lab.toxiproxy.addToxic(
        'bandwidth-up',
        { type: 'bandwidth', attributes: { rate: BANDWIDTH_CAP_KBPS } },
        { stream: 'upstream' },
      );
      await lab.toxiproxy.addToxic(
        'bandwidth-down',
        { type: 'bandwidth', attributes: { rate: BANDWIDTH_CAP_KBPS } },
        { stream: 'downstream' },
      );
    },
  },
  {
    id: 'minio-restart',
    description: `MinIO killed mid-job and started again ${MINIO_DOWNTIME_MS / 1000} s later (same port and data)`,
    // Straight to the server: the engine meets what a real outage gives, refused connections.
    route: 'direct',
    expectsRetries: true,
    async inject({ lab, totalBytes, bytesMoved, jobEnded }) {
      await bytesMoved(totalBytes / 3);
      if (jobEnded.aborted) return;
      await lab.server.halt('SIGKILL');
      await sleep(MINIO_DOWNTIME_MS);
      await lab.server.restart();
    },
  },
  {
    id: 'slow-down-storm',
    description: `1 request in ${SLOW_DOWN_EVERY} answered 503 SlowDown (each request at most ${SLOW_DOWN_PER_REQUEST_MAX} times)`,
    route: 'http-proxy',
    expectsRetries: true,
    async inject({ lab }) {
      let seen = 0;
      const refusals = new Map<string, number>();
      lab.httpProxy.setRule((request) => {
        // The same request sent again: same method, path and query (part number, upload ID) and range.
        const identity = `${request.method} ${request.url} ${request.headers.range ?? ''}`;
        const refused = refusals.get(identity) ?? 0;
        if (seen++ % SLOW_DOWN_EVERY !== 0 || refused >= SLOW_DOWN_PER_REQUEST_MAX) return undefined;
        refusals.set(identity, refused + 1);
        return { kind: 'slow-down' };
      });
    },
  },
];
