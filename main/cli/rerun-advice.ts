// What the command line advises after a run whose items failed: only what can help.
//
// The same command run again is the command line's "Retry failed items" (what was done is
// skipped). It can help an item that failed for a passing fault, or for one the user fixes outside
// Barge; it cannot help one refused for its name, a key that is not there or a feature the store
// lacks (their errors say why), and a file already there that --if-exists fail failed is failed
// again unless the command answers otherwise. Each failed item carries which it is (its `rerun`,
// from the engine's table of codes); those past the first thousand kept are taken to be retryable.

import type { JobKind, JobSnapshot } from '../../src/jobs.ts';
import { plural } from '../../src/plural.ts';

/**
 * The lines to print after a failed run's summary (none after a job that failed as a whole: its error says what to
 * change).
 */
export function rerunAdvice(end: Pick<JobSnapshot, 'kind' | 'state' | 'progress' | 'itemErrors'>): string[] {
  const failed = end.progress.objectsFailed;
  if (end.state.status !== 'failed' || end.state.whole || failed === 0) return [];
  const listed = end.itemErrors;
  const choice = listed.filter((error) => error.rerun === 'needs-choice').length;
  const same = listed.filter((error) => error.rerun === 'fails-again').length;
  const mayPass = failed - choice - same;
  const lines: string[] = [];
  if (mayPass === failed) {
    lines.push(
      `To retry the ${plural(failed, 'item')} that failed, run the same command again: what was done is skipped.`,
    );
  } else if (mayPass > 0) {
    lines.push(
      `To retry the ${plural(mayPass, 'item')} that may pass now, run the same command again: what was done is ` +
        `skipped` +
        ` (the other ${plural(failed - mayPass, 'item')} would fail the same way, as said above).`,
    );
  }
  if (choice > 0) {
    const what = destinationNoun(end.kind);
    lines.push(
      `${plural(choice, `${what} was`, `${what}s were`)} already there and not replaced: to decide for ` +
        `${choice === 1 ? 'it' : 'them'}, ` +
        'run the same command again with --if-exists overwrite, skip, rename or newer.',
    );
  }
  return lines;
}

function destinationNoun(kind: JobKind): string {
  return kind === 'upload' ? 'object' : 'file';
}
