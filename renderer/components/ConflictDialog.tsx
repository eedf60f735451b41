// A transfer met a destination already there and waits for the user's word: a download's file on
// disk, or an upload's object in the bucket. Both sides are shown (size, date, which is newer), and
// for an upload what replacing does in this bucket (kept as an older version, or gone for good).
// The answers: replace, skip, keep both, replace only if newer; for this one, or (with "do the same
// for every file") for every one of the job's.

import { useState } from 'react';
import { isNewer } from '../../src/if-exists.ts';
import type { ConflictChoice } from '../../src/if-exists.ts';
import type { Conflict, ConflictSide } from '../../src/jobs.ts';
import { formatBytes, formatDate } from '../format.ts';
import type { JobView } from '../store/jobs-store.ts';
import { useJobs } from '../store/jobs-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';

/** The words of the question, for a download (a file on disk) and an upload (an object in a bucket). */
const WORDS = {
  download: {
    title: 'A file is already there',
    there: 'On disk',
    incoming: 'From the bucket',
    every: 'Do the same for every file of this download',
    choices: [
      { choice: 'overwrite', label: 'Overwrite', hint: 'Replace the file on disk with the object' },
      { choice: 'skip', label: 'Skip', hint: 'Keep the file on disk; do not download the object' },
      {
        choice: 'rename',
        label: 'Keep both',
        hint: 'Save the object beside it, as "name (1).ext" (the first number free)',
      },
      { choice: 'newer', label: 'Overwrite if newer', hint: 'Replace the file only if the object is newer' },
    ],
  },
  upload: {
    title: 'An object is already there',
    there: 'In the bucket',
    incoming: 'Your file',
    every: 'Do the same for every file of this upload',
    choices: [
      { choice: 'overwrite', label: 'Replace', hint: 'Upload the file in place of the object' },
      { choice: 'skip', label: 'Skip', hint: 'Keep the object; do not upload the file' },
      {
        choice: 'rename',
        label: 'Keep both',
        hint: 'Upload the file beside it, as "name (1).ext" (the first number free)',
      },
      { choice: 'newer', label: 'Replace if newer', hint: 'Replace the object only if the file is newer' },
    ],
  },
} as const satisfies Record<'upload' | 'download', unknown>;

/** What replacing an object does in a bucket, by its versioning (unknown: nothing is said). */
export function replacingSays(versioning: Conflict['versioning']): string | undefined {
  switch (versioning) {
    case 'enabled':
      return 'This bucket keeps versions: if you replace it, the object there now stays as an older version.';
    case 'suspended':
      return (
        "This bucket's versioning is suspended: if you replace it, the object there now is kept as an " +
        'older version only if it was stored while versioning was on.'
      );
    case 'off':
      return 'This bucket keeps no versions: if you replace it, the object there now is gone for good.';
    case undefined:
      return undefined;
  }
}

/** The first question waiting for an answer, among all jobs. */
export function firstConflict(jobs: Iterable<JobView>): { job: JobView; conflict: Conflict } | undefined {
  for (const job of jobs) {
    const conflict = job.conflicts?.[0];
    if (conflict) return { job, conflict };
  }
  return undefined;
}

export function ConflictDialog({ job, conflict }: { job: JobView; conflict: Conflict }) {
  const [applyToAll, setApplyToAll] = useState(false);
  const waiting = job.conflicts?.length ?? 1;
  const resolveConflict = useJobs((s) => s.resolveConflict);
  const answer = (choice: ConflictChoice) => void resolveConflict(job.id, conflict.id, choice, applyToAll);
  const words = job.kind === 'upload' ? WORDS.upload : WORDS.download;
  const replacing = job.kind === 'upload' ? replacingSays(conflict.versioning) : undefined;
  return (
    // Closing it without an answer skips this one; the next question comes with the next update.
    <Dialog key={`${job.id}:${conflict.id}`} title={words.title} onClose={() => answer('skip')}>
      <p>
        <strong>
          <Name text={conflict.path} />
        </strong>{' '}
        is already there (<Name text={job.name} />
        ).
      </p>
      <table className="conflict-sides">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Which</span>
            </th>
            <th scope="col">Size</th>
            <th scope="col">Modified</th>
          </tr>
        </thead>
        <tbody>
          <SideRow label={words.there} side={conflict.existing} other={conflict.incoming} />
          <SideRow label={words.incoming} side={conflict.incoming} other={conflict.existing} />
        </tbody>
      </table>
      {replacing && <p className="hint">{replacing}</p>}
      <div className="buttons">
        {words.choices.map(({ choice, label, hint }) => (
          <button key={choice} type="button" title={hint} onClick={() => answer(choice)}>
            {label}
          </button>
        ))}
      </div>
      <label>
        <input type="checkbox" checked={applyToAll} onChange={(e) => setApplyToAll(e.target.checked)} /> {words.every}
        {waiting > 1 ? ` (${waiting - 1} more waiting so far)` : ''}
      </label>
    </Dialog>
  );
}

function SideRow({
  label,
  side,
  other,
}: {
  label: string;
  side: ConflictSide | undefined;
  other: ConflictSide | undefined;
}) {
  const newer = isNewer(side?.modifiedAt, other?.modifiedAt);
  return (
    <tr>
      <th scope="row">{label}</th>
      <td title={side?.size === undefined ? undefined : `${side.size.toLocaleString('en-US')} bytes`}>
        {side?.size === undefined ? 'unknown' : formatBytes(side.size)}
      </td>
      <td>
        {side?.modifiedAt === undefined ? 'unknown' : formatDate(side.modifiedAt, { seconds: true })}
        {newer ? <strong className="newer"> (newer)</strong> : null}
      </td>
    </tr>
  );
}
