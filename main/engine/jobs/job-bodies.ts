// The work of each kind of job, from its spec: the one place that maps a kind to its body.

import path from 'node:path';
import { fileNameProblem } from '../../../src/key-path.ts';
import { printable } from '../../../src/unsafe-text.ts';
import type { JobKind } from '../../../src/jobs.ts';
import type { S3Connection } from '../s3/s3-connection.ts';
import { copyBody } from './copy-job.ts';
import type { ConnectionLookup } from './copy-job.ts';

export type { ConnectionLookup } from './copy-job.ts';
import { deleteBody } from './delete-job.ts';
import { downloadBody } from './download-job.ts';
import type { JobBody } from './job.ts';
import type { JobSpecs } from './job-specs.ts';
import { uploadBody } from './upload-job.ts';
import { syncBody } from './sync-job.ts';
import { undoBody } from './undo-job.ts';
import { restoreBody } from './restore-job.ts';
import { sourcesCollide } from '../disk/local-files.ts';
import { BargeError } from '../errors.ts';

export function jobBody<K extends JobKind>(
  kind: K,
  spec: JobSpecs[K],
  connection: S3Connection,
  others?: ConnectionLookup,
): JobBody<unknown> {
  const bodies: { readonly [Kind in JobKind]: (spec: JobSpecs[Kind]) => JobBody<unknown> } = {
    upload: (upload) => uploadBody(connection, upload) as JobBody<unknown>,
    download: (download) => downloadBody(connection, download) as JobBody<unknown>,
    delete: (remove) => deleteBody(connection, remove) as JobBody<unknown>,
    sync: (sync) => syncBody(connection, sync),
    copy: (copy) => copyBody(connection, copy, others) as JobBody<unknown>,
    undo: (undo) => undoBody(connection, undo) as JobBody<unknown>,
    restore: (restore) => restoreBody(connection, restore) as JobBody<unknown>,
  };
  return (bodies[kind] as (spec: JobSpecs[K]) => JobBody<unknown>)(spec);
}

/**
 * Why a job must not start at all, found from its spec alone: refused before it is recorded or
 * anything is sent (a run of it again is then no "retry of the failures").
 */
export function jobRefusal<K extends JobKind>(kind: K, spec: JobSpecs[K]): BargeError | undefined {
  if (kind === 'delete') return deleteRefusal(spec as JobSpecs['delete']);
  if (kind === 'download') return downloadRefusal(spec as JobSpecs['download']);
  if (kind === 'restore') return restoreRefusal(spec as JobSpecs['restore']);
  if (kind !== 'upload') return undefined;
  const upload = spec as JobSpecs['upload'];
  const collision = sourcesCollide(upload.sources, upload.destination);
  return collision ? new BargeError('NameCollision', collision) : undefined;
}

/** Clocks differ by a little: a moment this far ahead is taken as now. */
const CLOCK_SKEW_MS = 5_000;

/** A moment still to come has no versions to restore to. */
function restoreRefusal(spec: JobSpecs['restore']): BargeError | undefined {
  if (spec.to <= Date.now() + CLOCK_SKEW_MS) return undefined;
  return new BargeError(
    'InvalidRequest',
    `${new Date(spec.to).toISOString()} is in the future: a restore brings back how things were at a past ` +
      `moment. Nothing was changed.`,
  );
}

/** A file saved under a name the user chose: a name no key could give it is refused as well. */
function downloadRefusal(spec: JobSpecs['download']): BargeError | undefined {
  if (spec.targetFile === undefined) return undefined;
  const name = path.basename(spec.targetFile);
  const problem = fileNameProblem(name, process.platform === 'win32' ? 'win32' : 'posix');
  return problem
    ? new BargeError(
        'InvalidRequest',
        `The name to save as, "${printable(name)}", ${problem}: nothing was downloaded. Choose another name.`,
      )
    : undefined;
}

/** A bucket is deleted only by a job that empties all of it: every version, every unfinished upload. */
function deleteRefusal(spec: JobSpecs['delete']): BargeError | undefined {
  if (!spec.deleteBucket) return undefined;
  const whole =
    (spec.keys ?? []).length === 0 &&
    (spec.prefixes ?? []).length === 1 &&
    spec.prefixes![0] === '' &&
    (spec.patterns ?? []).length === 0 &&
    spec.filter === undefined;
  if (whole && spec.allVersions && spec.abortUploads) return undefined;
  return new BargeError(
    'InvalidRequest',
    'A bucket is deleted by a job only once it is emptied whole: every object, every version and every ' +
      'unfinished upload.',
  );
}
