// The name a download has while it is written: beside its target, named after the job, so a run
// that resumes the job finds it, two jobs never share one, and it is never the target's own name.
//
// It must fit wherever the final name fits: file systems take names of at most 255 bytes, and a
// name near that limit leaves no room for the suffix. Such a name is cut (at a character boundary)
// and given a short hash of the whole, so two long names that share a beginning stay apart.

import { createHash } from 'node:crypto';
import path from 'node:path';
import { cutToBytes, MAX_NAME_BYTES } from '../../../src/file-name-bytes.ts';
import { partialSuffix } from '../../../src/partial-names.ts';

export { targetOfTemporary } from '../../../src/partial-names.ts';

export function temporaryNameFor(target: string, jobId: string): string {
  const suffix = partialSuffix(jobId);
  const name = path.basename(target);
  if (Buffer.byteLength(name) + suffix.length <= MAX_NAME_BYTES) return `${target}${suffix}`;
  const hash = `~${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
  return path.join(
    path.dirname(target),
    `${cutToBytes(name, MAX_NAME_BYTES - suffix.length - hash.length)}${hash}${suffix}`,
  );
}
