// Where a recorded job stood when its process last saw it: its state, its counts, its run's times
// and its first item errors and warnings.
//
// A job brought back after a restart is shown as it was (a failed job failed, with the counts it
// had), not as a new run that counts again from nothing. Written when the job fails and when the
// host stops with jobs unfinished; read back through a schema, as specs are: a damaged record
// brings the job back as a crash would, never breaks the host.

import { z } from 'zod';
import type { ItemError, JobProgress, JobState } from '../../../src/jobs.ts';

export interface JobOutcome {
  readonly state: JobState;
  readonly progress: JobProgress;
  readonly startedAt?: number;
  readonly endedAt?: number;
  readonly itemErrors: readonly ItemError[];
  readonly itemWarnings: readonly ItemError[];
}

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
// With whether running it again as it was would help (rerun): Retry and the CLI's advice read it after a restart too.
const itemError = z.object({
  item: z.string(),
  code: z.string(),
  message: z.string(),
  rerun: z.enum(['fails-again', 'needs-choice']).optional(),
});
const error = z.object({ code: z.string(), message: z.string() });

const outcomeSchema = z.object({
  state: z.discriminatedUnion('status', [
    z.object({ status: z.enum(['queued', 'running', 'paused', 'completed', 'cancelled']) }),
    z.object({ status: z.literal('failed'), error, whole: z.boolean().optional() }),
  ]),
  progress: z.object({
    objectsDone: count,
    objectsFailed: count,
    objectsTotal: count,
    bytesDone: count,
    bytesTotal: count,
    totalsKnown: z.boolean(),
    objectsSizeOnly: count.optional(),
    objectsSkipped: count.optional(),
    objectsKept: count.optional(),
    retries: count.optional(),
  }),
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  itemErrors: z.array(itemError).max(10_000),
  itemWarnings: z.array(itemError).max(10_000),
});

/** A job's outcome as the journal keeps it (JSON; rates and ETA are left out: they were of that moment). */
export function outcomeRecord(outcome: JobOutcome): string {
  const { bytesPerSecond: _rate, etaSeconds: _eta, waitingForStore: _waiting, ...progress } = outcome.progress;
  return JSON.stringify({ ...outcome, progress });
}

/** A recorded outcome read back, or undefined when there is none or it does not hold together. */
export function parseOutcome(text: string | null | undefined): JobOutcome | undefined {
  if (!text) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = outcomeSchema.safeParse(json);
  if (!parsed.success) return undefined;
  return { ...parsed.data, progress: { ...parsed.data.progress, bytesPerSecond: 0, etaSeconds: undefined } };
}
