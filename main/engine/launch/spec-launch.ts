// A spec becomes a job's work one way, whether it is new, resumed from the journal or restored
// after a restart: checked by its kind's schema, refused for what its kind refuses before anything
// is recorded or sent, given the place it acts on, then bound to its connection.

import type { JobKind } from '../../../src/jobs.ts';
import { jobBody, jobRefusal } from '../jobs/job-bodies.ts';
import type { ConnectionLookup } from '../jobs/job-bodies.ts';
import type { JobBody, JobTarget } from '../jobs/job.ts';
import { jobTarget, parseJobSpec } from '../jobs/job-specs.ts';
import type { JobSpecs } from '../jobs/job-specs.ts';
import type { S3Connection } from '../s3/s3-connection.ts';

export interface SpecLaunch<K extends JobKind = JobKind> {
  readonly kind: K;
  /** The spec as its schema reads it (defaults filled in). */
  readonly spec: JobSpecs[K];
  /** Where the job acts (its bucket and prefix), when it changes anything. */
  readonly target: JobTarget | undefined;
  /** A delete that only counts: it changes nothing, so there is nothing to record or resume. */
  readonly dryRun: boolean;
  /** The job's work on this connection. */
  body(connection: S3Connection): JobBody<unknown>;
}

/**
 * The one way from a spec to a job's work; throws the spec's refusal (InvalidRequest, NameCollision...).
 * `others`: the connections a spec names besides the job's own (a copy's source).
 */
export function launchSpec<K extends JobKind>(kind: K, spec: unknown, others?: ConnectionLookup): SpecLaunch<K> {
  const valid = parseJobSpec(kind, spec);
  const refusal = jobRefusal(kind, valid);
  if (refusal) throw refusal;
  return {
    kind,
    spec: valid,
    target: jobTarget(kind, valid),
    dryRun: 'dryRun' in valid && valid.dryRun === true,
    body: (connection) => jobBody(kind, valid, connection, others),
  };
}
