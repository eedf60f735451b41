// The name a download has while it is written: beside its target, named after the job, so a run
// that resumes the job finds it, two jobs never share one, and it is never the target's own name.

const SUFFIX = /\.barge-[0-9a-f]+\.partial$/;

export function temporaryNameFor(target: string, jobId: string): string {
  return `${target}.barge-${jobId.slice(0, 8)}.partial`;
}

/** The target a temporary name stands for (a name that is not one is returned as it is). */
export function targetOfTemporary(name: string): string {
  return name.replace(SUFFIX, '');
}
