// Engine settings: the Threads, Part size and Max speed knobs and the rest, with their defaults and limits.
//
// The zod schema is the one source of the type, the limits and the defaults; the command line, the
// IPC handlers and the UI all validate through it.
//
// Threads and Part size are "auto" unless pinned: the engine then sets them from what it measures
// (main/engine/queue/auto-tune.ts). A number, as every setting saved before Auto was, pins the knob.

import { z } from 'zod';
import { MIB } from './byte-units.ts';
import { MAX_PART_SIZE_BYTES, MIN_PART_SIZE_BYTES } from './part-size.ts';

export const MIN_THREADS = 1;
export const MAX_THREADS = 256;
/** The highest Max speed that can be set, 100 GB/s: past any link, and an integer JavaScript keeps exact. */
export const MAX_RATE_BYTES_PER_SECOND = 100_000_000_000;
/** Tries per request before its error is final, unless the settings say otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 6;

/** The value of a knob the engine sets itself. */
export const AUTO = 'auto';
export type Auto = typeof AUTO;

/** Threads and Part size before Auto, and where Auto starts without a speed test's best. */
export const FIXED_DEFAULT_THREADS = 64;
export const FIXED_DEFAULT_PART_SIZE_BYTES = 16 * MIB;

/**
 * "auto", or a whole number within the limits: one custom check, so the refusal says both choices
 * (a union would say only "not valid").
 */
function autoOrWhole(what: string, min: number, max: number, say: (value: number) => string = String) {
  return z.custom<number | Auto>(
    (value) => value === AUTO || (Number.isInteger(value) && (value as number) >= min && (value as number) <= max),
    { message: `${what} must be "auto" or a whole number from ${say(min)} to ${say(max)}.` },
  );
}

export const settingsSchema = z.object({
  /** Requests in flight across all jobs; "auto": the engine finds it (queue/auto-tune.ts). */
  threads: autoOrWhole('The number of requests in flight', MIN_THREADS, MAX_THREADS).default(AUTO),
  /**
   * Part size for multipart uploads and ranged downloads, in bytes; "auto": chosen per file from its size,
   * the threads and the measured bandwidth. Raised per file to stay within 10,000 parts.
   */
  partSizeBytes: autoOrWhole('The part size in bytes', MIN_PART_SIZE_BYTES, MAX_PART_SIZE_BYTES, partSizeWords).default(
    AUTO,
  ),
  /**
   * Tries per request, the first included. The engine makes every retry: the SDK client is built to
   * try once (`maxAttempts: 1` in s3-connection.ts), so nothing is retried on top of this.
   */
  maxAttempts: z.number().int().min(1).max(20).default(DEFAULT_MAX_ATTEMPTS),
  /**
   * Max speed: bytes a second across every running job, up and down together; 0 for no cap. Live:
   * the waiting bytes go at the new pace at once.
   */
  maxRate: z.number().int().min(0).max(MAX_RATE_BYTES_PER_SECOND).default(0),
  /** A request that moves no bytes for this long is abandoned and retried. */
  stallTimeoutMs: z.number().int().min(1_000).max(600_000).default(30_000),
  /**
   * The delete dialog offers Expire on the server (a lifecycle rule, the store deleting the prefix
   * itself) once its count passes this many keys: past a million, a delete from one machine takes hours.
   */
  expireOnServerAboveKeys: z.number().int().min(1).max(1_000_000_000_000).default(1_000_000),
});

export type Settings = z.infer<typeof settingsSchema>;

/** The settings a job runs with: Threads and Part size as numbers, Auto's choice where the knob is on Auto. */
export type RunSettings = Omit<Settings, 'threads' | 'partSizeBytes'> & {
  readonly threads: number;
  readonly partSizeBytes: number;
};

function partSizeWords(bytes: number): string {
  return bytes >= 1024 * MIB ? `${bytes / (1024 * MIB)} GiB (${bytes} bytes)` : `${bytes / MIB} MiB (${bytes} bytes)`;
}
export const settingsPatchSchema = settingsSchema.partial();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = settingsSchema.parse({});
