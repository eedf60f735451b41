// The name a download has while it is written ends in `.barge-<job>.partial` (the engine's
// disk/temporary-name.ts makes it); a message about such a file names the file it will become.

const PARTIAL_SUFFIX = /\.barge-[0-9a-f]+\.partial$/;

/** The suffix of a job's temporary names: the first 8 characters of its ID. */
export function partialSuffix(jobId: string): string {
  return `.barge-${jobId.slice(0, 8)}.partial`;
}

/** The target a temporary name stands for (a name that is not one is returned as it is; a cut one, cut). */
export function targetOfTemporary(name: string): string {
  return name.replace(PARTIAL_SUFFIX, '');
}
