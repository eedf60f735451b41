// A download met a file that is already there and waits for the user's word: overwrite, skip, keep
// both, or keep the newer, for this file or (with "apply to all") for every one of the download's.

import { useState } from 'react';
import type { ConflictChoice } from '../../src/if-exists.ts';
import type { JobView } from '../store/jobs-store.ts';
import { useJobs } from '../store/jobs-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';

const CHOICES: readonly { choice: ConflictChoice; label: string }[] = [
  { choice: 'overwrite', label: 'Overwrite' },
  { choice: 'skip', label: 'Skip' },
  { choice: 'rename', label: 'Keep both' },
  { choice: 'newer', label: 'Keep the newer' },
];

/** The first file waiting for an answer, among all jobs. */
export function firstConflict(jobs: Iterable<JobView>): { job: JobView; conflict: { id: string; path: string } } | undefined {
  for (const job of jobs) {
    const conflict = job.conflicts?.[0];
    if (conflict) return { job, conflict };
  }
  return undefined;
}

export function ConflictDialog({ job, conflict }: { job: JobView; conflict: { id: string; path: string } }) {
  const [applyToAll, setApplyToAll] = useState(false);
  const waiting = job.conflicts?.length ?? 1;
  const resolveConflict = useJobs((s) => s.resolveConflict);
  const answer = (choice: ConflictChoice) => void resolveConflict(job.id, conflict.id, choice, applyToAll);
  return (
    // Closing it without an answer leaves the file waiting; the dialog comes back with the next update.
    <Dialog key={`${job.id}:${conflict.id}`} title="A file is already there" onClose={() => answer('skip')}>
      <p><strong><Name text={conflict.path} /></strong> is already there (<Name text={job.name} />).</p>
      <div className="buttons">
        {CHOICES.map(({ choice, label }) => <button key={choice} type="button" onClick={() => answer(choice)}>{label}</button>)}
      </div>
      <label>
        <input type="checkbox" checked={applyToAll} onChange={(e) => setApplyToAll(e.target.checked)} /> Do the same for every file of this download{waiting > 1 ? ` (${waiting}+ waiting)` : ''}
      </label>
    </Dialog>
  );
}
