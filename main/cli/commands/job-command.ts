// What every command that runs a job shares: the s3:// address it was given, whether it goes on from
// an unfinished run, and the exit status its end makes.

import os from 'node:os';
import { parseS3Url } from '../../../src/s3-url.ts';
import type { S3Location } from '../../../src/s3-url.ts';
import { bucketReferenceProblem } from '../../../src/s3-names.ts';
import { BargeError } from '../../../src/errors.ts';
import type { CliContext } from '../context.ts';
import { usageError } from '../options.ts';
import type { RunEnd } from '../run-job.ts';
import { RESUME_WITHIN_DAYS } from '../run-job.ts';

/**
 * Why `text` is no s3:// address, in words: "s3://" alone names no bucket; anything else is another
 * kind of address.
 */
export function notS3Address(text: string): string {
  return /^s3:\/\/\/?$/i.test(text)
    ? `"${text}" names no bucket: write s3://bucket/ or s3://bucket/key (barge ls lists the buckets).`
    : `"${text}" is not an s3:// address.`;
}

export function s3Location(text: string): S3Location {
  const location = parseS3Url(text);
  if (!location) throw usageError(notS3Address(text));
  const problem = bucketReferenceProblem(location.bucket);
  if (problem) throw new BargeError('InvalidBucketName', `The bucket name "${location.bucket}" ${problem}.`);
  return location;
}

/**
 * Whether an unfinished run of the same command goes on (the default) or starts afresh (--no-resume), and for how long
 * one may be resumed.
 */
export function rerun(cli: CliContext): { resume: boolean; resumeWithinMs: number } {
  return { resume: cli.options.resume, resumeWithinMs: RESUME_WITHIN_DAYS * 24 * 3600 * 1000 };
}

/**
 * 0 done, 1 failed, 3 done but something found was skipped (each named above); cancelled by a
 * signal, 128 + its number as shells expect (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
 */
export function exitStatus(end: RunEnd): number {
  const status = end.state.status;
  if (status === 'completed' && end.receiptMissing) return 1;
  if (status === 'completed') return (end.progress.objectsSkipped ?? 0) > 0 ? 3 : 0;
  if (status === 'cancelled') return 128 + (os.constants.signals[end.signal ?? 'SIGINT'] ?? 2);
  return 1;
}
